//! Real stdio, side by side: each server a release binary started as a child process, the
//! driver writing newline-delimited JSON-RPC to its stdin and reading its stdout.
//!
//! ```text
//! taskset -c 0 stdio_bench [--runs 5] [--seq 2000] [--pipelined 20000] [--window 1000]
//!                          [--mem 1,100,1000] [--server-cpu 1] [--servers rondo,rmcp,floor]
//! ```
//!
//! Servers: `rondo_stdio`, `rmcp_stdio` and `floor_stdio`, next to this binary, each started
//! under `taskset -c CPU` when `--server-cpu` is given (`bench/real.sh` pins the driver to core
//! 0 and the servers to core 1). At each revision (2025-11-25 after the `initialize`
//! handshake; 2026-07-28 stateless, `_meta` on every request), RUNS repetitions, the servers
//! interleaved within each (rondo, rmcp, floor, rondo, ..) so drift hits all alike; each run is
//! a fresh process that answers
//! - **sequential**: `--seq` `add` calls, one in flight;
//! - **pipelined**: then `--pipelined` `add` calls, written as fast as the server reads them
//!   with at most `--window` unanswered (a writer task and a reader, the writer waits for room
//!   only when the window is full).
//!
//! Every answer is checked (its sum, each id answered once). Before measuring, the driver
//! checks that the floor answers an `add` call with the very bytes Rondo answers it with, at
//! both revisions, and prints the three servers' answers.
//!
//! **Memory per request in flight** (`--mem`, empty to skip): for each W, RUNS runs per server
//! (interleaved), at 2026-07-28: a fresh server answers 10 `add` calls, its `VmRSS` is read
//! (idle), then W `wait` calls (each sleeps 300 ms) are written at once; from the moment they
//! are written until the first answer comes back `VmRSS` is sampled every 5 ms and the highest
//! sample kept; then every answer is checked. Reported: (that RSS − idle) / W.
//!
//! Output: Markdown tables of calls/s (median [min–max]) per server and the ratios Rondo/rmcp
//! and Rondo/floor (ratio of the medians [range of the per-repetition ratios]).

use rondo_bench::stats::{Spread, memory, pinned, ratio, sibling};
use rondo_bench::wire::{Client, FORM_CAPS, Rev, Wire, add_args, call, check_sum, result_text};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, BufWriter};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::Semaphore;

struct Args {
    runs: usize,
    seq: u64,
    pipelined: u64,
    window: usize,
    mem: Vec<usize>,
    cpu: Option<String>,
    servers: Vec<&'static str>,
}

const USAGE: &str = "usage: stdio_bench [--runs N] [--seq N] [--pipelined N] [--window W] \
                     [--mem W1,W2,..] [--server-cpu CPU] [--servers rondo,rmcp,floor]";

