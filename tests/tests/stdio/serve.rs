//! The newline-delimited transport (`Server::serve_io`, which `serve_stdio` wraps) driven line by
//! line over in-memory pipes: cancellation drops the handler and answers nothing, requests run
//! concurrently (up to `max_in_flight`, beyond which they wait and the reader holds back), an oversized or
//! undecodable line is answered and serving continues, and end
//! of input ends `serve_io` promptly, even with a 2025-11-25 question waiting for its answer.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Revision, code};
use rondo_mcp::testing::Validator;
use rondo_tests::servers::{Hand, Lab};
use serde_json::{Value, json};
use std::io;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::task::JoinHandle;

/// Bound on every wait in this file.
const BOUND: Duration = Duration::from_secs(5);

/// A client end of `serve_io`: writes lines, reads lines, and checks every line both ways
/// against the official schema of `rev` as it passes (a violation fails the test there).
struct Wire {
    to_server: Option<DuplexStream>,
    from_server: BufReader<DuplexStream>,
    check: Validator,
    /// Bytes written since the last newline (a line may be written in pieces).
    partial: Vec<u8>,
    served: Option<JoinHandle<io::Result<()>>>,
}

impl Wire {
    fn start<H: Handler>(server: Server<H>, rev: Revision) -> Wire {
        Wire::checked(server, Validator::new(rev))
    }

    fn checked<H: Handler>(server: Server<H>, check: Validator) -> Wire {
        let (client_w, server_r) = tokio::io::duplex(1 << 20);
        let (server_w, client_r) = tokio::io::duplex(1 << 20);
        let served = tokio::spawn(server.serve_io(server_r, server_w));
        Wire {
            to_server: Some(client_w),
            from_server: BufReader::new(client_r),
            check,
            partial: Vec::new(),
            served: Some(served),
        }
    }

    async fn send(&mut self, msg: Value) {
        let mut line = msg.to_string().into_bytes();
        line.push(b'\n');
        self.send_raw(&line).await;
    }

    /// Writes bytes as they are; each line they complete is checked.
    async fn send_raw(&mut self, bytes: &[u8]) {
        self.partial.extend_from_slice(bytes);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            self.check.sent(&line[..end]);
        }
        self.check.assert_valid();
        let w = self.to_server.as_mut().expect("input still open");
        w.write_all(bytes).await.expect("server reads");
        w.flush().await.expect("server reads");
    }

    /// The next message from the server, `None` at end of output.
    async fn recv(&mut self) -> Option<Value> {
        let mut line = Vec::new();
        let n = tokio::time::timeout(BOUND, self.from_server.read_until(b'\n', &mut line))
            .await
            .expect("the server answers in time")
            .expect("readable");
        if n == 0 {
            return None;
        }
        assert_eq!(
            line.pop(),
            Some(b'\n'),
            "every output line ends with a newline"
        );
        self.check.received(&line);
        self.check.assert_valid();
        Some(serde_json::from_slice(&line).expect("checked: JSON"))
    }

    /// Ends the server's input.
    fn close_input(&mut self) {
        drop(self.to_server.take());
    }

    /// Closes the server's input and waits (bounded) for `serve_io` to return.
    async fn close_and_join(&mut self, bound: Duration) -> io::Result<()> {
        self.close_input();
        let served = self.served.take().expect("joined once");
        tokio::time::timeout(bound, served)
            .await
            .expect("serve_io returns promptly after end of input")
            .expect("serve_io does not panic")
    }
}

fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

fn call(id: Value, tool: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"_meta": modern_meta(), "name": tool, "arguments": {}}})
}

fn list(id: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {"_meta": modern_meta()}})
}

fn cancelled(id: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "user changed their mind"}})
}

async fn bounded<F: std::future::Future>(what: &str, f: F) -> F::Output {
    tokio::time::timeout(BOUND, f)
        .await
        .unwrap_or_else(|_| panic!("timed out waiting for {what}"))
}

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

/// Opens a 2025-11-25 session that declares elicitation.
async fn initialize(w: &mut Wire) {
    w.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "wire", "version": "0"}}}),
    )
    .await;
    assert_eq!(w.recv().await.unwrap()["id"], 1);
    w.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
}

/// A 2025-11-25 `tools/call` of the argument-less tool `name`.
fn legacy_call(id: i64, tool: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": {}}})
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
