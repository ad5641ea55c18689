//! A fleet of three bookshops behind nginx (the Debian package, configured from the committed
//! `deploy/nginx/rondo.conf`) sharing one Redis (Debian's `redis-server`, started by the test,
//! given to each with `--redis`), driven at 2026-07-28 with the two-round order flow: the
//! confirmation is asked by one instance and the retry answered by whichever instance nginx
//! picks next. Shown: with a shared `RONDO_STATE_KEYS` every retry completes, wherever it
//! lands, once; with a key per instance every cross-instance retry gets the frozen `-32602`
//! and nothing else goes wrong; a key rotation in three phases across rolling restarts
//! (SIGTERM, graceful drain) loses no flow; a SIGKILLed instance loses no flow either (nginx
//! sends the next round elsewhere, and the client retries a round the dead instance never
//! answered); and a 2025-11-25 session is served through the config's address-hash port (and
//! lost through the round-robin one: the reason that port exists). `shared.rs`: what the shared
//! Redis adds (replays, declines, and the control without it); `kills.rs`: Redis restarted and
//! instances killed under a fleet sharing it. `faults.rs`: Redis frozen, stalled, full, killed and restarted under clients that time
//! out and resend, every order counted (issue 45).
//!
//! Needs nginx and redis-server, so the tests are ignored by a plain `cargo test`;
//! `scripts/test-all.sh` installs both and runs them:
//! `cargo test -p rondo-example-bookshop --test fleet -- --ignored --test-threads 1`.
//! All traffic is on 127.0.0.1; every wait is bounded.

mod client;
mod cluster;
mod faults;
mod harness;
mod kills;
mod load;
mod log;
mod procs;
mod redis;
mod sentinel;
mod shared;
mod tls;
mod topology;

