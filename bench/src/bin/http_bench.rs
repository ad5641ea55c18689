//! Streamable HTTP, side by side: each server a release binary listening on 127.0.0.1.
//!
//! ```text
//! taskset -c 0 http_bench [--runs 5] [--seconds 5] [--conns 1,8,50] [--server-cpu 1]
//!                         [--servers rondo,rmcp,floor]
//! ```
//!
//! Starts `rondo_http`, `rmcp_http` and `floor_http` (next to this binary; under
//! `taskset -c CPU` when `--server-cpu` is given) each on a free 127.0.0.1 port, checks that
//! each answers a 2026-07-28 `tools/call` of `add` (and that the floor answers the same JSON as
//! Rondo, saying whether the bytes are the same too), reads their idle `VmRSS`, then drives them
//! with plain stateless 2026-07-28 `tools/call add` requests (`_meta` in the body, the
//! `Mcp-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers, `Accept: application/json,
//! text/event-stream`) from C concurrent clients, each one keep-alive HTTP/1.1 connection
//! (a bare hyper client) sending its next request when the last is answered, for SECONDS per
//! run. For each C in `--conns`, RUNS repetitions with the servers interleaved within each
//! (rondo, rmcp, floor, rondo, ..). Every answer is checked (status 200, the id, the sum; a
//! JSON body, or an SSE stream whose data line is the answer); any failure is counted, the
//! first few printed, and the driver exits non-zero. After the runs at the highest C, each
//! server's `VmRSS` and peak (`VmHWM`) are read from `/proc/PID/status`.
//!
//! Output: Markdown tables of requests/s (median [min–max]) with the ratios Rondo/rmcp and
//! Rondo/floor (of the medians [per-repetition range]), and of memory.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use rondo_bench::stats::{Spread, memory, pinned, ratio, sibling};
use rondo_bench::wire::{FORM_CAPS, Rev, add_args, call, result_text};
use serde_json::Value;
use std::net::SocketAddr;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;

/// One exchange's bound: a request that takes longer is an error.
const EXCHANGE: Duration = Duration::from_secs(10);

struct Args {
    runs: usize,
    seconds: f64,
    conns: Vec<usize>,
    cpu: Option<String>,
    servers: Vec<&'static str>,
}

const USAGE: &str = "usage: http_bench [--runs N] [--seconds S] [--conns 1,8,50] \
                     [--server-cpu CPU] [--servers rondo,rmcp,floor]";

fn args() -> Args {
    let mut a = Args {
        runs: 5,
        seconds: 5.0,
        conns: vec![1, 8, 50],
        cpu: None,
        servers: vec!["rondo", "rmcp", "floor"],
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{USAGE}"));
        match flag.as_str() {
            "--runs" => a.runs = value.parse().expect(USAGE),
            "--seconds" => a.seconds = value.parse().expect(USAGE),
            "--conns" => a.conns = value.split(',').map(|c| c.parse().expect(USAGE)).collect(),
            "--server-cpu" => a.cpu = Some(value),
            "--servers" => {
                a.servers = value
                    .split(',')
                    .map(|s| match s {
                        "rondo" => "rondo",
                        "rmcp" => "rmcp",
                        "floor" => "floor",
                        _ => panic!("{USAGE}"),
                    })
                    .collect()
            }
            _ => panic!("{USAGE}"),
        }
    }
    assert!(
        a.runs > 0 && a.seconds > 0.0 && !a.conns.is_empty() && a.conns.iter().all(|&c| c > 0),
        "{USAGE}"
    );
    a
}

