//! The spans of real flows, as an OpenTelemetry collector receives them (design §33): the
//! travel binary runs as a child process told by `OTEL_EXPORTER_OTLP_ENDPOINT` to export to a
//! small OTLP/HTTP receiver here, which decodes the official protobuf messages
//! (`opentelemetry-proto`). Checked: the client's `traceparent` is the parent at both
//! revisions, the MCP attributes, the rounds of one flow linked across two instances that
//! share their keys, the trace context of a 2025-era `elicitation/create`, and bad trace
//! context ignored with the request served.

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use prost::Message as _;
use rondo_mcp::protocol::Revision;
use rondo_mcp::state::KeyRing;
use rondo_mcp::testing::{Reply, Script, TestClient};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN: &str = "00f067aa0ba902b7";

/// One span as received: the service that sent it and the span.
#[derive(Clone, Debug)]
struct Got {
    service: String,
    span: opentelemetry_proto::tonic::trace::v1::Span,
}

impl Got {
    fn attr(&self, key: &str) -> Option<Value> {
        let kv = self.span.attributes.iter().find(|kv| kv.key == key)?;
        Some(any(kv.value.as_ref()?.value.as_ref()?))
    }
    fn trace_id(&self) -> String {
        hex(&self.span.trace_id)
    }
    fn span_id(&self) -> String {
        hex(&self.span.span_id)
    }
    fn parent(&self) -> String {
        hex(&self.span.parent_span_id)
    }
    /// The (trace, span) each link points at.
    fn links(&self) -> Vec<(String, String)> {
        let links = self.span.links.iter();
        links.map(|l| (hex(&l.trace_id), hex(&l.span_id))).collect()
    }
}

fn any(v: &Any) -> Value {
    match v {
        Any::StringValue(s) => json!(s),
        Any::IntValue(i) => json!(i),
        Any::BoolValue(b) => json!(b),
        Any::DoubleValue(d) => json!(d),
        Any::ArrayValue(a) => a
            .values
            .iter()
            .filter_map(|v| v.value.as_ref().map(any))
            .collect(),
        other => json!(format!("{other:?}")),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// An OTLP/HTTP receiver on a port of its own: `POST /v1/traces` with a protobuf
/// `ExportTraceServiceRequest`, answered as a collector answers.
struct Receiver {
    url: String,
    spans: Arc<Mutex<Vec<Got>>>,
}

impl Receiver {
    async fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let spans = Arc::new(Mutex::new(Vec::new()));
        let kept = spans.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let kept = kept.clone();
                tokio::spawn(async move {
                    let service = service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                        let kept = kept.clone();
                        async move {
                            assert_eq!(req.uri().path(), "/v1/traces");
                            let body = req.into_body().collect().await?.to_bytes();
                            let export = ExportTraceServiceRequest::decode(body).unwrap();
                            receive(&kept, export);
                            let answer = ExportTraceServiceResponse::default().encode_to_vec();
                            Ok::<_, hyper::Error>(hyper::Response::new(Full::new(Bytes::from(
                                answer,
                            ))))
                        }
                    });
                    let conn = hyper::server::conn::http1::Builder::new();
                    let _ = conn.serve_connection(TokioIo::new(stream), service).await;
                });
            }
        });
        Receiver { url, spans }
    }

    /// The SERVER spans received so far for which `pick` holds, waiting up to ten seconds for
    /// `n` of them.
    async fn wait(&self, n: usize, pick: impl Fn(&Got) -> bool) -> Vec<Got> {
        for _ in 0..200 {
            let got: Vec<Got> = self
                .spans
                .lock()
                .unwrap()
                .iter()
                .filter(|g| pick(g))
                .cloned()
                .collect();
            if got.len() >= n {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "fewer than {n} spans came: {:#?}",
            self.spans.lock().unwrap()
        );
    }
}

