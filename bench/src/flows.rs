//! Two-round 2026-07-28 flows over keep-alive HTTP/1.1 connections (a bare hyper client, also
//! `load`'s), each answer checked and each flow timed: what `guard_bench` (one server, its replay
//! guard in memory or on Redis) and `fleet_bench` (three bookshops behind nginx) drive. Also
//! what both start: a `redis-server` on a free 127.0.0.1 port.

use crate::stats::pinned;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;

/// One exchange's bound (10 s): a request that takes longer is an error.
pub const EXCHANGE: Duration = Duration::from_secs(10);

/// A two-round flow: the tool, its arguments, the question it must ask, the answer sent back,
/// and the text the final round must end with, each from the flow's number.
#[derive(Clone, Copy)]
pub struct Flow {
    pub tool: &'static str,
    /// The key of the one question in `inputRequests`.
    pub key: &'static str,
    pub args: fn(u64) -> Value,
    /// The question's message.
    pub question: fn(u64) -> String,
    /// The user's response to it (`{"action": ..}`).
    pub response: fn(u64) -> Value,
    /// The final round's text.
    pub done: fn(u64) -> String,
}

/// A keep-alive connection to one address; reopened after a failure.
pub struct Conn {
    addr: SocketAddr,
    sender: Option<SendRequest<Full<Bytes>>>,
}

impl Conn {
    pub fn new(addr: SocketAddr) -> Conn {
        Conn { addr, sender: None }
    }

    async fn open(&self) -> Result<SendRequest<Full<Bytes>>, String> {
        let stream = TcpStream::connect(self.addr)
            .await
            .map_err(|e| e.to_string())?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| e.to_string())?;
        tokio::spawn(conn);
        Ok(sender)
    }

    /// POSTs a `tools/call`; its JSON answer (status 200 only).
    pub async fn post(&mut self, body: &Value) -> Result<Value, String> {
        let out = tokio::time::timeout(EXCHANGE, self.exchange(body))
            .await
            .unwrap_or_else(|_| Err(format!("no answer in {EXCHANGE:?}")));
        if out.is_err() {
            self.sender = None;
        }
        out
    }

    async fn exchange(&mut self, body: &Value) -> Result<Value, String> {
        if self.sender.is_none() {
            self.sender = Some(self.open().await?);
        }
        let sender = self.sender.as_mut().expect("connected");
        sender.ready().await.map_err(|e| e.to_string())?;
        let req = http::Request::post("/mcp")
            .header("host", self.addr.to_string())
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", body["params"]["name"].as_str().unwrap_or(""))
            .body(Full::new(Bytes::from(
                serde_json::to_vec(body).expect("json"),
            )))
            .expect("request");
        let resp = sender.send_request(req).await.map_err(|e| e.to_string())?;
        let status = resp.status();
        let bytes = resp
            .into_body()
            .collect()
            .await
            .map_err(|e| e.to_string())?
            .to_bytes();
        if status != 200 {
            return Err(format!(
                "HTTP {status}: {}",
                String::from_utf8_lossy(&bytes)
            ));
        }
        serde_json::from_slice(&bytes).map_err(|e| format!("{e}: {bytes:?}"))
    }
}