fn args() -> Args {
    let mut a = Args {
        runs: 5,
        seq: 2000,
        pipelined: 20_000,
        window: 1000,
        mem: vec![1, 100, 1000],
        cpu: None,
        servers: vec!["rondo", "rmcp", "floor"],
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{USAGE}"));
        let num = |v: &str| v.parse::<u64>().unwrap_or_else(|_| panic!("{USAGE}"));
        match flag.as_str() {
            "--runs" => a.runs = num(&value) as usize,
            "--seq" => a.seq = num(&value),
            "--pipelined" => a.pipelined = num(&value),
            "--window" => a.window = num(&value) as usize,
            "--mem" => {
                a.mem = value
                    .split(',')
                    .filter(|w| !w.is_empty())
                    .map(|w| num(w) as usize)
                    .collect()
            }
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
    assert!(a.runs > 0 && a.window > 0 && a.seq > 0, "{USAGE}");
    a
}

/// A running server: the child and a client connected to it.
struct Running {
    child: Child,
    client: Client<ChildStdin, ChildStdout>,
}

async fn start(server: &str, cpu: Option<&str>, rev: Rev) -> Running {
    let program = sibling(&format!("{server}_stdio"));
    let mut child = Command::from(pinned(cpu, &program, &[]))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("start {program}: {e}"));
    let wire = Wire::new(
        child.stdin.take().expect("piped"),
        child.stdout.take().expect("piped"),
    );
    let client = Client::connect(wire, rev, FORM_CAPS).await;
    Running { child, client }
}

/// Closes the server's input and waits for it to exit with success.
async fn stop(mut child: Child, stdin: ChildStdin) {
    drop(stdin);
    let status = tokio::time::timeout(Duration::from_secs(30), child.wait())
        .await
        .expect("the server exits after its input closes")
        .expect("waitable");
    assert!(status.success(), "the server exited with {status}");
}

/// `calls` `add` calls from id `first` on, at most `window` unanswered; calls per second.
async fn pipelined<W, R>(
    to_server: W,
    from_server: &mut BufReader<R>,
    rev: Rev,
    first: u64,
    calls: u64,
    window: usize,
) -> (W, f64)
where
    W: AsyncWrite + Unpin + Send + 'static,
    R: AsyncRead + Unpin,
{
    let permits = Arc::new(Semaphore::new(window));
    let start = Instant::now();
    let writer = tokio::spawn({
        let permits = permits.clone();
        async move {
            let mut out = BufWriter::with_capacity(1 << 16, to_server);
            for id in first..first + calls {
                // Write what is buffered before waiting for room in the window.
                let permit = match permits.try_acquire() {
                    Ok(p) => p,
                    Err(_) => {
                        out.flush().await.expect("the server reads");
                        permits.acquire().await.expect("never closed")
                    }
                };
                permit.forget();
                let line = call(rev, FORM_CAPS, id, "add", &add_args(id), "");
                out.write_all(line.as_bytes())
                    .await
                    .expect("the server reads");
                out.write_all(b"\n").await.expect("the server reads");
            }
            out.flush().await.expect("the server reads");
            out.into_inner()
        }
    });
    let mut answered = vec![false; calls as usize];
    let mut line = Vec::with_capacity(4096);
    for _ in 0..calls {
        line.clear();
        let n = from_server
            .read_until(b'\n', &mut line)
            .await
            .expect("readable");
        assert!(n > 0, "the server closed its output early");
        let answer: serde_json::Value = serde_json::from_slice(&line).expect("JSON");
        let id = check_sum(&answer, u64::MAX);
        let slot = id
            .checked_sub(first)
            .and_then(|i| answered.get_mut(i as usize))
            .unwrap_or_else(|| panic!("unexpected id: {answer}"));
        assert!(!std::mem::replace(slot, true), "answered twice: {answer}");
        permits.add_permits(1);
    }
    let per_sec = calls as f64 / start.elapsed().as_secs_f64();
    (writer.await.expect("the writer"), per_sec)
}

/// One run: a fresh server, `seq` sequential calls, then `pipe` pipelined; (seq/s, pipe/s).
async fn run(server: &str, a: &Args, rev: Rev) -> (f64, f64) {
    let Running { child, mut client } = start(server, a.cpu.as_deref(), rev).await;
    let started = Instant::now();
    for _ in 0..a.seq {
        client.add().await;
    }
    let seq = a.seq as f64 / started.elapsed().as_secs_f64();
    let first = client.id();
    let (to_server, mut from_server) = client.wire.into_parts();
    let (to_server, pipe) = if a.pipelined > 0 {
        pipelined(
            to_server,
            &mut from_server,
            rev,
            first,
            a.pipelined,
            a.window,
        )
        .await
    } else {
        (to_server, 0.0)
    };
    stop(child, to_server).await;
    (seq, pipe)
}

/// The raw line each server answers `add` with (id 7), at `rev`.
async fn answer_line(server: &str, cpu: Option<&str>, rev: Rev) -> String {
    let Running { child, client } = start(server, cpu, rev).await;
    let (mut to_server, mut from_server) = client.wire.into_parts();
    let line = call(rev, FORM_CAPS, 7, "add", &add_args(7), "") + "\n";
    to_server.write_all(line.as_bytes()).await.expect("writes");
    to_server.flush().await.expect("writes");
    let mut answer = String::new();
    from_server.read_line(&mut answer).await.expect("reads");
    stop(child, to_server).await;
    answer.trim_end().to_owned()
}

/// One memory run: (idle KiB, highest KiB with `w` `wait` calls in flight).
async fn mem_run(server: &str, cpu: Option<&str>, w: usize) -> (u64, u64) {
    let Running { child, mut client } = start(server, cpu, Rev::Modern).await;
    let pid = child.id().expect("running");
    for _ in 0..10 {
        client.add().await;
    }
    let (idle, _) = memory(pid);
    let first = client.id();
    let mut batch = Vec::new();
    for id in first..first + w as u64 {
        batch.extend_from_slice(call(Rev::Modern, FORM_CAPS, id, "wait", "{}", "").as_bytes());
        batch.push(b'\n');
    }
    let (mut to_server, mut from_server) = client.wire.into_parts();
    to_server.write_all(&batch).await.expect("writes");
    to_server.flush().await.expect("writes");
    let mut peak = memory(pid).0;
    let mut line = Vec::with_capacity(4096);
    let mut tick = tokio::time::interval(Duration::from_millis(5));
    // Sample until the first answer is in: until then all W are in flight.
    loop {
        tokio::select! {
            n = from_server.read_until(b'\n', &mut line) => {
                assert!(n.expect("readable") > 0, "the server closed its output early");
                break;
            }
            _ = tick.tick() => peak = peak.max(memory(pid).0),
        }
    }
    let mut answered = vec![false; w];
    for i in 0..w {
        if i > 0 {
            line.clear();
            let n = from_server.read_until(b'\n', &mut line).await;
            assert!(
                n.expect("readable") > 0,
                "the server closed its output early"
            );
        }
        let answer: serde_json::Value = serde_json::from_slice(&line).expect("JSON");
        assert_eq!(result_text(&answer), Some("waited"), "{answer}");
        let id = answer["id"].as_u64().expect("a numeric id");
        let slot = id
            .checked_sub(first)
            .and_then(|i| answered.get_mut(i as usize))
            .unwrap_or_else(|| panic!("unexpected id: {answer}"));
        assert!(!std::mem::replace(slot, true), "answered twice: {answer}");
    }
    stop(child, to_server).await;
    (idle, peak)
}

fn rev_name(rev: Rev) -> &'static str {
    rev.version()
}