use client::{End, Flow};
use harness::{CROSSED, Fleet, State, clean_log, until_crossed, within};
use load::{Killed, Load, spanning};
use rondo_mcp::state::KeyRing;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
// Needs nginx on PATH; scripts/test-all.sh installs it and runs these with --ignored.
#[ignore = "needs nginx (scripts/test-all.sh installs it and runs these with --ignored)"]
async fn shared_keys_any_instance_completes_any_retry() {
    within(async {
        let keys = KeyRing::generate_spec(1);
        let fleet = Fleet::start("shared", [&keys, &keys, &keys], State::Redis).await;
        let started = Instant::now();
        let (flows, served) = until_crossed(&fleet, "shared").await;
        let crossed = flows.iter().filter(|f| served.crossed(f)).count();
        for f in &flows {
            assert_eq!(f.end, End::Ordered, "flow {}: {f:?}", f.n);
            assert_eq!(f.retries(), 0, "flow {}: {f:?}", f.n);
        }
        clean_log(&served);
        let instances: std::collections::HashSet<_> =
            flows.iter().filter_map(|f| served.by(f, 1)).collect();
        assert_eq!(instances.len(), 3, "every instance served retries");
        assert!(crossed >= CROSSED, "only {crossed} flows crossed instances");
        // One order per flow, wherever its final round was answered.
        let orders = fleet.orders("shared").await;
        assert_eq!(orders.values().sum::<usize>(), flows.len(), "{orders:?}");
        let ledger = fleet.ledger();
        assert_eq!((ledger.placed, ledger.claimed), (flows.len(), 0));
        eprintln!(
            "shared keys: {} flows in {:?}, {crossed} with the retry on another instance, all ordered",
            flows.len(),
            started.elapsed()
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
// Needs nginx on PATH; scripts/test-all.sh installs it and runs these with --ignored.
#[ignore = "needs nginx (scripts/test-all.sh installs it and runs these with --ignored)"]
async fn own_keys_refuse_every_cross_instance_retry_and_nothing_else() {
    within(async {
        let keys = [1, 2, 3].map(KeyRing::generate_spec);
        let fleet = Fleet::start("own", [&keys[0], &keys[1], &keys[2]], State::Redis).await;
        let (flows, served) = until_crossed(&fleet, "own").await;
        let (mut refused, mut same) = (0, 0);
        for f in &flows {
            if served.crossed(f) {
                assert_eq!(f.end, End::Refused, "flow {} crossed: {f:?}", f.n);
                refused += 1;
            } else {
                // The control: the same instance opens its own state.
                assert_eq!(f.end, End::Ordered, "flow {} stayed: {f:?}", f.n);
                same += 1;
            }
            assert_eq!(f.retries(), 0, "flow {}: {f:?}", f.n);
        }
        clean_log(&served);
        assert!(refused >= CROSSED, "only {refused} flows crossed instances");
        assert!(same > 0, "no flow stayed on its instance: no control");
        eprintln!(
            "own keys: {refused} cross-instance retries refused with -32602, {same} on the same instance ordered"
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
// Needs nginx on PATH; scripts/test-all.sh installs it and runs these with --ignored.
#[ignore = "needs nginx (scripts/test-all.sh installs it and runs these with --ignored)"]
async fn key_rotation_in_three_phases_across_rolling_restarts_loses_no_flow() {
    within(async {
        let (old, new) = (KeyRing::generate_spec(1), KeyRing::generate_spec(2));
        let mut fleet = Fleet::start("rotation", [&old, &old, &old], State::Redis).await;
        let front = fleet.front();
        // Two confirmations left pending under the old key, answered later.
        let Ok(kept_open) = client::first_round(front, "kept", 10_000).await else {
            panic!("first round");
        };
        let Ok(kept_late) = client::first_round(front, "kept", 10_001).await else {
            panic!("first round");
        };
        let load = Load::start(front, "rotation", 8, Duration::from_millis(450));
        load.run_for(20).await;

        // Phase 1: every instance learns the new key; the old one still seals.
        for slot in 0..3 {
            fleet.restart(slot, &format!("{old},{new}")).await;
        }
        let phase2 = Instant::now();
        // Phase 2: the new key seals; the old one still opens.
        for slot in 0..3 {
            fleet.restart(slot, &format!("{new},{old}")).await;
        }
        let sealing_new = Instant::now();
        let kept_open = kept_open.confirm(front, "kept").await;
        assert_eq!(
            kept_open.end,
            End::Ordered,
            "old-key state before retirement"
        );
        // Phase 3 waits out the state lifetime: nothing sealed with the old key is still in use
        // (in production, Server::state_ttl after phase 2; here, every flow begun before it ended).
        load.settle(sealing_new).await;
        for slot in 0..3 {
            fleet.restart(slot, &new).await;
        }
        load.run_for(20).await;
        let flows = load.finish().await;
        // Retired means retired: old-key state is refused everywhere now.
        let kept_late = kept_late.confirm(front, "kept").await;
        assert_eq!(
            kept_late.end,
            End::Refused,
            "old-key state after retirement"
        );

        for f in &flows {
            assert_eq!(f.end, End::Ordered, "flow {}: {f:?}", f.n);
        }
        let first = |f: &&Flow| f.rounds[0].clone();
        let sealed_old = flows.iter().filter(|f| first(f).finished < phase2);
        assert!(
            sealed_old.clone().all(|f| f.key_id == Some(1)),
            "old key sealed"
        );
        let sealed_new = flows.iter().filter(|f| first(f).started > sealing_new);
        assert!(
            sealed_new.clone().all(|f| f.key_id == Some(2)),
            "new key sealed"
        );
        let (o, n) = (sealed_old.count(), sealed_new.count());
        assert!(
            o > 0 && n > 0,
            "{o} flows under the old key, {n} under the new"
        );
        let spanned = spanning(&flows, &fleet.events);
        assert!(
            spanned >= 9,
            "only {spanned} flows were pending across a restart"
        );
        let retries: usize = flows.iter().map(Flow::retries).sum();
        let served = fleet.served(&flows).await;
        let crossed = flows.iter().filter(|f| served.crossed(f)).count();
        eprintln!(
            "rotation: {} flows over 9 restarts, all ordered; {spanned} pending across a restart, \
             {crossed} retried on another instance, {o} sealed with the old key, {n} with the new; \
             {retries} rounds resent by the client after a 502",
            flows.len()
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
// Needs nginx on PATH; scripts/test-all.sh installs it and runs these with --ignored.
#[ignore = "needs nginx (scripts/test-all.sh installs it and runs these with --ignored)"]
async fn a_killed_instance_loses_no_flow() {
    within(async {
        // Without shared state, each instance's memory: every resend is accepted elsewhere, so
        // every flow completes, and a final round the victim had run when it died may have
        // ordered there too (its orders die with it, unseen). With Redis that round is refused
        // instead: `shared::a_killed_instance_with_shared_state_orders_nothing_twice`.
        let killed = Killed::run("kill", State::Memory).await;
        let flows = &killed.flows;
        for f in flows {
            assert_eq!(f.end, End::Ordered, "flow {}: {f:?}", f.n);
        }
        let rescued = killed.rescued();
        let retries: usize = flows.iter().map(Flow::retries).sum();
        eprintln!(
            "kill: {} flows, all ordered; {rescued} asked by the killed instance and finished by another; \
             {retries} rounds resent by the client after a 502 (in flight when it died)",
            flows.len()
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
// Needs nginx on PATH; scripts/test-all.sh installs it and runs these with --ignored.
#[ignore = "needs nginx (scripts/test-all.sh installs it and runs these with --ignored)"]
async fn legacy_sessions_need_the_affinity_port() {
    within(async {
        let keys = KeyRing::generate_spec(1);
        let fleet = Fleet::start("sessions", [&keys, &keys, &keys], State::Redis).await;
        // Through the address-hash port every request of the session reaches its instance.
        let (statuses, ids) = client::session_searches(fleet.nginx.sessions, "pinned", 11).await;
        assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        let log = log::entries(&fleet.nginx.access_log, &ids).await;
        let served: std::collections::HashSet<_> =
            ids.iter().filter_map(|id| log[*id].served_by()).collect();
        assert_eq!(served.len(), 1, "one session, one instance: {served:?}");
        // Through the round-robin port the other instances do not know the session: 404.
        let (statuses, _) = client::session_searches(fleet.front(), "spread", 11).await;
        let lost = statuses.iter().filter(|s| **s == 404).count();
        assert!(lost > 0 && lost + statuses.iter().filter(|s| **s == 200).count() == 12);
        eprintln!("sessions: 12 of 12 calls served through the affinity port, {lost} of 12 lost (404) through round-robin");
    })
    .await;
}

#[test]
fn the_committed_nginx_config_takes_the_fleet_ports() {
    let a: Vec<SocketAddr> = ["127.0.0.1:4001", "127.0.0.1:4002", "127.0.0.1:4003"]
        .iter()
        .map(|a| a.parse().unwrap())
        .collect();
    let conf = procs::nginx_conf(
        &a,
        "127.0.0.1:5000".parse().unwrap(),
        "127.0.0.1:5001".parse().unwrap(),
    );
    assert_eq!(conf.matches("server 127.0.0.1:4002 ").count(), 2);
    assert!(conf.contains("listen 127.0.0.1:5000;") && conf.contains("listen 127.0.0.1:5001;"));
    assert!(!conf.contains(":3001") && !conf.contains(":8080"));
}
