//! Middleware (`Server::layer`): a tower layer sees every request a client sends and every
//! message the server sends (its questions to a client of a handshake revision, a request's
//! notifications, change notifications), at every revision, in a fixed order; it can refuse a
//! message, time it out, limit it, watch its answer; a layer that panics costs its message an
//! internal error and nothing else; a cancelled request drops the layer's future.

use rondo_mcp::middleware::{Direction, McpRequest, McpResponse};
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::{Reply, Script, TestClient};
use rondo_tests::servers::Lab;
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

/// What a recording layer saw of one message, and what it came to.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Seen {
    tag: &'static str,
    direction: Direction,
    notification: bool,
    pub(crate) method: String,
    name: Option<String>,
    revision: Revision,
    round: u32,
    flow: bool,
    failure: bool,
    cancelled: bool,
}

pub(crate) type Log = Arc<Mutex<Vec<Seen>>>;

/// A layer that records every message it passes, before and after.
#[derive(Clone)]
pub(crate) struct Record<S> {
    inner: S,
    tag: &'static str,
    log: Log,
}

impl<S> tower::Service<McpRequest> for Record<S>
where
    S: tower::Service<McpRequest, Response = McpResponse> + Send,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = McpResponse;
    type Error = S::Error;
    type Future = rondo_mcp::BoxFuture<'static, Result<McpResponse, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: McpRequest) -> Self::Future {
        let mut seen = Seen {
            tag: self.tag,
            direction: req.direction(),
            notification: req.is_notification(),
            method: req.method().to_owned(),
            name: req.name().map(str::to_owned),
            revision: req.revision(),
            round: req.round(),
            flow: req.flow().is_some(),
            failure: false,
            cancelled: false,
        };
        let log = self.log.clone();
        log.lock().unwrap().push(seen.clone());
        let fut = self.inner.call(req);
        Box::pin(async move {
            let answer = fut.await?;
            seen.failure = answer.is_failure();
            seen.cancelled = answer.is_cancelled();
            seen.tag = "after";
            log.lock().unwrap().push(seen);
            Ok(answer)
        })
    }
}

pub(crate) fn record(
    tag: &'static str,
    log: &Log,
) -> impl tower::Layer<rondo_mcp::middleware::Stack, Service = Record<rondo_mcp::middleware::Stack>>
+ use<> {
    let log = log.clone();
    tower::layer::layer_fn(move |inner| Record {
        inner,
        tag,
        log: log.clone(),
    })
}

/// Refuses every `tools/call` of `deny` without passing it on.
#[derive(Clone)]
pub(crate) struct Deny<S> {
    inner: S,
    deny: &'static str,
}

impl<S> tower::Service<McpRequest> for Deny<S>
where
    S: tower::Service<McpRequest, Response = McpResponse>,
{
    type Response = McpResponse;
    type Error = S::Error;
    type Future =
        futures_util::future::Either<std::future::Ready<Result<McpResponse, S::Error>>, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: McpRequest) -> Self::Future {
        use futures_util::future::Either;
        if req.name() == Some(self.deny) || req.method() == self.deny {
            let e = Error::invalid_params(format!("`{}` is turned off here", self.deny));
            return Either::Left(std::future::ready(Ok(McpResponse::error(e))));
        }
        Either::Right(self.inner.call(req))
    }
}

pub(crate) fn deny(
    what: &'static str,
) -> impl tower::Layer<rondo_mcp::middleware::Stack, Service = Deny<rondo_mcp::middleware::Stack>> + use<>
{
    tower::layer::layer_fn(move |inner| Deny { inner, deny: what })
}

/// Panics on `tools/call` of `panic_here`.
#[derive(Clone)]
struct Panicky<S>(S);

impl<S> tower::Service<McpRequest> for Panicky<S>
where
    S: tower::Service<McpRequest, Response = McpResponse>,
{
    type Response = McpResponse;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, req: McpRequest) -> S::Future {
        assert!(req.name() != Some("panic_here"), "a layer's own bug");
        self.0.call(req)
    }
}

fn form() -> ClientCapabilities {
    let mut caps = ClientCapabilities::with_elicitation_form();
    caps.sampling = ClientCapabilities::with_sampling().sampling;
    caps
}

