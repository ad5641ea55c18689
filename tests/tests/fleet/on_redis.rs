//! A fleet behaves as one server (design §19.1): two instances that share a key ring and one
//! Redis (`Server::shared_state(Redis::connect(url))`) refuse a round replayed on the other, and
//! an effect done with `Cx::once` happens once across them even where no replay guard holds;
//! Redis gone away or full costs a clear error, never an accept. Each test starts a
//! `redis-server` of its own.

use super::shop::*;
use crate::support::redis_server::RedisServer;
use rondo_mcp::shared::Redis;
use rondo_mcp::state::KeyRing;
use rondo_mcp::testing::TestClient;
use std::sync::atomic::Ordering;
use std::time::Duration;

const FROZEN: &str = "Invalid or expired requestState";

/// Two instances of one fleet: the same key ring and the same Redis, each on its own
/// connection, one shop behind both (the orders they place, counted together).
async fn fleet(url: &str, shop: &Shop, guard: bool) -> [TestClient; 2] {
    let keys = KeyRing::parse(&KeyRing::generate_spec(7)).unwrap();
    let mut out = Vec::new();
    for _ in 0..2 {
        let redis = Redis::connect(url).await.expect("connects");
        let s = server(shop).state_keys(keys.clone());
        let s = if guard {
            s.shared_state(redis)
        } else {
            // The guard forgot (TTL, a restart, another shard): only the ledger holds.
            s.without_replay_guard().ledger(redis.ledger())
        };
        out.push(client(s).await);
    }
    out.try_into().ok().unwrap()
}

