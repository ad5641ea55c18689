//! A 2026-07-28 client of the fleet's front door: one connection per POST (bare hyper), every
//! message checked against the official schema (`rondo_mcp::testing::Validator`), and the
//! bookshop's two-round order flow with the client's own retry of a round that got no answer.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use rondo_mcp::OnceError;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::Validator;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::net::TcpStream;

/// One POST's whole exchange, connection to last byte.
const EXCHANGE: Duration = Duration::from_secs(10);
/// Attempts of one round (the first and the client's retries after a 502/503/504 or a
/// connection error).
const ATTEMPTS: usize = 4;

/// The frozen refusal of a `requestState` this instance cannot open.
pub const STATE_REJECTED: &str = "Invalid or expired requestState";
/// How a round refused because Redis, the fleet's shared state, could not be asked begins:
/// the replay guard's `-32603`, or after "Nothing was done: " the tool's error (`Cx::once`).
pub const REDIS_DOWN: &str = "Redis, the server's shared state, did not answer";

const BOOKS: [(&str, &str, u32); 3] = [
    (
        "9780262510875",
        "Structure and Interpretation of Computer Programs",
        5500,
    ),
    ("9781593278281", "The Rust Programming Language", 3999),
    ("9780131103627", "The C Programming Language", 6200),
];

/// The headers a conforming 2026-07-28 client sends with `body`.
pub fn modern_headers(body: &Value) -> [(&'static str, String); 3] {
    let name = body["params"]["name"].as_str().unwrap_or_default();
    let method = body["method"].as_str().unwrap_or_default();
    [
        ("mcp-protocol-version", "2026-07-28".to_owned()),
        ("mcp-method", method.to_owned()),
        ("mcp-name", name.to_owned()),
    ]
}

/// POSTs `body` to `front` with the headers a conforming 2026-07-28 client sends; the status
/// and JSON.
async fn post(front: SocketAddr, request_id: &str, body: &Value) -> Result<(u16, Value), String> {
    let name = body["params"]["name"].as_str().unwrap_or_default();
    let method = body["method"].as_str().unwrap_or_default();
    let headers = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", method),
        ("mcp-name", name),
    ];
    let (status, _, msg) = post_with(front, request_id, &headers, body).await?;
    Ok((status, msg))
}

/// POSTs `body` with `headers`; the status, the `Mcp-Session-Id` answered, and the JSON (an
/// empty body is `null`).
pub async fn post_with(
    front: SocketAddr,
    request_id: &str,
    headers: &[(&str, &str)],
    body: &Value,
) -> Result<(u16, Option<String>, Value), String> {
    post_within(front, request_id, headers, body, EXCHANGE).await
}

/// [`post_with`], giving up after `patience` (the request may still run on the server).
pub async fn post_within(
    front: SocketAddr,
    request_id: &str,
    headers: &[(&str, &str)],
    body: &Value,
    patience: Duration,
) -> Result<(u16, Option<String>, Value), String> {
    let bytes = serde_json::to_vec(body).expect("json");
    let mut req = http::Request::post("/mcp")
        .header("host", front.to_string())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("x-request-id", request_id);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let req = req.body(Full::new(Bytes::from(bytes))).expect("request");
    let exchange = async {
        let stream = TcpStream::connect(front).await.map_err(|e| e.to_string())?;
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| e.to_string())?;
        let conn = tokio::spawn(conn);
        let resp = sender.send_request(req).await.map_err(|e| e.to_string())?;
        let status = resp.status().as_u16();
        let session = resp
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let kind = resp
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        let body = resp
            .into_body()
            .collect()
            .await
            .map_err(|e| e.to_string())?;
        conn.abort();
        Ok::<_, String>((status, session, kind, body.to_bytes()))
    };
    let (status, session, kind, bytes) = tokio::time::timeout(patience, exchange)
        .await
        .map_err(|_| format!("no answer in {patience:?}"))??;
    if bytes.is_empty() {
        return Ok((status, session, Value::Null));
    }
    if !kind.starts_with("application/json") {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        return Ok((status, session, json!({ "not json": text })));
    }
    let value = serde_json::from_slice(&bytes).map_err(|e| format!("{e}: {bytes:?}"))?;
    Ok((status, session, value))
}