fn tool_calls(log: &Log) -> Vec<Seen> {
    log.lock()
        .unwrap()
        .iter()
        .filter(|s| s.method == "tools/call")
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_layer_sees_each_call_at_every_revision_in_order() {
    for revision in [
        Revision::V2026_07_28,
        Revision::V2025_11_25,
        Revision::V2025_06_18,
        Revision::V2024_11_05,
    ] {
        let log = Log::default();
        let server = Server::new(Lab::new())
            .layer(record("inner", &log))
            .layer(record("outer", &log));
        let c = TestClient::builder(server, revision)
            .connect()
            .await
            .unwrap();
        let call = c.call_tool("chatty", json!({})).await.unwrap();
        assert_eq!(call.text(), "done", "{revision}");
        let calls = tool_calls(&log);
        let tags: Vec<&str> = calls.iter().map(|s| s.tag).collect();
        // The layer added last sees the request first and its answer last.
        assert_eq!(tags, ["outer", "inner", "after", "after"], "{revision}");
        assert!(calls.iter().all(|s| s.name.as_deref() == Some("chatty")));
        assert!(
            calls
                .iter()
                .all(|s| s.revision == revision && s.direction == Direction::Inbound)
        );
        assert!(calls.iter().all(|s| !s.failure), "{calls:?}");
    }
}

#[tokio::test]
async fn a_layer_refuses_a_tool_without_running_it() {
    let server = Server::new(Lab::new()).layer(deny("slow"));
    for revision in [Revision::V2026_07_28, Revision::V2025_11_25] {
        let c = TestClient::builder(server.clone(), revision)
            .connect()
            .await
            .unwrap();
        // `slow` never finishes: an answer at all shows it never ran.
        let e = c.call_tool("slow", json!({})).await.unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str()),
            (-32602, "`slow` is turned off here")
        );
        assert_eq!(
            c.call_tool("chatty", json!({})).await.unwrap().text(),
            "done"
        );
    }
}

#[tokio::test]
async fn the_questions_a_session_is_asked_pass_the_layers_and_a_layer_may_refuse_them() {
    let log = Log::default();
    let server = Server::new(Lab::new()).layer(record("seen", &log));
    let c = TestClient::builder(server, Revision::V2025_11_25)
        .capabilities(form())
        .script(Script::new().sample(Reply::sample_text("an old pond")))
        .connect()
        .await
        .unwrap();
    assert_eq!(
        c.call_tool("sample", json!({})).await.unwrap().text(),
        "model said: an old pond"
    );
    let asked: Vec<Seen> = log
        .lock()
        .unwrap()
        .iter()
        .filter(|s| s.direction == Direction::Outbound)
        .cloned()
        .collect();
    assert_eq!(asked.len(), 2, "before and after: {asked:?}");
    assert_eq!(asked[0].method, "sampling/createMessage");
    assert_eq!(asked[0].name.as_deref(), Some("sample"));
    assert!(!asked[0].notification && !asked[1].failure);

    // Refused by a layer, the question never reaches the client and reads as its refusal.
    let server = Server::new(Lab::new()).layer(deny("sampling/createMessage"));
    let c = TestClient::builder(server, Revision::V2025_11_25)
        .capabilities(form())
        .script(Script::new().sample(Reply::sample_text("an old pond")))
        .connect()
        .await
        .unwrap();
    let call = c.call_tool("sample", json!({})).await.unwrap();
    assert_eq!(call.text(), "rejected:-32602", "{}", call.text());
    assert!(
        c.transcript()
            .iter()
            .all(|f| f.message["method"] != "sampling/createMessage")
    );
}

#[tokio::test]
async fn notifications_pass_the_layers_too() {
    let log = Log::default();
    let server = Server::new(Lab::new()).layer(record("seen", &log));
    let c = TestClient::builder(server, Revision::V2025_11_25)
        .connect()
        .await
        .unwrap();
    c.request("logging/setLevel", json!({"level": "debug"}))
        .await
        .unwrap();
    let params = json!({"name": "chatty", "arguments": {}, "_meta": {"progressToken": 1}});
    c.request("tools/call", params).await.unwrap();
    let notes: Vec<String> = log
        .lock()
        .unwrap()
        .iter()
        .filter(|s| s.notification && s.tag == "seen")
        .map(|s| s.method.clone())
        .collect();
    assert_eq!(
        notes
            .iter()
            .filter(|m| *m == "notifications/progress")
            .count(),
        2,
        "{notes:?}"
    );
    assert_eq!(
        notes
            .iter()
            .filter(|m| *m == "notifications/message")
            .count(),
        4,
        "{notes:?}"
    );
}