fn receive(kept: &Mutex<Vec<Got>>, export: ExportTraceServiceRequest) {
    for resource in export.resource_spans {
        let service = resource
            .resource
            .iter()
            .flat_map(|r| &r.attributes)
            .find(|kv| kv.key == "service.name")
            .and_then(|kv| kv.value.as_ref()?.value.as_ref())
            .map(any)
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        for scope in resource.scope_spans {
            for span in scope.spans {
                if span.kind == SpanKind::Server as i32 {
                    let service = service.clone();
                    kept.lock().unwrap().push(Got { service, span });
                }
            }
        }
    }
}

/// The travel binary over stdio, exporting to `receiver` as `service`.
fn travel(
    receiver: &Receiver,
    service: &str,
    keys: &str,
    rev: Revision,
) -> rondo_mcp::testing::TestClientBuilder<()> {
    travel_on(receiver, service, keys, rev, None)
}

/// [`travel`], its shared state on the Redis at `redis` when given.
fn travel_on(
    receiver: &Receiver,
    service: &str,
    keys: &str,
    rev: Revision,
    redis: Option<&str>,
) -> rondo_mcp::testing::TestClientBuilder<()> {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_travel"));
    if let Some(url) = redis {
        cmd.args(["--redis", url]);
    }
    cmd.env("OTEL_EXPORTER_OTLP_ENDPOINT", &receiver.url)
        .env("OTEL_SERVICE_NAME", service)
        .env("OTEL_BSP_SCHEDULE_DELAY", "50")
        .env("RONDO_STATE_KEYS", keys)
        .env("RUST_LOG", "error")
        .env_remove("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
    TestClient::spawn(rev, &mut cmd).expect("the travel binary starts")
}

fn approve() -> Value {
    json!({"action": "accept", "content": {"approve": true, "seat": "aisle", "travel_insurance": true}})
}

fn details() -> Value {
    json!({"action": "accept", "content": {
        "passenger_name": "Grace Hopper",
        "date_of_birth": "1986-12-09",
        "emergency_contact_name": "Howard Aiken",
        "emergency_contact_phone": "+1 617 555 0100"
    }})
}

fn script() -> Script {
    Script::new()
        .elicit(Reply::accept(approve()["content"].clone()))
        .elicit(Reply::accept(details()["content"].clone()))
}

fn traceparent() -> String {
    format!("00-{TRACE}-{CLIENT_SPAN}-01")
}

fn book(meta: Value) -> Value {
    json!({"name": "book_trip", "arguments": {"package_id": "barcelona"}, "_meta": meta})
}

fn is_book(g: &Got) -> bool {
    g.span.name == "tools/call book_trip"
}

/// A whole `book_trip` at each revision with the client's trace context: every round's span
/// is a SERVER span whose parent is the client's span, named and described by the MCP
/// conventions; at 2026-07-28 the rounds share a flow id and each links to the one before.
#[tokio::test]
async fn a_flow_s_spans_take_the_client_s_trace_at_both_revisions() {
    let receiver = Receiver::start().await;
    let keys = KeyRing::generate_spec(1);
    for (rev, service, rounds) in [
        (Revision::V2026_07_28, "travel-modern", 3),
        (Revision::V2025_11_25, "travel-legacy", 1),
    ] {
        let c = travel(&receiver, service, &keys, rev)
            .capabilities(serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap())
            .script(script())
            .connect()
            .await
            .unwrap();
        let call = c
            .call(
                "tools/call",
                book(json!({"traceparent": traceparent(), "tracestate": "rojo=1"})),
            )
            .await
            .unwrap();
        assert!(
            call.text().starts_with("Booked Barcelona"),
            "{rev}: {}",
            call.text()
        );
        let spans = receiver
            .wait(rounds, |g| g.service == service && is_book(g))
            .await;
        assert_eq!(spans.len(), rounds, "{rev}");
        for s in &spans {
            assert_eq!(
                (s.trace_id(), s.parent()),
                (TRACE.into(), CLIENT_SPAN.into()),
                "{rev}"
            );
            assert_eq!(s.attr("mcp.method.name"), Some(json!("tools/call")));
            assert_eq!(s.attr("gen_ai.tool.name"), Some(json!("book_trip")));
            assert_eq!(s.attr("gen_ai.operation.name"), Some(json!("execute_tool")));
            assert_eq!(s.attr("mcp.protocol.version"), Some(json!(rev.as_str())));
            assert!(s.attr("jsonrpc.request.id").is_some());
            assert_eq!(s.attr("error.type"), None);
        }
        if rev.is_modern() {
            check_rounds(&spans);
        } else {
            legacy_questions(&c, &spans[0]);
        }
        c.close().await.unwrap();
    }
}

/// The rounds of one 2026-07-28 flow: one flow id, rounds 0 to 2, each round's span linked to
/// the span of the round before; what each round asked and what was answered.
fn check_rounds(spans: &[Got]) {
    let mut spans = spans.to_vec();
    spans.sort_by_key(|s| s.span.start_time_unix_nano);
    let flow = spans[0].attr("rondo.flow.id").expect("a flow id");
    for (round, s) in spans.iter().enumerate() {
        assert_eq!(s.attr("rondo.flow.id").as_ref(), Some(&flow));
        assert_eq!(s.attr("rondo.flow.round"), Some(json!(round)));
        if round > 0 {
            let before = &spans[round - 1];
            assert_eq!(
                s.links(),
                [(before.trace_id(), before.span_id())],
                "round {round}"
            );
        } else {
            assert!(s.links().is_empty());
        }
    }
    assert_eq!(
        spans[0].attr("rondo.questions.asked"),
        Some(json!(["approve_trip"]))
    );
    assert_eq!(
        spans[1].attr("rondo.questions.answered"),
        Some(json!(["approve_trip:accept"]))
    );
    assert_eq!(
        spans[1].attr("rondo.questions.asked"),
        Some(json!(["traveller_details"]))
    );
    assert_eq!(
        spans[2].attr("rondo.questions.answered"),
        Some(json!(["traveller_details:accept"]))
    );
}

/// A 2025-11-25 session's `elicitation/create` requests carry the trace context of the
/// `tools/call` span that asks them.
fn legacy_questions(c: &TestClient, span: &Got) {
    let asked: Vec<Value> = c
        .transcript()
        .into_iter()
        .filter(|f| f.message["method"] == "elicitation/create")
        .map(|f| f.message["params"]["_meta"].clone())
        .collect();
    assert_eq!(asked.len(), 2);
    let expected = format!("00-{TRACE}-{}-01", span.span_id());
    for meta in asked {
        assert_eq!(meta["traceparent"], json!(expected), "{meta}");
        assert_eq!(meta["tracestate"], json!("rojo=1"), "{meta}");
    }
    assert_eq!(
        span.attr("rondo.questions.answered"),
        Some(json!(["approve_trip:accept", "traveller_details:accept"]))
    );
}

/// A flow whose rounds go to two instances sharing their keys and a Redis (a fleet), from a
/// client that sends no trace context: each round is a trace of its own, linked to the round
/// before on the other instance, one flow id throughout.
#[tokio::test]
async fn a_flow_across_two_instances_reads_as_one_story() {
    let Some(redis) = crate::redis_server::RedisServer::start() else {
        return;
    };
    let receiver = Receiver::start().await;
    let keys = KeyRing::generate_spec(1);
    let rev = Revision::V2026_07_28;
    let caps = || serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap();
    let url = redis.url();
    let a = travel_on(&receiver, "travel-a", &keys, rev, Some(&url)).capabilities(caps());
    let b = travel_on(&receiver, "travel-b", &keys, rev, Some(&url)).capabilities(caps());
    let (a, b) = (a.connect().await.unwrap(), b.connect().await.unwrap());
    let first = a.request("tools/call", book(json!({}))).await.unwrap();
    let mut retry = book(json!({}));
    retry["requestState"] = first["requestState"].clone();
    retry["inputResponses"] = json!({"approve_trip": approve()});
    let second = b.request("tools/call", retry).await.unwrap();
    assert_eq!(second["resultType"], "input_required", "{second}");
    let mut retry = book(json!({}));
    retry["requestState"] = second["requestState"].clone();
    retry["inputResponses"] = json!({"traveller_details": details()});
    let done = a.request("tools/call", retry).await.unwrap();
    assert!(
        done["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Booked"),
        "{done}"
    );

    // The rounds were taken on the shared Redis (the replay guard's keys), not in memory.
    let dbsize = redis.command(&["DBSIZE"]);
    let keys_held: u64 = dbsize.trim_start_matches(':').parse().unwrap();
    assert!(keys_held > 0, "the instances did not share the Redis");

    let mut spans = receiver.wait(3, is_book).await;
    spans.sort_by_key(|s| s.span.start_time_unix_nano);
    let services: Vec<&str> = spans.iter().map(|s| s.service.as_str()).collect();
    assert_eq!(services, ["travel-a", "travel-b", "travel-a"]);
    for s in &spans {
        assert!(
            s.parent().is_empty(),
            "no client context: each round is a root"
        );
    }
    assert_ne!(spans[0].trace_id(), spans[1].trace_id());
    check_rounds(&spans);
    a.close().await.unwrap();
    b.close().await.unwrap();
}

/// Trace context that is malformed or too large is ignored: the request is served, and its
/// span is a root (its trace none of the bad values named).
#[tokio::test]
async fn bad_trace_context_is_ignored_and_the_request_served() {
    let receiver = Receiver::start().await;
    let keys = KeyRing::generate_spec(1);
    let c = travel(&receiver, "travel-bad", &keys, Revision::V2026_07_28)
        .connect()
        .await
        .unwrap();
    let bad = [
        json!({"traceparent": format!("00-{TRACE}-{CLIENT_SPAN}-01{}", "0".repeat(10_240))}),
        json!({"traceparent": format!("00-{}-{CLIENT_SPAN}-01", "g".repeat(32))}),
        json!({"traceparent": format!("00-{}-{CLIENT_SPAN}-01", "0".repeat(32))}),
        json!({"traceparent": format!("ff-{TRACE}-{CLIENT_SPAN}-01")}),
        json!({"traceparent": 42}),
        json!({"traceparent": traceparent(), "baggage": format!("k={}", "v".repeat(9000))}),
    ];
    for (i, meta) in bad.iter().enumerate() {
        let listed = c
            .request("tools/list", json!({"_meta": meta}))
            .await
            .unwrap_or_else(|e| panic!("case {i}: {e:?}"));
        assert!(
            listed["tools"].as_array().is_some_and(|t| !t.is_empty()),
            "case {i}"
        );
    }
    let spans = receiver
        .wait(bad.len(), |g| g.span.name == "tools/list")
        .await;
    // The first five carry no usable parent; the last has a good traceparent whose baggage
    // alone is dropped.
    let mut spans = spans;
    spans.sort_by_key(|s| s.span.start_time_unix_nano);
    for s in &spans[..5] {
        assert!(
            s.parent().is_empty() && s.trace_id() != TRACE,
            "{:?}",
            s.span
        );
    }
    assert_eq!(
        (spans[5].trace_id(), spans[5].parent()),
        (TRACE.into(), CLIENT_SPAN.into())
    );
    c.close().await.unwrap();
}

/// An OTLP endpoint that is down costs the requests nothing: the flow completes as it does
/// without export.
#[tokio::test]
async fn an_endpoint_that_is_down_never_fails_a_request() {
    // A port that was just free: nothing listens there.
    let url = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", l.local_addr().unwrap())
    };
    let receiver = Receiver {
        url,
        spans: Arc::default(),
    };
    let keys = KeyRing::generate_spec(1);
    let mut answers = Script::new();
    for _ in 0..3 {
        answers = answers
            .elicit(Reply::accept(approve()["content"].clone()))
            .elicit(Reply::accept(details()["content"].clone()));
    }
    let c = travel(&receiver, "travel-down", &keys, Revision::V2026_07_28)
        .capabilities(serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap())
        .script(answers)
        .timeout(Duration::from_secs(5))
        .connect()
        .await
        .unwrap();
    for _ in 0..3 {
        let call = c
            .call("tools/call", book(json!({"traceparent": traceparent()})))
            .await
            .unwrap();
        assert!(call.text().starts_with("Booked"), "{:?}", call.result);
    }
    drop(c);
}
