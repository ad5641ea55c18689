//! The schema check itself: what `rondo_mcp::testing::Validator` holds each message to (by
//! direction, method, request answered and error code), that it fails on what it should, and
//! how a violation fails a `TestClient` test: the call that saw it, an explicit check, or the
//! drop of the client, never twice.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{JsonObject, Revision, code};
use rondo_mcp::testing::{Direction, TestClient, Validator};
use rondo_tests::servers::Lab;
use serde_json::{Value, json};
use std::time::Duration;

const NEW: Revision = Revision::V2026_07_28;
const OLD: Revision = Revision::V2025_11_25;

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

/// A 2026-07-28 request line.
fn request(id: i64, method: &str, mut params: Value) -> String {
    params["_meta"] = meta();
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

fn result(id: i64, result: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

fn error(id: i64, error: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": error}).to_string()
}

/// The definitions violated by the lines after `sent`, in order.
fn violated(rev: Revision, sent: &[&str], received: &[&str]) -> Vec<String> {
    let mut v = Validator::new(rev);
    for line in sent {
        v.sent(line);
    }
    for line in received {
        v.received(line);
    }
    v.take_unreported().into_iter().map(|v| v.def).collect()
}

#[test]
fn results_are_checked_as_the_type_of_the_request_they_answer() {
    let list = request(1, "tools/list", json!({}));
    let no_cache_hints = result(1, json!({"resultType": "complete", "tools": []}));
    assert_eq!(
        violated(NEW, &[&list], &[&no_cache_hints]),
        ["ListToolsResult"]
    );
    let good = json!({"resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "public"});
    assert!(violated(NEW, &[&list], &[&result(1, good)]).is_empty());
    // A CallToolResult needs `content`; the same body answers a tools/list with no complaint
    // about content.
    let call = request(2, "tools/call", json!({"name": "t"}));
    let bad = result(2, json!({"resultType": "complete", "content": 5}));
    assert_eq!(violated(NEW, &[&call], &[&bad]), ["CallToolResult"]);
    // input_required only answers requests whose params carry inputResponses.
    let irr = json!({"resultType": "input_required", "requestState": "s"});
    assert_eq!(
        violated(NEW, &[&list], &[&result(1, irr.clone())]),
        ["InputRequiredResult"]
    );
    let read = request(3, "resources/read", json!({"uri": "a://b"}));
    assert!(violated(NEW, &[&read], &[&result(3, irr)]).is_empty());
    // A response must answer a request in flight.
    let stray = result(9, json!({"resultType": "complete"}));
    assert_eq!(violated(NEW, &[], &[&stray]), ["JSONRPCResponse"]);
}

#[test]
fn errors_are_checked_by_the_definition_of_their_code() {
    let call = request(1, "tools/call", json!({"name": "t"}));
    // 2026-07-28 defines the data of these codes.
    let no_data = error(1, json!({"code": -32021, "message": "needs sampling"}));
    assert_eq!(
        violated(NEW, &[&call], &[&no_data]),
        ["MissingRequiredClientCapabilityError"]
    );
    let half = json!({"code": -32022, "message": "v", "data": {"supported": ["2026-07-28"]}});
    assert_eq!(
        violated(NEW, &[&call], &[&error(1, half)]),
        ["UnsupportedProtocolVersionError"]
    );
    let good = json!({"code": -32022, "message": "v",
        "data": {"supported": ["2026-07-28"], "requested": "v9"}});
    assert!(violated(NEW, &[&call], &[&error(1, good)]).is_empty());
    // The plain JSON-RPC codes are checked on the error member (ParseError, ...).
    let id_less = json!({"jsonrpc": "2.0", "error": {"code": -32700, "message": 7}}).to_string();
    let defs = violated(NEW, &[], &[&id_less]);
    assert_eq!(defs, ["JSONRPCErrorResponse", "ParseError"]);
    // `"id": null` is not a request id.
    let null_id = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "x"}});
    assert_eq!(
        violated(NEW, &[], &[&null_id.to_string()]),
        ["JSONRPCErrorResponse"]
    );
}

#[test]
fn notifications_and_requests_are_checked_by_method_and_sender() {
    let ack = |params: Value| {
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": params})
            .to_string()
    };
    let good = json!({"notifications": {"toolsListChanged": true},
        "_meta": {"io.modelcontextprotocol/subscriptionId": 4}});
    assert!(violated(NEW, &[], &[&ack(good)]).is_empty());
    assert_eq!(
        violated(NEW, &[], &[&ack(json!({}))]),
        ["SubscriptionsAcknowledgedNotification"]
    );
    // A server sends no requests at 2026-07-28, and a client no notifications but cancellation.
    let ask = json!({"jsonrpc": "2.0", "id": "s1", "method": "roots/list"}).to_string();
    assert_eq!(violated(NEW, &[], &[&ask]), ["ServerRequest"]);
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(
        violated(NEW, &[&initialized.to_string()], &[]),
        ["ClientNotification"]
    );
    // At 2025-11-25 the back-channel request and the client's answer are checked by method.
    assert!(violated(OLD, &[], &[&ask]).is_empty());
    let mut v = Validator::new(OLD);
    v.received(r#"{"jsonrpc":"2.0","id":"s2","method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{}}}}"#);
    v.sent(r#"{"jsonrpc":"2.0","id":"s2","result":{"action":"bogus"}}"#);
    let defs: Vec<String> = v.take_unreported().into_iter().map(|v| v.def).collect();
    assert_eq!(defs, ["ElicitResult"]);
}

#[test]
fn a_line_that_is_not_one_json_message_is_a_violation() {
    let mut v = Validator::new(NEW);
    v.received("{not json");
    v.received(b"\xff\xfe");
    v.received("[1, 2]");
    v.received(r#"{"jsonrpc": "2.0"}"#);
    let found = v.take_unreported();
    assert!(found.iter().all(|f| f.def == "JSONRPCMessage"), "{found:?}");
    assert!(found.iter().all(|f| f.direction == Direction::Received));
    assert_eq!(found.len(), 4);
    assert_eq!(found[0].line, "{not json");
    assert_eq!(v.checked(), 4);
}

#[test]
fn elicitation_answers_may_be_any_number_as_schema_ts_says() {
    // schema.json says `integer` for form answer values (a generator artifact); the check
    // follows schema.ts, which says `number`.
    let answer = |content: Value| {
        let params =
            json!({"name": "t", "inputResponses": {"k": {"action": "accept", "content": content}}});
        violated(NEW, &[&request(1, "tools/call", params)], &[])
    };
    assert!(answer(json!({"price": 2.5, "n": 3, "ok": true, "tags": ["a"]})).is_empty());
    assert_eq!(answer(json!({"nested": {"no": 1}})), ["CallToolRequest"]);
}

#[test]
fn a_skip_names_a_definition_of_the_schema_and_says_why() {
    let bad = || vec![request(1, "ping", json!({}))];
    let mut v = Validator::new(NEW).skip_validation_of("ClientRequest", "sends a removed method");
    for line in bad() {
        v.sent(line);
    }
    assert!(v.take_unreported().is_empty());
    // Skipping one definition skips only that one.
    let mut v = Validator::new(NEW).skip_validation_of("ListToolsRequest", "another one");
    for line in bad() {
        v.sent(line);
    }
    assert_eq!(v.take_unreported()[0].def, "ClientRequest");
    for (def, why) in [
        ("Everything", "a typo"),
        ("ClientRequest", " "),
        ("ServerRequest", "x"),
    ] {
        let refused = std::panic::catch_unwind(|| Validator::new(NEW).skip_validation_of(def, why));
        assert!(refused.is_err(), "{def:?} {why:?} must be refused");
    }
}

/// A server whose tool answers `-32021` without the `requiredCapabilities` the schema
/// requires: a server bug the check must catch.
struct Careless;

impl Handler for Careless {
    fn info(&self) -> ServerInfo {
        ServerInfo::new("careless", "1.0.0").with_tools()
    }

    async fn call_tool(&self, _cx: &Cx, _: &str, _: &JsonObject) -> Result<CallToolResult, Error> {
        Err(Error::new(
            code::MISSING_REQUIRED_CLIENT_CAPABILITY,
            "needs sampling",
        ))
    }
}

#[tokio::test]
#[should_panic(expected = "received message violates `MissingRequiredClientCapabilityError`")]
async fn a_violation_fails_the_call_that_received_it() {
    let c = TestClient::modern(Server::new(Careless))
        .connect()
        .await
        .unwrap();
    let _ = c.call_tool("any", json!({})).await;
}

/// Waits (bounded) until the transcript holds `n` received lines.
async fn received(c: &TestClient, n: usize) {
    tokio::time::timeout(Duration::from_secs(5), async {
        while c
            .transcript()
            .iter()
            .filter(|f| f.direction == Direction::Received)
            .count()
            < n
        {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the server answers");
}

/// A client of [`Careless`] that has received its invalid answer to a raw request (so no call
/// of the client has reported the violation yet).
async fn careless_answer_received() -> TestClient {
    let c = TestClient::modern(Server::new(Careless))
        .connect()
        .await
        .unwrap();
    let line = json!({"jsonrpc": "2.0", "id": "raw", "method": "tools/call",
        "params": {"_meta": c.request_meta(), "name": "any"}});
    c.raw_line(&line.to_string()).await;
    received(&c, 1).await;
    c
}

#[tokio::test]
#[should_panic(expected = "received message violates `MissingRequiredClientCapabilityError`")]
async fn a_violation_after_the_last_call_fails_when_the_client_is_dropped() {
    drop(careless_answer_received().await);
}

#[tokio::test]
async fn violations_can_be_taken_by_a_test_of_the_check() {
    let c = careless_answer_received().await;
    let found = c.take_violations();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].def, "MissingRequiredClientCapabilityError");
    assert_eq!(found[0].direction, Direction::Received);
    c.assert_valid(); // taken: nothing left to fail on
}

#[tokio::test]
#[should_panic(expected = "the test's own failure")]
async fn a_test_failing_anyway_is_not_failed_twice() {
    let _c = careless_answer_received().await;
    // The client is dropped while this panic unwinds: its unreported violation must not
    // panic again (that would abort the test process).
    panic!("the test's own failure");
}

#[tokio::test]
async fn raw_lines_are_recorded_and_checked_like_any_other() {
    let c = TestClient::modern(Server::new(Lab::new()))
        .skip_validation_of("JSONRPCMessage", "sends a line that is not JSON")
        .connect()
        .await
        .unwrap();
    c.raw_line("{oops").await;
    received(&c, 1).await;
    let t = c.transcript();
    assert_eq!(
        (t[0].direction, t[0].line.as_str()),
        (Direction::Sent, "{oops")
    );
    assert_eq!(t[0].message, Value::Null);
    assert_eq!(t[1].message["error"]["code"], code::PARSE_ERROR);
}

#[tokio::test]
#[should_panic(expected = "no answer to `tools/call`")]
async fn a_request_without_an_answer_fails_after_the_timeout() {
    let c = TestClient::modern(Server::new(Lab::new()))
        .timeout(Duration::from_millis(200))
        .connect()
        .await
        .unwrap();
    let _ = c.call_tool("slow", json!({})).await; // `slow` never finishes
}

/// A server listing one tool whose count is a schemars-style `uint32`.
struct Nonstandard;

impl Handler for Nonstandard {
    fn info(&self) -> ServerInfo {
        ServerInfo::new("nonstandard", "1.0.0").with_tools()
    }

    async fn list_tools(&self, _cx: &Cx, _cursor: Option<&Cursor>) -> Result<Page<Tool>, Error> {
        let schema = json!({"type": "object",
            "properties": {"count": {"type": "integer", "format": "uint32"}}});
        let schema = schema.as_object().cloned().unwrap_or_default();
        Ok(vec![Tool::new("count", "Counts", schema)].into())
    }
}

#[tokio::test]
#[should_panic(expected = "formats JSON Schema 2020-12 does not define:\n2026-07-28 tools/list")]
async fn the_examples_format_check_fails_on_a_format_outside_2020_12() {
    use rondo_tests::published::{Target, assert_standard_formats};
    assert_standard_formats(Target::server(|| Server::new(Nonstandard)), &[]).await;
}
