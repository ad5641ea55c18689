//! Requests on the newline transport: cancellation drops the handler and answers nothing (a
//! 2025-11-25 request waiting on the back-channel too, and a cancel of a reused id), requests
//! run concurrently up to `max_in_flight`, beyond which they wait in order and the reader holds
//! back, and a duplicate id in flight is refused.

use super::wire::*;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Revision, code};
use rondo_tests::servers::{Hand, Lab};
use serde_json::json;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::io::AsyncBufReadExt;

#[tokio::test]
async fn cancellation_drops_the_handler_and_nothing_is_sent_for_it() {
    let lab = Lab::new();
    let probe = lab.probe.clone();
    let mut w = Wire::start(Server::new(lab), Revision::V2026_07_28);
    w.send(call(json!(1), "slow")).await;
    bounded("the slow tool to start", probe.slow_started.notified()).await;
    w.send(cancelled(json!(1))).await;
    bounded(
        "the handler future to be dropped",
        probe.slow_dropped_notify.notified(),
    )
    .await;
    assert_eq!(probe.slow_dropped.load(Ordering::SeqCst), 1);

    // The next message on the stream answers a later request: nothing came for id 1.
    w.send(list(json!(2))).await;
    let next = w.recv().await.unwrap();
    assert_eq!(next["id"], 2, "{next}");
    // Cancelling an unknown or finished request is ignored.
    w.send(cancelled(json!(1))).await;
    w.send(cancelled(json!("never-sent"))).await;
    w.send(list(json!(3))).await;
    assert_eq!(w.recv().await.unwrap()["id"], 3);
    w.close_and_join(BOUND).await.unwrap();
    assert_eq!(w.recv().await, None, "output closes after the input");
}

#[tokio::test]
async fn cancelling_a_legacy_request_waiting_on_the_back_channel_sends_nothing_for_it() {
    let mut w = Wire::start(Server::new(Hand), Revision::V2025_11_25);
    w.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "wire", "version": "0"}}}),
    )
    .await;
    assert!(w.recv().await.unwrap()["result"]["protocolVersion"] == "2025-11-25");
    w.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "greet", "arguments": {}}}))
        .await;
    let ask = w.recv().await.unwrap();
    assert_eq!(ask["method"], "elicitation/create");
    w.send(cancelled(json!(2))).await;
    w.send(json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}))
        .await;
    let next = w.recv().await.unwrap();
    assert_eq!(
        next["id"], 3,
        "no response for the cancelled request: {next}"
    );
    // A late answer to the dropped question is ignored.
    w.send(json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "decline"}}))
        .await;
    w.send(json!({"jsonrpc": "2.0", "id": 4, "method": "ping"}))
        .await;
    assert_eq!(w.recv().await.unwrap()["id"], 4);
    w.close_and_join(BOUND).await.unwrap();
    assert_eq!(w.recv().await, None);
}

#[tokio::test]
async fn two_slow_requests_run_concurrently() {
    // `rendezvous` finishes only when two calls wait on its barrier at the same time.
    let mut w = Wire::start(Server::new(Lab::new()), Revision::V2026_07_28);
    w.send(call(json!("a"), "rendezvous")).await;
    w.send(call(json!("b"), "rendezvous")).await;
    let mut ids = [w.recv().await.unwrap(), w.recv().await.unwrap()];
    ids.sort_by_key(|m| m["id"].to_string());
    assert_eq!(ids[0]["id"], "a");
    assert_eq!(ids[1]["id"], "b");
    assert!(
        ids.iter()
            .all(|m| m["result"]["content"][0]["text"] == "met")
    );
    w.close_and_join(BOUND).await.unwrap();
}

#[tokio::test]
async fn a_duplicate_id_in_flight_is_refused_and_the_original_survives() {
    let lab = Lab::new();
    let probe = lab.probe.clone();
    let mut w = Wire::start(Server::new(lab), Revision::V2026_07_28);
    w.send(call(json!(7), "slow")).await;
    bounded("the slow tool to start", probe.slow_started.notified()).await;
    w.send(call(json!(7), "slow")).await;
    let e = w.recv().await.unwrap();
    assert_eq!(
        (e["id"].clone(), e["error"]["code"].clone()),
        (json!(7), json!(code::INVALID_REQUEST))
    );
    assert_eq!(
        probe.slow_dropped.load(Ordering::SeqCst),
        0,
        "the original still runs"
    );
    w.send(cancelled(json!(7))).await;
    bounded(
        "the original to be dropped",
        probe.slow_dropped_notify.notified(),
    )
    .await;
    w.close_and_join(BOUND).await.unwrap();
}

/// Nothing arrives within a short while: what a request that waits looks like from outside.
async fn nothing_within(w: &mut Wire, what: &str) {
    let mut line = Vec::new();
    let read = tokio::time::timeout(
        Duration::from_millis(300),
        w.from_server.read_until(b'\n', &mut line),
    )
    .await;
    assert!(
        read.is_err(),
        "{what}: got {}",
        String::from_utf8_lossy(&line)
    );
}

