//! Rondo and rmcp over the newline-delimited JSON-RPC transport, in memory (tokio duplex pipes),
//! driven by the same hand-written client (`rondo_bench::wire`). See `BENCHMARKS.md`.
//!
//! Every benchmark runs on a current-thread tokio runtime: client and server share one thread,
//! so a number is the CPU time of a round trip on both sides plus the scheduling between them,
//! with no cross-thread wake-ups to add noise. Before timing, each flow runs twice with every
//! line checked against the official schema of its revision (Rondo's `testing::Validator`):
//! a violation by the client or by Rondo fails the run; one by rmcp is printed.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use rmcp::ServiceExt;
use rondo_bench::wire::{Client, FORM_CAPS, Rev, pipes};
use rondo_bench::{rmcp_server, rondo_server};
use rondo_mcp::protocol::Revision;
use rondo_mcp::state::KeyRing;
use rondo_mcp::testing::Validator;
use std::hint::black_box;
use std::time::{Duration, Instant};
use tokio::io::DuplexStream;
use tokio::runtime::Runtime;

type PipeClient = Client<DuplexStream, DuplexStream>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fw {
    Rondo,
    Rmcp,
}

/// What one iteration does.
#[derive(Debug, Clone, Copy)]
enum Flow {
    /// One `add` round trip.
    Add,
    /// `n` `add` calls in flight at once.
    AddMany(usize),
    /// 2025-11-25: `tools/call`, `elicitation/create` answered, result.
    AskLegacy,
    /// 2026-07-28: the first round, answered with an `InputRequiredResult`.
    AskFirst,
    /// 2026-07-28: the retry carrying `inputResponses` and `requestState`, which completes.
    AskRetry,
}

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

fn label(fw: Fw, rev: Rev) -> String {
    let fw = match fw {
        Fw::Rondo => "rondo",
        Fw::Rmcp => "rmcp",
    };
    format!("{fw} {}", rev.version())
}

/// The tool that asks, per framework and revision (rmcp has one per revision).
fn asking_tool(fw: Fw, rev: Rev) -> &'static str {
    match (fw, rev) {
        (Fw::Rmcp, Rev::Modern) => "delete_file_mrtr",
        _ => "delete_file",
    }
}

/// A client connected to a fresh server of `fw` over in-memory pipes, schema-checked or not.
async fn connect(fw: Fw, rev: Rev, checked: bool) -> PipeClient {
    let (mut wire, r, w) = pipes();
    if checked {
        let revision = Revision::parse(rev.version()).expect("a revision Rondo serves");
        wire = wire.checked(Validator::new(revision));
    }
    match fw {
        Fw::Rondo => {
            tokio::spawn(rondo_server::server().serve_io(r, w));
        }
        Fw::Rmcp => {
            tokio::spawn(async move {
                if let Ok(running) = rmcp_server::Bench::new().serve((r, w)).await {
                    let _ = running.waiting().await;
                }
            });
        }
    }
    Client::connect(wire, rev, FORM_CAPS).await
}

/// Runs `flow` once; `extra` is the retry's params for `Flow::AskRetry`.
async fn run(c: &mut PipeClient, fw: Fw, flow: Flow, extra: &str) {
    let tool = asking_tool(fw, c.rev);
    match flow {
        Flow::Add => c.add().await,
        Flow::AddMany(n) => c.add_many(n).await,
        Flow::AskLegacy => c.ask_legacy(tool).await,
        Flow::AskFirst => {
            c.ask_first_round(tool).await;
        }
        Flow::AskRetry => c.ask_retry(tool, extra).await,
    }
}

/// Runs `flow` twice with every line schema-checked: fails on a violation by the client or by
/// Rondo, prints one by rmcp.
fn check(rt: &Runtime, fw: Fw, rev: Rev, flow: Flow) {
    rt.block_on(async {
        let mut c = connect(fw, rev, true).await;
        let extra = match flow {
            Flow::AskRetry => c.ask_first_round(asking_tool(fw, rev)).await.0,
            _ => String::new(),
        };
        for _ in 0..2 {
            run(&mut c, fw, flow, &extra).await;
        }
        assert!(c.wire.checked_lines() >= 4, "the lines were checked");
        let violations = c.wire.violations();
        let ours: Vec<_> = violations
            .iter()
            .filter(|v| fw == Fw::Rondo || v.starts_with("sent"))
            .collect();
        assert!(ours.is_empty(), "schema violations: {ours:#?}");
        for v in &violations {
            eprintln!("note: {} {flow:?}: {v}", label(fw, rev));
        }
    });
}

