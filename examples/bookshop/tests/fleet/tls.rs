//! The fleet on a Redis that accepts only TLS and asks every client for a certificate, as a
//! managed Redis does (design §19.3): `--redis rediss://user:password@...` (an ACL user whose
//! password holds `/` and `@`), `--redis-ca` (the test CA of `tests/fixtures/redis-tls`), and
//! `RONDO_REDIS_CLIENT_CERT` / `_KEY`. Each piece left out or wrong stops an instance at start
//! with one line that says why and prints no password; all of them given, the fleet orders.

use crate::client::End;
use crate::harness::{Fleet, State, TLS_CERTS, batch, within};
use crate::procs::refused_at_start;
use rondo_mcp::state::KeyRing;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
// Needs nginx and redis-server; scripts/test-all.sh installs them and runs these with --ignored.
#[ignore = "needs nginx and redis-server (scripts/test-all.sh installs them and runs these with --ignored)"]
async fn on_a_redis_that_takes_only_tls_and_client_certificates_the_fleet_orders() {
    within(async {
        let keys = KeyRing::generate_spec(1);
        let fleet = Fleet::start("tls", [&keys, &keys, &keys], State::Tls).await;
        let given = fleet.redis.as_ref().expect("redis").given();
        let url = given.args[1].as_str();
        let env: Vec<(&str, &str)> = given
            .env
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let shown = "bookshop: cannot reach Redis at rediss://***:***@127.0.0.1:";
        let mut lines = Vec::new();
        for (args, env, says) in [
            // The system's roots do not know the test CA.
            (
                vec!["--redis", url],
                env.clone(),
                "its TLS certificate does not verify",
            ),
            (
                vec!["--redis", url, "--redis-ca", "/nonexistent/ca.pem"],
                env.clone(),
                "cannot read the CA file /nonexistent/ca.pem",
            ),
            (
                vec!["--redis", url, "--redis-ca", &given.args[3]],
                Vec::new(),
                "it asks for a client certificate",
            ),
        ] {
            let line = refused_at_start(&args, &env);
            assert!(line.starts_with(shown) && line.contains(says), "{line}");
            assert!(
                !line.contains("s3cret") && !line.contains("p%40ss"),
                "{line}"
            );
            lines.push(line);
        }
        assert!(given.args[3].starts_with(TLS_CERTS));

        let flows = batch(fleet.front(), "tls", 0..60).await;
        for f in &flows {
            assert_eq!(f.end, End::Ordered, "flow {}: {f:?}", f.n);
        }
        let orders = fleet.orders("tls").await;
        assert_eq!(orders.values().sum::<usize>(), flows.len(), "{orders:?}");
        let ledger = fleet.ledger();
        assert_eq!((ledger.placed, ledger.claimed), (flows.len(), 0));
        eprintln!(
            "tls: refused at start: {}; with the CA, the client certificate and the ACL user: \
             {} flows ordered through nginx, orders {orders:?}, ledger {ledger:?}",
            lines.join(" | "),
            flows.len()
        );
    })
    .await;
}