/// A server process and its address; killed when dropped.
struct Server {
    name: &'static str,
    child: Child,
    addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(name: &'static str, cpu: Option<&str>) -> Server {
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port");
    let program = sibling(&format!("{name}_http"));
    let child = pinned(cpu, &program, &[&addr.to_string()])
        .stdin(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("start {program}: {e}"));
    let ready = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(addr).is_err() {
        assert!(
            Instant::now() < ready,
            "{program} is not listening on {addr}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    Server { name, child, addr }
}

async fn open(addr: SocketAddr) -> Result<SendRequest<Full<Bytes>>, String> {
    let stream = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(conn);
    Ok(sender)
}

/// The JSON-RPC answer in a body: the body itself (`application/json`), or the data line of
/// an SSE stream that is a response.
fn answer_of(body: &[u8]) -> Result<Value, String> {
    if let Ok(v) = serde_json::from_slice::<Value>(body) {
        return Ok(v);
    }
    String::from_utf8_lossy(body)
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .find(|v| v.get("result").is_some() || v.get("error").is_some())
        .ok_or_else(|| format!("no answer in {:?}", String::from_utf8_lossy(body)))
}

/// POSTs the `add` call with `id`; the raw body (status 200 only).
async fn post(
    sender: &mut SendRequest<Full<Bytes>>,
    addr: SocketAddr,
    id: u64,
) -> Result<Bytes, String> {
    sender.ready().await.map_err(|e| e.to_string())?;
    let body = call(Rev::Modern, FORM_CAPS, id, "add", &add_args(id), "");
    let req = http::Request::post("/mcp")
        .header("host", addr.to_string())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "add")
        .body(Full::new(Bytes::from(body)))
        .expect("a request");
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
    Ok(bytes)
}

/// One checked call: the answer carries the id and the sum.
async fn checked(
    sender: &mut SendRequest<Full<Bytes>>,
    addr: SocketAddr,
    id: u64,
) -> Result<(), String> {
    let bytes = post(sender, addr, id).await?;
    let answer = answer_of(&bytes)?;
    let want = (3 * id).to_string();
    if answer["id"].as_u64() == Some(id) && result_text(&answer) == Some(want.as_str()) {
        Ok(())
    } else {
        Err(format!("want id {id} and {want}: {answer}"))
    }
}

#[derive(Default)]
struct Tally {
    ok: u64,
    errors: u64,
    first_errors: Vec<String>,
}

async fn client(addr: SocketAddr, c: u64, until: Instant) -> Tally {
    let mut tally = Tally::default();
    let mut sender = None;
    let mut id = c << 32;
    while Instant::now() < until {
        id += 1;
        let out = tokio::time::timeout(EXCHANGE, async {
            if sender.is_none() {
                sender = Some(open(addr).await?);
            }
            checked(sender.as_mut().expect("open"), addr, id).await
        })
        .await
        .unwrap_or_else(|_| Err(format!("no answer in {EXCHANGE:?}")));
        match out {
            Ok(()) => tally.ok += 1,
            Err(e) => {
                sender = None;
                tally.errors += 1;
                if tally.first_errors.len() < 3 {
                    tally.first_errors.push(e);
                }
            }
        }
    }
    tally
}

/// One run of `conns` clients for `seconds`: checked answers per second, and the tally.
async fn run(addr: SocketAddr, conns: usize, seconds: f64) -> (f64, Tally) {
    let started = Instant::now();
    let until = started + Duration::from_secs_f64(seconds);
    let mut set = tokio::task::JoinSet::new();
    for c in 0..conns as u64 {
        set.spawn(client(addr, c, until));
    }
    let mut all = Tally::default();
    while let Some(t) = set.join_next().await {
        let t = t.expect("a client");
        all.ok += t.ok;
        all.errors += t.errors;
        let room = 5usize.saturating_sub(all.first_errors.len());
        all.first_errors
            .extend(t.first_errors.into_iter().take(room));
    }
    (all.ok as f64 / started.elapsed().as_secs_f64(), all)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let a = args();
    let cpu = a.cpu.as_deref();
    let servers: Vec<Server> = a.servers.iter().map(|s| start(s, cpu)).collect();
    let mut bodies = Vec::new();
    for s in &servers {
        let mut sender = open(s.addr).await.expect("connects");
        let body = post(&mut sender, s.addr, 7)
            .await
            .unwrap_or_else(|e| panic!("{} does not answer add: {e}", s.name));
        let body = String::from_utf8_lossy(&body).trim_end().to_owned();
        println!("{}_http answers add(7, 14): {body}", s.name);
        checked(&mut sender, s.addr, 8)
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", s.name));
        bodies.push((s.name, body));
    }
    let of = |name: &str| bodies.iter().find(|(s, _)| *s == name).map(|(_, b)| b);
    if let (Some(r), Some(f)) = (of("rondo"), of("floor")) {
        rondo_bench::floor::same_answer(r, f);
    }
    let idle: Vec<(u64, u64)> = servers.iter().map(|s| memory(s.child.id())).collect();

    println!();
    println!(
        "HTTP: 2026-07-28 stateless tools/call add, C keep-alive HTTP/1.1 connections each with \
         one request in flight, {} s per run, {} runs; servers on CPU {}; checked answers per \
         second, median [min–max]; ratios: of the medians [per-repetition range]",
        a.seconds,
        a.runs,
        cpu.unwrap_or("any")
    );
    println!();
    let names: Vec<String> = a.servers.iter().map(|s| format!("{s} req/s")).collect();
    println!(
        "| connections | {} | Rondo/rmcp | Rondo/floor |\n|---|{}---|---|",
        names.join(" | "),
        "---|".repeat(a.servers.len())
    );
    let mut failed = false;
    let mut loaded = vec![Vec::new(); servers.len()];
    let top = *a.conns.iter().max().expect("a connection count");
    for &conns in &a.conns {
        let mut rates = vec![Vec::new(); servers.len()];
        for _ in 0..a.runs {
            for (i, s) in servers.iter().enumerate() {
                let (rate, tally) = run(s.addr, conns, a.seconds).await;
                if tally.errors > 0 {
                    failed = true;
                    eprintln!(
                        "{} at {conns} connections: {} errors ({} answered), first: {:?}",
                        s.name, tally.errors, tally.ok, tally.first_errors
                    );
                }
                rates[i].push(rate);
                if conns == top {
                    loaded[i].push(memory(s.child.id()));
                }
            }
        }
        let mut cells: Vec<String> = rates.iter().map(|r| Spread::of(r).cell()).collect();
        let at = |name: &str| a.servers.iter().position(|s| *s == name);
        for other in ["rmcp", "floor"] {
            cells.push(match (at("rondo"), at(other)) {
                (Some(r), Some(o)) => ratio(&rates[r], &rates[o]),
                _ => "—".into(),
            });
        }
        println!("| {conns} | {} |", cells.join(" | "));
    }

    println!();
    println!(
        "memory (KiB): VmRSS idle (after two calls), VmRSS at the end of the runs at {top} \
         connections (median [min–max]), VmHWM (the highest VmRSS since the server started) at the end"
    );
    println!();
    println!(
        "| server | idle VmRSS | VmRSS after {top} connections | peak VmHWM |\n|---|---|---|---|"
    );
    for (i, s) in servers.iter().enumerate() {
        let rss: Vec<f64> = loaded[i].iter().map(|m| m.0 as f64).collect();
        let hwm = loaded[i].iter().map(|m| m.1).max().unwrap_or(0);
        println!(
            "| {} | {} | {} | {hwm} |",
            s.name,
            idle[i].0,
            Spread::of(&rss).cell()
        );
    }
    drop(servers);
    if failed {
        eprintln!("some requests failed: see above");
        std::process::exit(1);
    }
}