/// How one order flow ended.
#[derive(Debug, Clone, PartialEq)]
pub enum End {
    /// The order was placed, with the text expected for this flow.
    Ordered,
    /// The retry was refused with the frozen `-32602`.
    Refused,
    /// Redis could not be asked: the guard's `-32603`, or the tool's error that nothing was
    /// done; the message.
    Unavailable(String),
    /// The tool's error that another request of the call is doing the step, or one was
    /// interrupted while doing it (`OnceError::Running`, exactly).
    Running,
    /// Anything else: what went wrong.
    Failed(String),
}

impl End {
    /// How the answer `m` to flow `n`'s final round ends the flow.
    pub fn of(m: &Value, n: usize) -> End {
        let error = &m["error"];
        let text = m["result"]["content"][0]["text"].as_str().unwrap_or("");
        let message = error["message"].as_str().unwrap_or("");
        let tool_error = m["result"]["isError"] == true;
        if m["result"].is_object() && !tool_error && text == order(n).1 {
            End::Ordered
        } else if error["code"] == -32602 && message == STATE_REJECTED {
            End::Refused
        } else if error["code"] == -32603 && message.starts_with(REDIS_DOWN) {
            End::Unavailable(message.to_owned())
        } else if tool_error
            && text
                .strip_prefix("Nothing was done: ")
                .is_some_and(|t| t.starts_with(REDIS_DOWN))
        {
            End::Unavailable(text.to_owned())
        } else if tool_error && text == OnceError::<String>::Running.to_string() {
            End::Running
        } else {
            End::Failed(format!("round 2: {m}"))
        }
    }
}

/// One round as it went.
#[derive(Debug, Clone)]
pub struct Round {
    /// The `X-Request-Id` of each attempt; the last one was answered.
    pub attempts: Vec<String>,
    pub started: Instant,
    pub finished: Instant,
}

/// One two-round order flow.
#[derive(Debug, Clone)]
pub struct Flow {
    pub n: usize,
    pub rounds: Vec<Round>,
    /// The key id in the first round's `requestState` token.
    pub key_id: Option<u32>,
    /// The final round's request, as sent (to send it again).
    pub retry: Option<Value>,
    pub end: End,
}

impl Flow {
    /// Attempts beyond the first, over all rounds.
    pub fn retries(&self) -> usize {
        self.rounds.iter().map(|r| r.attempts.len() - 1).sum()
    }
}

/// The key id a `requestState` token names (its framing: version byte, then a big-endian
/// u32 key id).
pub fn key_id(token: &str) -> Option<u32> {
    let raw = URL_SAFE_NO_PAD.decode(token).ok()?;
    Some(u32::from_be_bytes(raw.get(1..5)?.try_into().ok()?))
}

/// Flow `n`'s book, quantity and the text its order must end with.
pub fn order(n: usize) -> (Value, String) {
    let (isbn, title, _) = BOOKS[n % BOOKS.len()];
    let quantity = 1 + (n / BOOKS.len()) % 10;
    let delivery = if n.is_multiple_of(2) {
        "express"
    } else {
        "standard"
    };
    let args = json!({"isbn": isbn, "quantity": quantity});
    let done = format!("Ordered {quantity} x \"{title}\", {delivery} delivery.");
    (args, done)
}

