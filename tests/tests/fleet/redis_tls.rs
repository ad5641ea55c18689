//! The fleet's shared state on a Redis that accepts only TLS (design §19.3): `rediss://`
//! verified with a CA file, an ACL user in the URL, a client certificate for a Redis that asks
//! for one; and each mistake a clear error at start, naming where without secrets and saying
//! why. One `redis-server` with the test certificates of `fixtures/redis-tls` serves every
//! case, one after another.

use crate::support::redis_server::RedisServer;
use rondo_mcp::shared::{ConnectError, Redis, RedisConfig};
use rondo_mcp::state::{Claim, Ledger, ReplayGuard, RoundUse};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

fn certs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/redis-tls")
}

async fn open(config: RedisConfig) -> Result<Redis, ConnectError> {
    Redis::open(&config).await
}

/// The error `config` ends with, as printed; it must never hold `secret`.
async fn refused(config: RedisConfig, secret: &str) -> String {
    let e = open(config)
        .await
        .expect_err("refused at start")
        .to_string();
    eprintln!("refused at start: {e}");
    assert!(!e.contains(secret), "a secret printed: {e}");
    e
}

/// Every store works over the connection: a round taken and sent again, an effect claimed.
async fn works(redis: &Redis, flow: &str) {
    let later = SystemTime::now() + Duration::from_secs(60);
    let guard = redis.replay_guard();
    let round = format!("{flow}.1");
    let now = SystemTime::now();
    assert_eq!(
        guard.take(&round, "f", later, now).await.unwrap(),
        RoundUse::First
    );
    assert_eq!(
        guard.take(&round, "f", later, now).await.unwrap(),
        RoundUse::Again
    );
    let ledger = redis.ledger();
    let key = format!("{flow}/pay");
    assert_eq!(
        ledger.claim(&key, "me", later, now).await.unwrap(),
        Claim::First
    );
    ledger.record(&key, "me", "\"paid\"").await.unwrap();
    assert_eq!(
        ledger.claim(&key, "you", later, now).await.unwrap(),
        Claim::Done("\"paid\"".into())
    );
}

#[tokio::test]
async fn a_redis_over_tls_is_verified_with_its_ca_and_every_mistake_is_named_at_start() {
    let certs = certs();
    let Some(server) = RedisServer::start_tls(&certs, "optional") else {
        return;
    };
    let url = server.tls_url("");
    let ca = certs.join("ca.pem");

    // Verified with the CA file: every store works over TLS.
    let redis = open(RedisConfig::url(&url).ca_file(&ca)).await.unwrap();
    works(&redis, "tls-ca").await;

    // The system's roots do not know the test CA, nor does another CA: a clear error.
    let shown = format!("cannot reach Redis at {url}: its TLS certificate does not verify");
    for config in [
        RedisConfig::url(&url),
        RedisConfig::url(&url).ca_file(certs.join("other-ca.pem")),
    ] {
        let e = refused(config, "\u{0}").await;
        assert!(e.starts_with(&shown), "{e}");
    }
    // A CA file that cannot be read, or holds no certificate; a CA for a URL without TLS.
    let e = refused(
        RedisConfig::url(&url).ca_file(certs.join("missing.pem")),
        "\u{0}",
    )
    .await;
    assert!(
        e.contains("cannot read the CA file") && e.contains("missing.pem"),
        "{e}"
    );
    let e = refused(
        RedisConfig::url(&url).ca_file(certs.join("README.md")),
        "\u{0}",
    )
    .await;
    assert!(e.contains("holds no PEM CERTIFICATE"), "{e}");
    let plain = url.replace("rediss://", "redis://");
    let e = refused(RedisConfig::url(&plain).ca_file(&ca), "\u{0}").await;
    assert!(e.contains("is not a rediss:// URL"), "{e}");

    // An ACL user: its password (with `@`, `/` and `:`, encoded in the URL) works and is
    // never printed; a wrong one is refused without it.
    assert_eq!(
        server.command(&[
            "ACL",
            "SETUSER",
            "shop",
            "on",
            ">p@ss/w:rd",
            "~rondo:*",
            "+@all"
        ]),
        "+OK"
    );
    let user = server.tls_url("shop:p%40ss%2Fw%3Ard@");
    let redis = open(RedisConfig::url(&user).ca_file(&ca)).await.unwrap();
    works(&redis, "tls-acl").await;
    let wrong = server.tls_url("shop:wr0ngS3cret@");
    let e = refused(RedisConfig::url(&wrong).ca_file(&ca), "wr0ngS3cret").await;
    assert!(
        e.starts_with("cannot reach Redis at rediss://***:***@127.0.0.1:"),
        "{e}"
    );

    // Mutual TLS: a Redis that asks every client for a certificate refuses one without, and
    // serves one with the client certificate signed by its CA.
    assert_eq!(
        server.command(&["CONFIG", "SET", "tls-auth-clients", "yes"]),
        "+OK"
    );
    let e = refused(RedisConfig::url(&url).ca_file(&ca), "\u{0}").await;
    assert!(
        e.starts_with(&format!(
            "cannot reach Redis at {url}: it asks for a client certificate"
        )),
        "{e}"
    );
    let mutual = RedisConfig::url(&url)
        .ca_file(&ca)
        .client_cert(certs.join("client.pem"), certs.join("client.key.pem"));
    let redis = open(mutual).await.unwrap();
    works(&redis, "tls-mutual").await;
}