#[tokio::test]
async fn a_final_round_sent_again_on_the_other_instance_gets_its_outcome_and_orders_nothing() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let shop = Shop::default();
    let [a, b] = fleet(&redis.url(), &shop, true).await;
    let state = first_round(&a).await;
    let r = answer(&a, &state, Some(true)).await.unwrap();
    assert_eq!(text(&r), "ordered #1");
    for c in [&b, &a, &b] {
        // Unchanged: the same round, served again, the recorded outcome.
        let r = answer(c, &state, Some(true)).await.unwrap();
        assert_eq!(text(&r), "ordered #1");
        // Changed: refused before the tool runs.
        let e = answer(c, &state, None).await.unwrap_err();
        assert_eq!((e.code, e.message.as_str()), (-32602, FROZEN));
    }
    // Asked on one, answered on the other: the fleet serves any retry once.
    let state = first_round(&a).await;
    let r = answer(&b, &state, Some(true)).await.unwrap();
    assert_eq!(text(&r), "ordered #2");
    let e = answer(&a, &state, Some(false)).await.unwrap_err();
    assert_eq!(e.code, -32602);
    assert_eq!(shop.placed.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn declined_on_one_instance_then_accepted_on_the_other_is_refused() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let shop = Shop::default();
    let [a, b] = fleet(&redis.url(), &shop, true).await;
    let state = first_round(&a).await;
    assert_eq!(text(&answer(&a, &state, None).await.unwrap()), "declined");
    let e = answer(&b, &state, Some(true)).await.unwrap_err();
    assert_eq!((e.code, e.message.as_str()), (-32602, FROZEN));
    assert_eq!(shop.placed.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn where_no_guard_holds_the_shared_ledger_still_orders_once() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let shop = Shop::default();
    let [a, b] = fleet(&redis.url(), &shop, false).await;
    let state = first_round(&a).await;
    assert_eq!(
        text(&answer(&a, &state, Some(true)).await.unwrap()),
        "ordered #1"
    );
    for c in [&b, &a, &b] {
        let r = answer(c, &state, Some(true)).await.unwrap();
        assert_eq!(
            text(&r),
            "ordered #1",
            "the recorded outcome, nothing placed"
        );
    }
    let state = first_round(&b).await;
    assert_eq!(text(&answer(&b, &state, None).await.unwrap()), "declined");
    let r = answer(&a, &state, Some(true)).await.unwrap();
    assert_eq!(
        text(&r),
        "declined",
        "consent is not replayed across instances"
    );
    assert_eq!(shop.placed.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_redis_gone_away_refuses_the_round_or_does_nothing_never_accepts() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let shop = Shop::default();
    let [a, _] = fleet(&redis.url(), &shop, true).await;
    let [c, _] = fleet(&redis.url(), &shop, false).await;
    let (guarded, unguarded) = (first_round(&a).await, first_round(&c).await);
    drop(redis);
    // The guard cannot tell: the round is refused with -32603, and nothing ran.
    let e = tokio::time::timeout(Duration::from_secs(10), answer(&a, &guarded, Some(true)))
        .await
        .expect("answers within the client's timeouts")
        .unwrap_err();
    assert_eq!(e.code, -32603, "{e:?}");
    assert!(
        e.message
            .starts_with("Redis, the server's shared state, did not answer"),
        "{e:?}"
    );
    // Without a guard the ledger cannot tell: the effect is not done.
    let r = answer(&c, &unguarded, Some(true)).await.unwrap();
    assert_eq!(r["isError"], true, "{r:#}");
    assert!(
        text(&r).starts_with("Nothing was done: Redis, the server's shared state, did not answer"),
        "{r:#}"
    );
    assert_eq!(shop.placed.load(Ordering::SeqCst), 0);
}

/// Sends one command to the Redis at `url` (`redis://127.0.0.1:PORT/`); its first reply
/// line.
fn command(url: &str, args: &[&str]) -> String {
    use std::io::{BufRead, Write};
    let addr = url.trim_start_matches("redis://").trim_end_matches('/');
    let mut s = std::net::TcpStream::connect(addr).expect("connects");
    let mut out = format!("*{}\r\n", args.len());
    for a in args {
        out.push_str(&format!("${}\r\n{a}\r\n", a.len()));
    }
    s.write_all(out.as_bytes()).expect("writes");
    let mut line = String::new();
    std::io::BufReader::new(s)
        .read_line(&mut line)
        .expect("reads");
    line.trim_end().to_owned()
}

#[tokio::test]
async fn a_full_redis_is_named_full_and_nothing_is_done() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let shop = Shop::default();
    let [a, _] = fleet(&redis.url(), &shop, true).await;
    let [c, _] = fleet(&redis.url(), &shop, false).await;
    let (guarded, unguarded) = (first_round(&a).await, first_round(&c).await);
    assert_eq!(
        command(&redis.url(), &["CONFIG", "SET", "maxmemory", "1"]),
        "+OK"
    );
    let e = answer(&a, &guarded, Some(true)).await.unwrap_err();
    assert_eq!(e.code, -32603, "{e:?}");
    assert_eq!(
        e.message,
        "Redis, the server's shared state, is full (maxmemory) and refused to record this; try again later"
    );
    let r = answer(&c, &unguarded, Some(true)).await.unwrap();
    assert!(
        text(&r).starts_with("Nothing was done: Redis, the server's shared state, is full"),
        "{r:#}"
    );
    assert_eq!(shop.placed.load(Ordering::SeqCst), 0);
    // Room again: the same rounds, sent again as they were told, complete once.
    assert_eq!(
        command(&redis.url(), &["CONFIG", "SET", "maxmemory", "0"]),
        "+OK"
    );
    let r = answer(&a, &guarded, Some(true)).await.unwrap();
    assert_eq!(text(&r), "ordered #1", "{r:#}");
    let r = answer(&c, &unguarded, Some(true)).await.unwrap();
    assert_eq!(text(&r), "ordered #2", "{r:#}");
}

#[tokio::test]
async fn while_redis_is_gone_every_round_is_refused_promptly() {
    // Each refusal within about a second, not after the connection's reconnect attempts
    // (six, with growing pauses, by default: a round waited 6 to 9 s on them).
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let shop = Shop::default();
    let [a, _] = fleet(&redis.url(), &shop, true).await;
    let mut states = Vec::new();
    for _ in 0..4 {
        states.push(first_round(&a).await);
    }
    drop(redis);
    for state in &states {
        let started = std::time::Instant::now();
        let e = answer(&a, state, Some(true)).await.unwrap_err();
        let took = started.elapsed();
        assert_eq!(e.code, -32603, "{e:?}");
        assert!(took < Duration::from_secs(3), "refused after {took:?}");
    }
    assert_eq!(shop.placed.load(Ordering::SeqCst), 0);
}