#[tokio::test]
async fn requests_beyond_max_in_flight_wait_for_a_place_in_order() {
    let lab = Lab::new();
    let probe = lab.probe.clone();
    let mut w = Wire::start(Server::new(lab).max_in_flight(2), Revision::V2026_07_28);
    w.send(call(json!(1), "slow")).await;
    bounded(
        "the first slow tool to start",
        probe.slow_started.notified(),
    )
    .await;
    w.send(call(json!(2), "slow")).await;
    bounded(
        "the second slow tool to start",
        probe.slow_started.notified(),
    )
    .await;

    // A third request waits: it is neither refused nor served while two run.
    w.send(list(json!(3))).await;
    nothing_within(&mut w, "a request beyond the limit waits").await;
    // A waiting request can be cancelled: it never runs and nothing is sent for it.
    w.send(cancelled(json!(3))).await;
    w.send(list(json!(4))).await;
    nothing_within(&mut w, "the next one waits too").await;
    assert_eq!(
        probe.slow_dropped.load(Ordering::SeqCst),
        0,
        "the running requests are untouched"
    );

    // Cancelling a running one frees its place: the first still waiting (4) is served.
    w.send(cancelled(json!(1))).await;
    let served = w.recv().await.unwrap();
    assert_eq!(served["id"], 4, "{served}");
    assert!(served["result"]["tools"].is_array(), "{served}");
    w.send(cancelled(json!(2))).await;
    w.close_and_join(BOUND).await.unwrap();
}

/// A client that writes far more requests than may run at once (here 300 against a limit of
/// 2), as an unwindowed pipeline does, gets every one of them answered: the reader holds back
/// instead of refusing.
#[tokio::test]
async fn a_flood_beyond_the_limit_is_held_back_not_refused() {
    let mut w = Wire::start(
        Server::new(Lab::new()).max_in_flight(2),
        Revision::V2026_07_28,
    );
    let flood: String = (1..=300)
        .map(|id| format!("{}\n", list(json!(id))))
        .collect();
    w.send_raw(flood.as_bytes()).await;
    let mut ids = Vec::new();
    for _ in 1..=300 {
        let answer = w.recv().await.unwrap();
        assert!(answer["result"]["tools"].is_array(), "{answer}");
        ids.push(answer["id"].as_i64().unwrap());
    }
    ids.sort_unstable();
    assert_eq!(ids, (1..=300).collect::<Vec<_>>());
    w.close_and_join(BOUND).await.unwrap();
}

/// While `max_in_flight` requests run and the waiting ones' lines add up to `max_message_bytes`,
/// the reader reads no further (the client's writes fill the pipe): a cancel written after them
/// is read only once a running request ends and frees a place. This bounds what a client can
/// make the server hold.
#[tokio::test]
async fn the_reader_stops_while_the_waiting_requests_are_full() {
    let lab = Lab::new();
    let probe = lab.probe.clone();
    let one_line = call(json!(2), "gate").to_string().len();
    let server = Server::new(lab)
        .max_in_flight(1)
        .max_message_bytes(one_line);
    let mut w = Wire::start(server, Revision::V2026_07_28);
    w.send(call(json!(1), "gate")).await;
    bounded("`gate` (1) to start", probe.gate_started.notified()).await;
    // 2 waits and fills the waiting room; the cancel of 1 behind it is not read.
    w.send(call(json!(2), "gate")).await;
    w.send(cancelled(json!(1))).await;
    nothing_within(&mut w, "nothing runs beyond the limit").await;
    // 1 is answered, though a cancel of it was written: the reader had stopped before it.
    probe.gate.notify_one();
    let first = w.recv().await.unwrap();
    assert_eq!(first["id"], 1, "{first}");
    assert_eq!(first["result"]["content"][0]["text"], "opened");
    // 2 starts in its place, and reading goes on.
    bounded("`gate` (2) to start", probe.gate_started.notified()).await;
    w.send(list(json!(3))).await;
    probe.gate.notify_one();
    let mut ids = vec![
        w.recv().await.unwrap()["id"].clone(),
        w.recv().await.unwrap()["id"].clone(),
    ];
    ids.sort_by_key(|id| id.as_i64());
    assert_eq!(ids, [json!(2), json!(3)]);
    w.close_and_join(BOUND).await.unwrap();
}

/// A cancelled request that finishes after a new request reused its id must not forget the
/// new one: cancel, reuse the id (both lines in one write, so the new request registers before
/// the cancelled task ends), then cancel again: the second request is dropped too.
#[tokio::test]
async fn a_cancel_of_a_reused_id_is_honoured() {
    let lab = Lab::new();
    let probe = lab.probe.clone();
    let mut w = Wire::start(Server::new(lab), Revision::V2026_07_28);
    for round in 1..=5 {
        w.send(call(json!(1), "slow")).await;
        bounded("the slow tool to start", probe.slow_started.notified()).await;
        let mut both = format!("{}\n{}\n", cancelled(json!(1)), call(json!(1), "slow"));
        if round == 1 {
            w.send_raw(both.as_bytes()).await;
        } else {
            // Later rounds: the cancel and the reuse arrive apart.
            let second = both.split_off(both.find('\n').unwrap() + 1);
            w.send_raw(both.as_bytes()).await;
            tokio::task::yield_now().await;
            w.send_raw(second.as_bytes()).await;
        }
        bounded(
            "the reused id's tool to start",
            probe.slow_started.notified(),
        )
        .await;
        w.send(cancelled(json!(1))).await;
        bounded("the reused id's tool to be dropped", async {
            while probe.slow_dropped.load(Ordering::SeqCst) < 2 * round {
                probe.slow_dropped_notify.notified().await;
            }
        })
        .await;
    }
    w.close_and_join(BOUND).await.unwrap();
    assert_eq!(
        w.recv().await,
        None,
        "nothing was sent for a cancelled request"
    );
}
