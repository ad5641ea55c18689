//! Drives a stdio MCP server under a fixed load and checks every answer.
//!
//! ```text
//! driver [--calls N] [--window W] -- COMMAND [ARGS..]
//! ```
//!
//! Spawns COMMAND with piped stdin/stdout (stderr passes through), runs the 2025-11-25
//! handshake, sends N `tools/call` requests to `add` (10 000 by default) with at most W in flight
//! (1000 by default), checks that every answer carries the right sum and that each id is
//! answered once, closes the server's input and waits for it to exit. Prints the time from the
//! first call to the last answer. Wrap COMMAND in `/usr/bin/time -v -o FILE` to measure the
//! server alone.

use rondo_bench::wire::{FORM_CAPS, Rev, Wire, add_args, call, check_sum};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufWriter};
use tokio::process::Command;
use tokio::sync::Semaphore;

struct Args {
    calls: u64,
    window: usize,
    rev: Rev,
    command: Vec<String>,
}

fn args() -> Args {
    let mut calls = 10_000;
    let mut window = 1000;
    let mut rev = Rev::Legacy;
    let mut it = std::env::args().skip(1);
    let usage =
        "usage: driver [--calls N] [--window W] [--rev 2025-11-25|2025-06-18|2026-07-28] -- COMMAND [ARGS..]";
    loop {
        match it.next().as_deref() {
            Some("--calls") => calls = it.next().and_then(|n| n.parse().ok()).expect(usage),
            Some("--window") => window = it.next().and_then(|n| n.parse().ok()).expect(usage),
            Some("--rev") => {
                rev = match it.next().as_deref() {
                    Some("2025-11-25") => Rev::Legacy,
                    Some("2025-06-18") => Rev::V2025_06_18,
                    Some("2026-07-28") => Rev::Modern,
                    _ => panic!("{usage}"),
                }
            }
            Some("--") => break,
            _ => panic!("{usage}"),
        }
    }
    let command: Vec<String> = it.collect();
    assert!(!command.is_empty() && window > 0, "{usage}");
    Args {
        calls,
        window,
        rev,
        command,
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let Args {
        calls,
        window,
        rev,
        command,
    } = args();
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("the server starts");
    let mut wire = Wire::new(
        child.stdin.take().expect("piped"),
        child.stdout.take().expect("piped"),
    );
    if rev.handshake() {
        wire.initialize(rev.version(), FORM_CAPS).await;
    }
    let (to_server, mut from_server) = wire.into_parts();

    let permits = Arc::new(Semaphore::new(window));
    let start = Instant::now();
    let writer = tokio::spawn({
        let permits = permits.clone();
        async move {
            let mut out = BufWriter::with_capacity(1 << 16, to_server);
            for id in 1..=calls {
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
            out
        }
    });

    let mut answered = vec![false; calls as usize + 1];
    let mut line = Vec::with_capacity(4096);
    for _ in 0..calls {
        line.clear();
        let n = from_server
            .read_until(b'\n', &mut line)
            .await
            .expect("readable");
        assert!(n > 0, "the server closed its output early");
        let answer: serde_json::Value = serde_json::from_slice(&line).expect("JSON");
        let id = check_sum(&answer, u64::MAX) as usize;
        assert!(
            id >= 1 && !std::mem::replace(&mut answered[id], true),
            "unexpected or repeated answer: {answer}"
        );
        permits.add_permits(1);
    }
    let elapsed = start.elapsed();

    let mut to_server = writer.await.expect("the writer finished");
    to_server.shutdown().await.expect("closable");
    drop(to_server);
    let status = tokio::time::timeout(Duration::from_secs(30), child.wait())
        .await
        .expect("the server exits after its input closes")
        .expect("waitable");
    assert!(status.success(), "the server exited with {status}");
    let per_sec = calls as f64 / elapsed.as_secs_f64();
    println!(
        "{calls} calls, at most {window} in flight, all answers checked: {:.1} ms, {per_sec:.0} calls/s",
        elapsed.as_secs_f64() * 1e3
    );
}
