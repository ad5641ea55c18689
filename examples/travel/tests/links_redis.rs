//! Payment links whose use is recorded on Redis (`--redis`): a link pays once, a Redis that
//! went away refuses the completion with a clear answer (503, nothing paid), never a payment
//! it could not record, and a press whose claim Redis ran after the page had answered
//! "try again" can be pressed again and pays, once (issue 45). Needs `redis-server` on PATH
//! (under `CI`, its absence fails).

use crate::common;

use crate::redis_server::RedisServer;
use common::*;
use rondo_example_travel::store::Booking;
use rondo_example_travel::{Config, web};
use rondo_mcp::protocol::Revision;
use rondo_mcp::shared::Redis;
use rondo_mcp::testing::Script;
use serde_json::Value;

async fn complete(link: &str) -> (u16, Value) {
    let (status, body) = web::post_json(&format!("{link}/complete"), "{}", 4096)
        .await
        .unwrap();
    (status, serde_json::from_str(&body).unwrap())
}

#[tokio::test]
async fn a_link_is_spent_once_on_redis_and_refused_while_redis_is_away() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let config = Config {
        shared: Some(Redis::connect(&redis.url()).await.unwrap()),
        ..Config::default()
    };
    let (server, travel) = travel(config).await;
    let c = client(server, Revision::V2026_07_28, everything(), Script::new()).await;

    let paid = link_for(&c, "demo").await;
    let (status, body) = complete(&paid).await;
    assert_eq!((status, &body["paid"]), (200, &Value::Bool(true)), "{body}");
    let (status, body) = complete(&paid).await;
    assert_eq!(status, 410, "{body}");

    // Another booking's link, with Redis gone: the page still shows (it reads nothing
    // there), the completion is refused and pays nothing.
    let booking = travel
        .store
        .book(|id| Booking {
            id,
            summary: "A trip".into(),
            total_usd: 100,
            passenger: "Grace Hopper".into(),
            receipt: None,
        })
        .unwrap();
    let link = link_for(&c, &booking.id).await;
    drop(redis);
    let (status, page) = web::get(&link, 65536).await.unwrap();
    assert_eq!(status, 200, "{page}");
    let (status, body) = complete(&link).await;
    assert_eq!(status, 503, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("Payments are unavailable right now. "),
        "{body}"
    );
    assert_eq!(travel.store.receipt(&booking.id), None);
}

#[tokio::test]
async fn a_press_whose_claim_redis_ran_late_can_be_pressed_again_and_pays_once() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let config = Config {
        shared: Some(Redis::connect(&redis.url()).await.unwrap()),
        ..Config::default()
    };
    let (server, travel) = travel(config).await;
    let c = client(server, Revision::V2026_07_28, everything(), Script::new()).await;
    // A payment before: the ledger's scripts are loaded in Redis, as on a server that has
    // been up a while (a first `EVALSHA` would come back `NOSCRIPT` and claim nothing).
    let earlier = travel
        .store
        .book(|id| Booking {
            id,
            summary: "A trip".into(),
            total_usd: 100,
            passenger: "Grace Hopper".into(),
            receipt: None,
        })
        .unwrap();
    let (status, body) = complete(&link_for(&c, &earlier.id).await).await;
    assert_eq!(status, 200, "{body}");
    let link = link_for(&c, "demo").await;
    // Redis frozen: the press's claim waits in Redis's socket; the page gives up on it and
    // says nothing was paid. Redis wakes and runs the claim after the answer.
    redis.signal("STOP");
    let (status, body) = complete(&link).await;
    assert_eq!(status, 503, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("Nothing was paid"),
        "{body}"
    );
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    redis.signal("CONT");
    // The page still offers to pay: nothing says "paid" while nothing was.
    let (status, page) = web::get(&link, 65536).await.unwrap();
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Not paid yet."), "{page}");
    assert_eq!(travel.store.receipt("demo"), None);
    // Pressed again: it pays (the late claim was given back by the press that made it).
    let (status, body) = complete(&link).await;
    assert_eq!((status, &body["paid"]), (200, &Value::Bool(true)), "{body}");
    assert_eq!(travel.store.receipt("demo").as_deref(), Some("R-DEMO-3000"));
    // And once: a third press is told the link was used, which it was.
    let (status, body) = complete(&link).await;
    assert_eq!(status, 410, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("This payment link has been used"),
        "{body}"
    );
}