/// The table's cells for one row: each server's spread, then the two ratios.
fn row(label: &str, servers: &[&str], series: &[Vec<f64>]) -> String {
    let mut cells: Vec<String> = series.iter().map(|s| Spread::of(s).cell()).collect();
    cells.extend(ratios(servers, series));
    format!("| {label} | {} |", cells.join(" | "))
}

fn header(first: &str, servers: &[&str]) -> String {
    let names: Vec<String> = servers.iter().map(|s| format!("{s} {first}")).collect();
    format!(
        "| | {} | Rondo/rmcp | Rondo/floor |\n|---|{}---|---|",
        names.join(" | "),
        "---|".repeat(servers.len())
    )
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let a = args();
    let cpu = a.cpu.as_deref();
    for rev in [Rev::Legacy, Rev::Modern] {
        let mut answers = Vec::new();
        for server in &a.servers {
            let line = answer_line(server, cpu, rev).await;
            println!("{} {server} answers add(7, 14): {line}", rev_name(rev));
            answers.push((*server, line));
        }
        let of = |name: &str| answers.iter().find(|(s, _)| *s == name).map(|(_, l)| l);
        if let (Some(r), Some(f)) = (of("rondo"), of("floor")) {
            rondo_bench::floor::same_answer(r, f);
        }
    }
    println!();
    println!(
        "stdio: {} runs; sequential {} calls (one in flight), pipelined {} calls (at most {} unanswered); \
         server on CPU {}; calls/s, median [min–max]; ratios: of the medians [per-repetition range]",
        a.runs,
        a.seq,
        a.pipelined,
        a.window,
        cpu.unwrap_or("any")
    );
    println!();
    println!("{}", header("calls/s", &a.servers));
    for rev in [Rev::Modern, Rev::Legacy] {
        let mut seq = vec![Vec::new(); a.servers.len()];
        let mut pipe = vec![Vec::new(); a.servers.len()];
        for _ in 0..a.runs {
            for (i, server) in a.servers.iter().enumerate() {
                let (s, p) = run(server, &a, rev).await;
                seq[i].push(s);
                pipe[i].push(p);
            }
        }
        println!(
            "{}",
            row(&format!("{} sequential", rev_name(rev)), &a.servers, &seq)
        );
        if a.pipelined > 0 {
            println!(
                "{}",
                row(&format!("{} pipelined", rev_name(rev)), &a.servers, &pipe)
            );
        }
    }
    if a.mem.is_empty() {
        return;
    }
    println!();
    println!(
        "memory per request in flight (2026-07-28, `wait` calls of 300 ms): (highest VmRSS with W in flight − idle VmRSS) / W, KiB, \
         median [min–max] of {} runs (VmRSS counts 4 KiB pages: at W = 1 a figure is a multiple of 4); idle VmRSS (KiB) in the last row",
        a.runs
    );
    println!();
    println!("{}", header("KiB", &a.servers));
    let mut idle = vec![Vec::new(); a.servers.len()];
    for &w in &a.mem {
        let mut per = vec![Vec::new(); a.servers.len()];
        for _ in 0..a.runs {
            for (i, server) in a.servers.iter().enumerate() {
                let (rest, busy) = mem_run(server, cpu, w).await;
                per[i].push(busy.saturating_sub(rest) as f64 / w as f64);
                idle[i].push(rest as f64);
            }
        }
        let mut cells: Vec<String> = per.iter().map(|s| Spread::of(s).cell1()).collect();
        cells.extend(ratios(&a.servers, &per));
        println!("| W = {w} | {} |", cells.join(" | "));
    }
    let mut cells: Vec<String> = idle.iter().map(|s| Spread::of(s).cell()).collect();
    cells.extend(ratios(&a.servers, &idle));
    println!("| idle VmRSS | {} |", cells.join(" | "));
}

/// Rondo/rmcp and Rondo/floor, or "—" where a server was not run.
fn ratios(servers: &[&str], series: &[Vec<f64>]) -> Vec<String> {
    let at = |name: &str| servers.iter().position(|s| *s == name);
    ["rmcp", "floor"]
        .iter()
        .map(|other| match (at("rondo"), at(other)) {
            (Some(r), Some(o)) => ratio(&series[r], &series[o]),
            _ => "—".into(),
        })
        .collect()
}