#[tokio::test]
async fn tower_s_own_layers_work_unmodified() {
    // A timeout: the request ends with an error saying so; the server goes on.
    let server =
        Server::new(Lab::new()).layer(tower::timeout::TimeoutLayer::new(Duration::from_millis(50)));
    let c = TestClient::modern(server).connect().await.unwrap();
    let e = c.call_tool("slow", json!({})).await.unwrap_err();
    assert_eq!(e.code, -32603, "{e:?}");
    assert!(e.message.contains("timed out"), "{e:?}");
    assert_eq!(
        c.call_tool("chatty", json!({})).await.unwrap().text(),
        "done"
    );

    // A concurrency limit of one: the second call waits until the first is done.
    let lab = Lab::new();
    let probe = lab.probe.clone();
    let server = Server::new(lab).layer(tower::limit::ConcurrencyLimitLayer::new(1));
    let c = Arc::new(TestClient::modern(server).connect().await.unwrap());
    let call =
        |c: Arc<TestClient>| tokio::spawn(async move { c.call_tool("gate", json!({})).await });
    let (a, b) = (call(c.clone()), call(c.clone()));
    probe.gate_started.notified().await;
    let second = tokio::time::timeout(Duration::from_millis(200), probe.gate_started.notified());
    assert!(
        second.await.is_err(),
        "the second call started beside the first"
    );
    probe.gate.notify_one();
    probe.gate_started.notified().await;
    probe.gate.notify_one();
    assert!(a.await.unwrap().is_ok() && b.await.unwrap().is_ok());
}

#[tokio::test]
async fn a_layer_that_panics_costs_its_message_only() {
    let server = Server::new(Lab::new()).layer(tower::layer::layer_fn(Panicky));
    let c = TestClient::modern(server).connect().await.unwrap();
    let e = c.call_tool("panic_here", json!({})).await.unwrap_err();
    assert_eq!(e.code, -32603, "{e:?}");
    assert_eq!(
        c.call_tool("chatty", json!({})).await.unwrap().text(),
        "done"
    );
}

#[tokio::test]
async fn a_retry_shows_its_flow_and_round() {
    let log = Log::default();
    let server = Server::new(Lab::new()).layer(record("seen", &log));
    let c = TestClient::modern(server)
        .capabilities(form())
        .script(Script::new().elicit(Reply::accept(json!({"value": "x"}))))
        .connect()
        .await
        .unwrap();
    let call = c.call_tool("echo", json!({})).await.unwrap();
    assert_eq!(call.rounds, 2);
    let calls: Vec<(u32, bool)> = tool_calls(&log)
        .iter()
        .filter(|s| s.tag == "seen")
        .map(|s| (s.round, s.flow))
        .collect();
    assert_eq!(calls, [(0, false), (1, true)]);
}

#[tokio::test]
async fn a_cancelled_request_reaches_the_layer() {
    let lab = Lab::new();
    let probe = lab.probe.clone();
    let log = Log::default();
    let server = Server::new(lab).layer(record("seen", &log));
    let c = TestClient::legacy(server).connect().await.unwrap();
    let call = json!({"jsonrpc": "2.0", "id": 999, "method": "tools/call",
        "params": {"name": "slow", "arguments": {}}});
    c.raw_line(&call.to_string()).await;
    probe.slow_started.notified().await;
    c.notify("notifications/cancelled", json!({"requestId": 999}))
        .await;
    tokio::time::timeout(Duration::from_secs(5), probe.slow_dropped_notify.notified())
        .await
        .expect("the tool's future is dropped");
    // The layer's future ends with the request's: it sees it end cancelled, and nothing is
    // sent for it.
    let mut ended = None;
    for _ in 0..100 {
        ended = log
            .lock()
            .unwrap()
            .iter()
            .find(|s| s.method == "tools/call" && s.tag == "after")
            .cloned();
        if ended.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let ended = ended.expect("the layer saw the end");
    assert!(ended.cancelled, "{ended:?}");
    let answered = c
        .transcript()
        .iter()
        .any(|f| f.direction == rondo_mcp::testing::Direction::Received && f.message["id"] == 999);
    assert!(!answered, "nothing is sent for a cancelled request");
}