fn call(id: u64, name: &str, arguments: Value, extra: Value) -> Value {
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "rondo-flows", "version": "0"},
    });
    let mut params = json!({"name": name, "arguments": arguments, "_meta": meta});
    if let (Some(p), Value::Object(extra)) = (params.as_object_mut(), extra) {
        p.extend(extra);
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

fn text(msg: &Value) -> &str {
    msg["result"]["content"][0]["text"].as_str().unwrap_or("")
}

/// Flow `n`: the question, then the response with the `requestState`; both checked.
pub async fn run(conn: &mut Conn, flow: &Flow, n: u64) -> Result<(), String> {
    let args = (flow.args)(n);
    let first = conn
        .post(&call(n, flow.tool, args.clone(), json!({})))
        .await?;
    let result = &first["result"];
    let asked = result["inputRequests"][flow.key]["params"]["message"] == (flow.question)(n);
    let Some(state) = result["requestState"].as_str().filter(|_| asked) else {
        return Err(format!("{} round 1: {first}", flow.tool));
    };
    let answers = json!({
        "requestState": state,
        "inputResponses": {flow.key: (flow.response)(n)},
    });
    let second = conn.post(&call(n, flow.tool, args, answers)).await?;
    if text(&second) != (flow.done)(n) || second["result"]["isError"] == true {
        return Err(format!("{} round 2: {second}", flow.tool));
    }
    Ok(())
}

/// Flows finished, errors, and each flow's time (both rounds) in microseconds.
#[derive(Default)]
pub struct Tally {
    pub flows: u64,
    pub errors: u64,
    pub first_errors: Vec<String>,
    pub micros: Vec<u32>,
}

impl Tally {
    /// The `p` quantile (0 to 1) of the flows' times, in milliseconds.
    pub fn ms(&mut self, p: f64) -> f64 {
        self.micros.sort_unstable();
        if self.micros.is_empty() {
            return f64::NAN;
        }
        let i = ((self.micros.len() - 1) as f64 * p).round() as usize;
        f64::from(self.micros[i]) / 1000.0
    }
}

/// `conns` clients, each one connection running flow after flow (numbered from `base`), for
/// `seconds`; what happened and how long it took.
pub async fn drive(
    addr: SocketAddr,
    flow: Flow,
    conns: usize,
    seconds: f64,
    base: u64,
) -> (Tally, Duration) {
    let started = Instant::now();
    let until = started + Duration::from_secs_f64(seconds);
    let mut set = tokio::task::JoinSet::new();
    for c in 0..conns as u64 {
        set.spawn(async move {
            let mut t = Tally::default();
            let mut conn = Conn::new(addr);
            let mut n = base + (c << 24);
            while Instant::now() < until {
                n += 1;
                let began = Instant::now();
                match run(&mut conn, &flow, n).await {
                    Ok(()) => {
                        t.flows += 1;
                        t.micros
                            .push(began.elapsed().as_micros().min(u32::MAX as u128) as u32);
                    }
                    Err(e) => {
                        t.errors += 1;
                        if t.first_errors.len() < 3 {
                            t.first_errors.push(e);
                        }
                    }
                }
            }
            t
        });
    }
    let mut all = Tally::default();
    while let Some(t) = set.join_next().await {
        let t = t.expect("client");
        all.flows += t.flows;
        all.errors += t.errors;
        let room = 3usize.saturating_sub(all.first_errors.len());
        all.first_errors
            .extend(t.first_errors.into_iter().take(room));
        all.micros.extend(t.micros);
    }
    (all, started.elapsed())
}

/// A free port on 127.0.0.1.
pub fn free_addr() -> SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
}

/// Waits (at most 15 s) until something accepts connections on `addr`.
pub fn wait_listening(addr: SocketAddr, child: &mut Child, what: &str) {
    let end = Instant::now() + Duration::from_secs(15);
    while std::net::TcpStream::connect(addr).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("{what} exited before listening on {addr}: {status}");
        }
        assert!(Instant::now() < end, "{what} is not listening on {addr}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A child process, killed when dropped.
pub struct Proc(pub Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// How a Redis keeps what it is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Persistence {
    /// Every write in the append-only file, fsynced before it is acknowledged (what
    /// `deploy/kubernetes/redis.yaml` runs).
    Fsync,
    /// Nothing written to disk.
    None,
}

/// `redis-server` (Debian's) on a free 127.0.0.1 port, its files in `dir`, under
/// `taskset -c CPU` when given; its URL.
pub fn redis(dir: &Path, persistence: Persistence, cpu: Option<&str>) -> (Proc, String) {
    let addr = free_addr();
    std::fs::create_dir_all(dir).expect("redis dir");
    let port = addr.port().to_string();
    let dir = dir.to_string_lossy();
    let mut args = vec!["--bind", "127.0.0.1", "--port", &port, "--dir", &dir];
    args.extend(match persistence {
        Persistence::Fsync => [
            "--appendonly",
            "yes",
            "--appendfsync",
            "always",
            "--save",
            "",
        ],
        Persistence::None => ["--appendonly", "no", "--save", "", "--loglevel", "warning"],
    });
    let program = redis_binary();
    let mut child = pinned(cpu, &program.to_string_lossy(), &args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("start redis-server: {e} (apt-get install redis-server)"));
    wait_listening(addr, &mut child, "redis-server");
    (Proc(child), format!("redis://{addr}/0"))
}

fn redis_binary() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin")])
        .map(|d| d.join("redis-server"))
        .find(|p| p.is_file())
        .expect("redis-server is not installed: apt-get install redis-server")
}
