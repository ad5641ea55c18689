//! What the newline transport reads: an oversized or undecodable line is answered and serving
//! continues (a good line behind it too), and end of input ends `serve_io` promptly, even with
//! a 2025-11-25 question waiting for its answer, after a drain for what still runs.

use super::wire::*;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Revision, code};
use rondo_mcp::testing::Validator;
use rondo_tests::servers::{Hand, Lab};
use serde_json::{Value, json};
use std::time::Duration;

#[tokio::test]
async fn an_oversized_line_is_invalid_request_and_serving_continues() {
    let check = Validator::new(Revision::V2026_07_28)
        .skip_validation_of("JSONRPCMessage", "sends lines of junk on purpose");
    let mut w = Wire::checked(Server::new(Lab::new()).max_message_bytes(1024), check);
    let mut big = call(json!(1), "echo");
    big["params"]["arguments"]["blob"] = json!("x".repeat(4096));
    w.send(big).await;
    let e = w
        .recv()
        .await
        .expect("an answer, not the end of the stream");
    assert_eq!(e["error"]["code"], code::INVALID_REQUEST, "{e}");
    // The request's `id` and `method` came before the cut: the error carries the id.
    assert_eq!(e["id"], 1, "the id read from the line's start: {e}");
    // The rest of the long line was skipped; the next line is served.
    w.send(list(json!(2))).await;
    let next = w.recv().await.expect("the server still serves");
    assert_eq!(next["id"], 2, "{next}");
    assert!(next["result"]["tools"].is_array());
    // Twice in a row, and a long line arriving in pieces.
    w.send_raw(&vec![b'x'; 3000]).await;
    w.send_raw(&vec![b'y'; 3000]).await;
    w.send_raw(b"\n").await;
    let e = w.recv().await.expect("answered");
    assert_eq!(e["error"]["code"], code::INVALID_REQUEST);
    assert!(e.get("id").is_none(), "no id in junk: {e}");
    w.send(list(json!(3))).await;
    assert_eq!(w.recv().await.expect("still serving")["id"], 3);
    w.close_and_join(BOUND).await.unwrap();
}

#[tokio::test]
async fn a_line_that_is_not_utf8_is_a_parse_error_and_serving_continues() {
    let check = Validator::new(Revision::V2026_07_28).skip_validation_of(
        "JSONRPCMessage",
        "sends a line that is not UTF-8 on purpose",
    );
    let mut w = Wire::checked(Server::new(Lab::new()), check);
    w.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\xfe\"}\n")
        .await;
    let e = w
        .recv()
        .await
        .expect("an answer, not the end of the stream");
    assert_eq!(e["error"]["code"], code::PARSE_ERROR, "{e}");
    w.send(list(json!(2))).await;
    assert_eq!(w.recv().await.expect("still serving")["id"], 2);
    w.close_and_join(BOUND).await.unwrap();
}

#[tokio::test]
async fn a_good_line_buffered_behind_a_bad_one_is_served_without_more_input() {
    let check = Validator::new(Revision::V2026_07_28)
        .skip_validation_of("JSONRPCMessage", "sends lines of junk on purpose");
    let mut w = Wire::checked(Server::new(Lab::new()).max_message_bytes(256), check);
    let good = list(json!(2)).to_string();
    let mut chunk = vec![b'z'; 1000];
    chunk.push(b'\n');
    chunk.extend_from_slice(b"\xff\n");
    chunk.extend_from_slice(good.as_bytes());
    chunk.push(b'\n');
    w.send_raw(&chunk).await;
    let codes: Vec<Value> = vec![
        w.recv().await.unwrap()["error"]["code"].clone(),
        w.recv().await.unwrap()["error"]["code"].clone(),
    ];
    assert_eq!(
        codes,
        [json!(code::INVALID_REQUEST), json!(code::PARSE_ERROR)]
    );
    assert_eq!(w.recv().await.expect("served from the buffer")["id"], 2);
    w.close_and_join(BOUND).await.unwrap();
}

#[tokio::test]
async fn end_of_input_returns_promptly_when_idle() {
    let mut w = Wire::start(Server::new(Lab::new()), Revision::V2026_07_28);
    w.send(list(json!(1))).await;
    assert_eq!(w.recv().await.unwrap()["id"], 1);
    w.close_and_join(Duration::from_secs(1)).await.unwrap();
    assert_eq!(w.recv().await, None, "output is closed");
}

#[tokio::test]
async fn end_of_input_returns_promptly_with_a_back_channel_question_pending() {
    let mut w = Wire::start(Server::new(Hand), Revision::V2025_11_25);
    initialize(&mut w).await;
    w.send(legacy_call(2, "greet")).await;
    assert_eq!(w.recv().await.unwrap()["method"], "elicitation/create");
    // Well under the 10 s drain and the 5 min ask timeout: the back-channel fails at EOF...
    w.close_and_join(Duration::from_secs(2)).await.unwrap();
    // ...and the tool, told so, still answers before the output ends.
    let answer = w.recv().await.expect("the tool's answer");
    assert_eq!(answer["id"], 2);
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "Cannot ask: the client went away before answering"
    );
    assert_eq!(w.recv().await, None);
}

/// A 2025-11-25 session on a `Lab` with `gate` running (started) and `steps` waiting for an
/// answer when the input closes. `steps` learns at once that its question will never be
/// answered: its answer shows that the server has seen the end of input.
async fn closed_with_gate_running() -> (Wire, std::sync::Arc<rondo_tests::servers::Probe>) {
    let lab = Lab::new();
    let probe = lab.probe.clone();
    let mut w = Wire::start(Server::new(lab), Revision::V2025_11_25);
    initialize(&mut w).await;
    w.send(legacy_call(2, "steps")).await;
    assert_eq!(w.recv().await.unwrap()["method"], "elicitation/create");
    w.send(legacy_call(3, "gate")).await;
    bounded("`gate` to start", probe.gate_started.notified()).await;
    w.close_input();
    let steps = w.recv().await.expect("the answer of `steps`");
    assert_eq!(steps["id"], 2);
    let text = steps["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("step1=disconnected"), "{text}");
    (w, probe)
}

/// The clock is paused (and moves only when every task waits), so the 10 s drain is measured
/// exactly and instantly.
#[tokio::test(start_paused = true)]
async fn a_request_running_at_end_of_input_still_gets_its_answer() {
    let (mut w, probe) = closed_with_gate_running().await;
    tokio::time::sleep(Duration::from_millis(9_900)).await;
    // `gate` finishes 9.9 s after the input closed, within the drain: its answer is written.
    probe.gate.notify_one();
    let gate = w
        .recv()
        .await
        .expect("the answer of `gate`, written after end of input");
    assert_eq!(gate["id"], 3);
    assert_eq!(gate["result"]["content"][0]["text"], "opened");
    assert_eq!(w.recv().await, None, "then the output ends");
    w.close_and_join(BOUND).await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_request_still_running_when_the_drain_ends_is_cancelled() {
    let (mut w, _probe) = closed_with_gate_running().await;
    tokio::time::sleep(Duration::from_millis(9_900)).await;
    let served = w.served.as_ref().expect("serving");
    assert!(
        !served.is_finished(),
        "still draining 9.9 s after end of input"
    );
    // Past 10 s `gate` is cancelled: nothing is written for it and `serve_io` returns.
    w.close_and_join(Duration::from_secs(60)).await.unwrap();
    assert_eq!(w.recv().await, None, "no answer for the cancelled request");
}