pub fn call(id: u64, args: &Value, extra: Value) -> Value {
    let mut params = json!({
        "name": "order_book",
        "arguments": args,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "fleet-test", "version": "1.0.0"},
        },
    });
    if let (Some(p), Value::Object(extra)) = (params.as_object_mut(), extra) {
        p.extend(extra);
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

/// Sends one round, retrying (bounded) when no MCP answer came back: a connection error or a
/// 502/503/504 from nginx (the instance died or refused while the request was on it).
async fn round(
    front: SocketAddr,
    tag: &str,
    n: usize,
    r: usize,
    body: &Value,
    checks: &mut Validator,
) -> (Round, Result<Value, String>) {
    let started = Instant::now();
    let mut attempts = Vec::new();
    let mut last = String::new();
    for a in 0..ATTEMPTS {
        let id = format!("{tag}-{n}-{r}-{a}");
        attempts.push(id.clone());
        match post(front, &id, body).await {
            Ok((200, msg)) => {
                checks.sent(serde_json::to_vec(body).expect("json"));
                checks.received(serde_json::to_vec(&msg).expect("json"));
                let violations = checks.take_unreported();
                let finished = Instant::now();
                let out = if violations.is_empty() {
                    Ok(msg)
                } else {
                    Err(format!("schema: {violations:?}"))
                };
                return (
                    Round {
                        attempts,
                        started,
                        finished,
                    },
                    out,
                );
            }
            Ok((status @ (502..=504), _)) => last = format!("HTTP {status}"),
            Ok((status, msg)) => {
                let round = Round {
                    attempts,
                    started,
                    finished: Instant::now(),
                };
                return (round, Err(format!("HTTP {status}: {msg}")));
            }
            Err(e) => last = e,
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let round = Round {
        attempts,
        started,
        finished: Instant::now(),
    };
    (
        round,
        Err(format!("no answer after {ATTEMPTS} attempts: {last}")),
    )
}

/// A flow whose first round was answered: the confirmation is on the user's screen.
pub struct Pending {
    flow: Flow,
    args: Value,
    state: String,
    checks: Validator,
}

/// Runs flow `n`: the order, the confirmation the user gives after `pause`, the order placed.
pub async fn order_flow(front: SocketAddr, tag: &str, n: usize, pause: Duration) -> Flow {
    match first_round(front, tag, n).await {
        Ok(pending) => {
            tokio::time::sleep(pause).await;
            pending.confirm(front, tag).await
        }
        Err(flow) => flow,
    }
}

/// Flow `n`'s first round; the flow as it ended when it did not ask for the confirmation.
pub async fn first_round(front: SocketAddr, tag: &str, n: usize) -> Result<Pending, Flow> {
    let mut checks = Validator::new(Revision::V2026_07_28);
    let (args, _) = order(n);
    let (first, answer) = round(front, tag, n, 1, &call(1, &args, json!({})), &mut checks).await;
    let mut flow = Flow {
        n,
        rounds: vec![first],
        key_id: None,
        retry: None,
        end: End::Failed(String::new()),
    };
    match answer.and_then(|m| question(&m, n)) {
        Ok(state) => {
            flow.key_id = key_id(&state);
            Ok(Pending {
                flow,
                args,
                state,
                checks,
            })
        }
        Err(e) => {
            flow.end = End::Failed(format!("round 1: {e}"));
            Err(flow)
        }
    }
}

impl Pending {
    /// The final round with `response` to the confirmation (`{"action": ..}`).
    pub fn retry(&self, response: Value) -> Value {
        call(
            2,
            &self.args,
            json!({
                "requestState": self.state,
                "inputResponses": {"confirm_order": response},
            }),
        )
    }

    /// The user's consent: accept, approve, this flow's delivery.
    pub fn accept(&self) -> Value {
        let delivery = if self.flow.n.is_multiple_of(2) {
            "express"
        } else {
            "standard"
        };
        json!({"action": "accept", "content": {"approve": true, "delivery": delivery}})
    }

    /// The user confirms: the retry with the answer and the `requestState`.
    pub async fn confirm(mut self, front: SocketAddr, tag: &str) -> Flow {
        let n = self.flow.n;
        let retry = self.retry(self.accept());
        let (second, answer) = round(front, tag, n, 2, &retry, &mut self.checks).await;
        let mut flow = self.flow;
        flow.rounds.push(second);
        flow.retry = Some(retry);
        flow.end = match answer {
            Ok(m) => End::of(&m, n),
            Err(e) => End::Failed(format!("round 2: {e}")),
        };
        flow
    }
}

/// Sends `body`, a final round of flow `n`, to `to` (the front door or one instance), as
/// request `id`; how it ends the flow.
pub async fn send(to: SocketAddr, id: &str, n: usize, body: &Value) -> End {
    let mut checks = Validator::new(Revision::V2026_07_28);
    let (_, answer) = round(to, id, n, 2, body, &mut checks).await;
    match answer {
        Ok(m) => End::of(&m, n),
        Err(e) => End::Failed(e),
    }
}

/// The answer to a final round `body` sent to `to` as request `id`, schema-checked.
pub async fn answer(to: SocketAddr, id: &str, body: &Value) -> Result<Value, String> {
    let mut checks = Validator::new(Revision::V2026_07_28);
    round(to, id, 0, 2, body, &mut checks).await.1
}

/// How many orders the instance at `addr` placed (`list_orders`, sent to it directly).
pub async fn orders(addr: SocketAddr, id: &str) -> usize {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "list_orders",
        "arguments": {},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "fleet-test", "version": "1.0.0"},
        },
    }});
    let mut checks = Validator::new(Revision::V2026_07_28);
    let (_, answer) = round(addr, id, 0, 0, &body, &mut checks).await;
    let m = answer.unwrap_or_else(|e| panic!("list_orders on {addr}: {e}"));
    m["result"]["structuredContent"]["orders"]
        .as_array()
        .unwrap_or_else(|| panic!("list_orders on {addr}: {m}"))
        .len()
}