fn bench_flow(g: &mut BenchmarkGroup<'_, WallTime>, fw: Fw, rev: Rev, flow: Flow) {
    let rt = runtime();
    check(&rt, fw, rev, flow);
    let (mut c, extra) = rt.block_on(async {
        let mut c = connect(fw, rev, false).await;
        let extra = match flow {
            Flow::AskRetry => c.ask_first_round(asking_tool(fw, rev)).await.0,
            _ => String::new(),
        };
        (c, extra)
    });
    g.bench_function(label(fw, rev), |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    run(&mut c, fw, flow, &extra).await;
                }
                start.elapsed()
            })
        })
    });
}

fn tools_call(c: &mut Criterion) {
    let mut g = c.benchmark_group("tools_call/sequential");
    for rev in [Rev::Legacy, Rev::V2025_06_18, Rev::Modern] {
        for fw in [Fw::Rondo, Fw::Rmcp] {
            bench_flow(&mut g, fw, rev, Flow::Add);
        }
    }
    g.finish();

    let mut g = c.benchmark_group("tools_call/64_in_flight");
    g.throughput(Throughput::Elements(64));
    for rev in [Rev::Legacy, Rev::Modern] {
        for fw in [Fw::Rondo, Fw::Rmcp] {
            bench_flow(&mut g, fw, rev, Flow::AddMany(64));
        }
    }
    g.finish();
}

fn asking(c: &mut Criterion) {
    for (name, rev, flow) in [
        ("ask/2026-07-28_first_round", Rev::Modern, Flow::AskFirst),
        ("ask/2026-07-28_retry", Rev::Modern, Flow::AskRetry),
        ("ask/2025-11-25_elicitation", Rev::Legacy, Flow::AskLegacy),
    ] {
        let mut g = c.benchmark_group(name);
        for fw in [Fw::Rondo, Fw::Rmcp] {
            bench_flow(&mut g, fw, rev, flow);
        }
        g.finish();
    }
}

/// Sealing and opening a `requestState` alone. Rondo exposes the token layer publicly
/// (`KeyRing::seal`/`open`: XChaCha20-Poly1305 and base64url); the payload's serialisation and
/// binding checks (`StateCodec`) are internal, so they are measured only inside the retry above.
/// The plaintext is a real one: the payload of a state Rondo issued for `delete_file`. rmcp's
/// `RequestStateCodec` (HMAC-SHA256, authenticated, not encrypted) seals the same bytes.
fn request_state(c: &mut Criterion) {
    let rt = runtime();
    let ring = KeyRing::new(1, [7; 32]);
    let token = rt.block_on(async {
        let (wire, r, w) = pipes();
        tokio::spawn(rondo_server::server_with_keys(ring.clone()).serve_io(r, w));
        let mut c = Client::connect(wire, Rev::Modern, FORM_CAPS).await;
        c.ask_first_round("delete_file").await.1
    });
    let plain = ring
        .open(&token)
        .expect("the server sealed it with this ring");
    let codec = rmcp::model::RequestStateCodec::try_new(*b"rondo-bench-request-state-key-32")
        .expect("a 32-byte key");
    let bound = b"delete_file {\"path\":\"/tmp/report.txt\"}";
    let options = rmcp::model::SealOptions::new()
        .associated_data(bound)
        .ttl(Duration::from_secs(600));
    let rmcp_token = codec.seal_with(&plain, &options);

    let mut g = c.benchmark_group(format!("request_state/{}_byte_payload", plain.len()));
    g.bench_function("rondo seal", |b| {
        b.iter(|| ring.seal(black_box(&plain)).expect("sealed"))
    });
    g.bench_function("rondo open", |b| {
        b.iter(|| ring.open(black_box(&token)).expect("opened"))
    });
    g.bench_function("rmcp seal", |b| {
        b.iter(|| codec.seal_with(black_box(&plain), &options))
    });
    g.bench_function("rmcp open", |b| {
        b.iter(|| {
            codec
                .open_with(black_box(&rmcp_token), bound)
                .expect("opened")
        })
    });
    g.finish();
}

// Criterion's defaults (3 s warm-up, 5 s and 100 samples a benchmark): the whole run takes about
// three minutes on two cores.
criterion_group!(benches, tools_call, asking, request_state);
criterion_main!(benches);
