//! An HTTP load test of Rondo: `load [SECONDS] [WORKERS] [RUNS]` (default 60 s, 32 workers,
//! 2 runs) starts `rondo_http` (next to this binary) on a free 127.0.0.1 port and drives it at
//! 2026-07-28 with a mix of plain `add` calls and two-round `delete_file` flows (the
//! `InputRequiredResult` read, the confirmation sent back with its `requestState`), each worker
//! on one keep-alive connection, for SECONDS per run, RUNS runs back to back against the same
//! process. Every answer is checked (the sum, the question, the final text); anything else is
//! an error. After each run it reads the server's resident memory (`VmRSS` in
//! `/proc/PID/status`). It exits non-zero when any request failed or when the resident memory
//! at the end of the last run is more than 10% above the end of the first.

use rondo_bench::stats::memory;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Default)]
struct Tally {
    calls: u64,
    flows: u64,
    errors: u64,
    first_errors: Vec<String>,
    /// Microseconds per request.
    latencies: Vec<u32>,
}

impl Tally {
    fn error(&mut self, e: String) {
        self.errors += 1;
        if self.first_errors.len() < 5 {
            self.first_errors.push(e);
        }
    }

    fn merge(&mut self, other: Tally) {
        self.calls += other.calls;
        self.flows += other.flows;
        self.errors += other.errors;
        let room = 5usize.saturating_sub(self.first_errors.len());
        self.first_errors
            .extend(other.first_errors.into_iter().take(room));
        self.latencies.extend(other.latencies);
    }
}

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "rondo-load", "version": "0"},
    })
}

fn call(id: u64, name: &str, arguments: Value, extra: Value) -> Value {
    let mut params = json!({"name": name, "arguments": arguments, "_meta": meta()});
    if let (Some(p), Value::Object(extra)) = (params.as_object_mut(), extra) {
        p.extend(extra);
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

/// A worker's keep-alive connection, each request timed.
struct Conn(rondo_bench::flows::Conn);

impl Conn {
    /// POSTs `body`; the JSON answer. A failed connection is dropped, and the next request
    /// opens a new one.
    async fn post(&mut self, body: &Value, tally: &mut Tally) -> Result<Value, String> {
        let started = Instant::now();
        let out = self.0.post(body).await;
        tally
            .latencies
            .push(started.elapsed().as_micros().min(u32::MAX as u128) as u32);
        out
    }
}

fn text(msg: &Value) -> &str {
    msg["result"]["content"][0]["text"].as_str().unwrap_or("")
}

/// A plain call: the sum must come back.
async fn plain(conn: &mut Conn, n: u64, tally: &mut Tally) -> Result<(), String> {
    let (a, b) = (n as i64, 7 * n as i64);
    let msg = conn
        .post(&call(n, "add", json!({"a": a, "b": b}), json!({})), tally)
        .await?;
    let want = (a + b).to_string();
    if text(&msg) != want {
        return Err(format!("add: want {want}: {msg}"));
    }
    tally.calls += 1;
    Ok(())
}

/// A two-round flow: the question, then the confirmation with the `requestState`.
async fn flow(conn: &mut Conn, n: u64, tally: &mut Tally) -> Result<(), String> {
    let path = format!("/tmp/load-{n}");
    let args = json!({"path": path});
    let first = conn
        .post(&call(n, "delete_file", args.clone(), json!({})), tally)
        .await?;
    let result = &first["result"];
    let asked = result["inputRequests"]["confirm_delete"]["params"]["message"]
        == format!("Delete {path}?").as_str();
    let Some(state) = result["requestState"].as_str().filter(|_| asked) else {
        return Err(format!("delete_file round 1: {first}"));
    };
    let answers = json!({
        "requestState": state,
        "inputResponses": {"confirm_delete": {"action": "accept", "content": {"confirm": true}}},
    });
    let second = conn
        .post(&call(n, "delete_file", args, answers), tally)
        .await?;
    if text(&second) != format!("deleted {path}") {
        return Err(format!("delete_file round 2: {second}"));
    }
    tally.flows += 1;
    Ok(())
}

async fn worker(addr: SocketAddr, w: u64, until: Instant) -> Tally {
    let mut tally = Tally::default();
    let mut conn = Conn(rondo_bench::flows::Conn::new(addr));
    let mut n = w << 32;
    while Instant::now() < until {
        n += 1;
        // Half plain calls, half flows (three requests in four are part of a flow).
        let out = if n.is_multiple_of(2) {
            plain(&mut conn, n, &mut tally).await
        } else {
            flow(&mut conn, n, &mut tally).await
        };
        if let Err(e) = out {
            tally.error(e);
        }
    }
    tally
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

async fn run(addr: SocketAddr, seconds: u64, workers: u64) -> (Tally, Duration) {
    let started = Instant::now();
    let until = started + Duration::from_secs(seconds);
    let mut set = tokio::task::JoinSet::new();
    for w in 0..workers {
        set.spawn(worker(addr, w, until));
    }
    let mut tally = Tally::default();
    while let Some(t) = set.join_next().await {
        tally.merge(t.expect("worker"));
    }
    (tally, started.elapsed())
}

#[tokio::main]
async fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .map(|a| a.parse().expect("a number"))
            .unwrap_or(default)
    };
    let (seconds, workers, runs) = (arg(1, 60), arg(2, 32), arg(3, 2));
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port");
    let server = std::env::current_exe()
        .expect("current exe")
        .with_file_name("rondo_http");
    let mut child = Command::new(&server)
        .arg(port.to_string())
        .stdin(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("start {}: {e}", server.display()));
    let pid = child.id();
    let ready = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(port).is_err() {
        assert!(Instant::now() < ready, "rondo_http is not listening");
        std::thread::sleep(Duration::from_millis(20));
    }
    let (rss0, _) = memory(pid);
    println!(
        "rondo_http pid {pid} on {port}: {runs} runs of {seconds} s, {workers} workers; RSS at start {rss0} KiB"
    );
    let mut ends = Vec::new();
    let mut failed = false;
    for r in 1..=runs {
        let (mut t, took) = run(port, seconds, workers).await;
        let (rss, hwm) = memory(pid);
        ends.push(rss);
        t.latencies.sort_unstable();
        let requests = t.latencies.len() as f64;
        println!(
            "run {r}: {:.1} s, {} requests ({:.0}/s): {} plain calls, {} two-round flows, {} errors; \
             latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; RSS {rss} KiB (peak {hwm} KiB)",
            took.as_secs_f64(),
            t.latencies.len(),
            requests / took.as_secs_f64(),
            t.calls,
            t.flows,
            t.errors,
            percentile(&t.latencies, 0.5),
            percentile(&t.latencies, 0.99),
            percentile(&t.latencies, 1.0),
        );
        for e in &t.first_errors {
            println!("  error: {e}");
        }
        failed |= t.errors > 0;
    }
    if let (Some(first), Some(last)) = (ends.first(), ends.last()) {
        let growth = (*last as f64 / *first as f64 - 1.0) * 100.0;
        println!("RSS end of last run vs end of first: {growth:+.1}% (bound +10%)");
        failed |= *last as f64 > *first as f64 * 1.10;
    }
    let _ = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    let status = child.wait().expect("wait");
    println!("rondo_http exited after SIGTERM: {status}");
    if failed {
        std::process::exit(1);
    }
}