/// The first round's answer must ask exactly the confirmation, showing flow `n`'s price;
/// returns its `requestState`.
pub fn question(msg: &Value, n: usize) -> Result<String, String> {
    let result = &msg["result"];
    let (_, title, price) = BOOKS[n % BOOKS.len()];
    let quantity = 1 + (n / BOOKS.len()) as u32 % 10;
    let total = price * quantity;
    let shown = format!(
        "Order {quantity} x \"{title}\" for ${}.{:02}?",
        total / 100,
        total % 100
    );
    let asks = result["inputRequests"].as_object();
    let ok = result["resultType"] == "input_required"
        && asks.is_some_and(|a| a.len() == 1)
        && result["inputRequests"]["confirm_order"]["params"]["message"] == shown.as_str();
    match result["requestState"].as_str() {
        Some(state) if ok => Ok(state.to_owned()),
        _ => Err(format!("not the confirmation `{shown}`: {msg}")),
    }
}

/// A 2025-11-25 session: `initialize` through `front`, then `calls` searches naming the
/// session; the statuses of the notification and the searches (202 counted as 200), and the
/// request ids used.
pub async fn session_searches(
    front: SocketAddr,
    tag: &str,
    calls: usize,
) -> (Vec<u16>, Vec<String>) {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "fleet-test", "version": "1.0.0"},
    }});
    let mut ids = vec![format!("{tag}-init")];
    let (status, session, msg) = post_with(front, &ids[0], &[], &init)
        .await
        .expect("initialize");
    assert_eq!(
        (status, &msg["result"]["protocolVersion"]),
        (200, &"2025-11-25".into())
    );
    let session = session.expect("Mcp-Session-Id");
    let legacy = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    ids.push(format!("{tag}-note"));
    let (status, _, _) = post_with(front, &ids[1], &legacy, &note)
        .await
        .expect("note");
    // Accepted (202) by the session's instance, unknown (404) to the others.
    let mut statuses = vec![if status == 202 { 200 } else { status }];
    for i in 0..calls {
        let call = json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
            "params": {"name": "search_books", "arguments": {"query": "rust"}}});
        let id = format!("{tag}-{i}");
        let (status, _, msg) = post_with(front, &id, &legacy, &call).await.expect("call");
        if status == 200 {
            // 2025-11-25 drops a non-object structuredContent; the listing is in the text.
            let text = msg["result"]["content"][0]["text"].as_str().unwrap_or("");
            assert!(text.contains("\"The Rust Programming Language\""), "{msg}");
        }
        statuses.push(status);
        ids.push(id);
    }
    (statuses, ids)
}
