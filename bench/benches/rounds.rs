//! Multi-round round trips and the cost of many tools, in memory, at 2026-07-28. Same setting as
//! `benches/mcp.rs`: client (`rondo_bench::wire`) and server on one current-thread runtime over
//! tokio duplex pipes, so a number is the CPU work of the exchange on both sides.
//!
//! - `rounds/<q>_questions`: one iteration is a whole flow, timed together: the first
//!   `tools/call` to the `InputRequiredResult` (its `inputRequests` keys and `requestState`
//!   read), then the retry answering every question with the state, to the final result
//!   (checked: every answer counted, the memo back byte for byte). `q` questions in one round,
//!   0, 1 KiB or 32 KiB of memo carried. Rondo: `confirm_steps` (`cx.ask` in `join_all`,
//!   `cx.memo`), its state encrypted, the replay guard on as by default (each iteration is a
//!   fresh flow, so nothing is replayed and the guard's entry per retry is in the number);
//!   rmcp: `confirm_steps_mrtr`, built by hand, its state signed (`rondo_bench::rmcp_rounds`).
//! - `tools/call_add` and `tools/list_whole`: a Rondo router holding 1, 100 or 1,000 tools
//!   (`rondo_bench::many_tools`); one sequential `add` call, or the whole `tools/list`.
//!
//! Before timing, each flow runs once with every line checked against the 2026-07-28 schema: a
//! violation by the client or by Rondo fails the run; one by rmcp is printed.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, criterion_group, criterion_main};
use rondo_bench::many_tools;
use rondo_bench::rounds::{PipeClient, connect_rmcp, connect_rondo, round_trip};
use rondo_bench::{rmcp_rounds, rondo_rounds};
use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};
use tokio::runtime::Runtime;

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fw {
    Rondo,
    Rmcp,
}

impl Fw {
    fn name(self) -> &'static str {
        match self {
            Fw::Rondo => "rondo",
            Fw::Rmcp => "rmcp",
        }
    }

    fn tool(self) -> &'static str {
        match self {
            Fw::Rondo => "confirm_steps",
            Fw::Rmcp => "confirm_steps_mrtr",
        }
    }

    async fn connect(self, checked: bool) -> PipeClient {
        match self {
            Fw::Rondo => connect_rondo(rondo_rounds::server(), checked).await,
            Fw::Rmcp => connect_rmcp(rmcp_rounds::Rounds::new(), checked).await,
        }
    }
}

/// Fails on a schema violation by the client, or by the server when `ours`; prints others.
fn report(c: &mut PipeClient, what: &str, ours: bool) {
    assert!(
        c.wire.checked_lines() >= 2,
        "{what}: the lines were checked"
    );
    for v in c.wire.violations() {
        assert!(!ours && !v.starts_with("sent"), "{what}: {v}");
        eprintln!("note: {what}: {v}");
    }
}

const QUESTIONS: [u32; 3] = [1, 4, 16];
const MEMO_BYTES: [u32; 3] = [0, 1024, 32 * 1024];

fn memo_label(bytes: u32) -> String {
    match bytes {
        0 => "no memo".to_owned(),
        b => format!("{} KiB memo", b / 1024),
    }
}

/// Times `iters` runs of `flow` on a client of a fresh server: a new server per sample, so
/// Rondo's replay guard (65,536 entries, each kept for the state's lifetime) never fills over
/// a long run. The connection is made, and `flow` run once (the server task's first poll, its
/// start, and the previous sample's server winding down all happen then), before the clock
/// starts.
fn timed<C, F>(rt: &Runtime, iters: u64, connect: C, flow: F) -> Duration
where
    C: Future<Output = PipeClient>,
    F: for<'c> Fn(&'c mut PipeClient) -> Pin<Box<dyn Future<Output = ()> + 'c>>,
{
    rt.block_on(async {
        let mut c = connect.await;
        flow(&mut c).await;
        let start = Instant::now();
        for _ in 0..iters {
            flow(&mut c).await;
        }
        start.elapsed()
    })
}

fn bench_round_trip(
    g: &mut BenchmarkGroup<'_, WallTime>,
    rt: &Runtime,
    fw: Fw,
    questions: u32,
    memo: u32,
) {
    let id = format!("{} {}", fw.name(), memo_label(memo));
    rt.block_on(async {
        let mut c = fw.connect(true).await;
        round_trip(&mut c, fw.tool(), questions, memo).await;
        report(
            &mut c,
            &format!("{id}, {questions} questions"),
            fw == Fw::Rondo,
        );
    });
    g.bench_function(id, |b| {
        b.iter_custom(|iters| {
            timed(rt, iters, fw.connect(false), |c| {
                Box::pin(round_trip(c, fw.tool(), questions, memo))
            })
        })
    });
}

fn rounds(c: &mut Criterion) {
    let rt = runtime();
    for questions in QUESTIONS {
        let mut g = c.benchmark_group(format!("rounds/{questions}_questions"));
        for memo in MEMO_BYTES {
            for fw in [Fw::Rondo, Fw::Rmcp] {
                bench_round_trip(&mut g, &rt, fw, questions, memo);
            }
        }
        g.finish();
    }
}

/// The tool counts of the `tools/*` groups.
const TOOL_COUNTS: [usize; 3] = [1, 100, 1000];

/// The `tools/list` page sizes benchmarked: `None` is the whole list in one page; with a size,
/// an iteration lists every page (following `nextCursor`).
const PAGE_SIZES: [Option<usize>; 2] = [None, Some(50)];

/// The page size of the `tools/list_first_page` group: one request, the first page.
const FIRST_PAGE: usize = 50;

fn list_group(page_size: Option<usize>) -> String {
    match page_size {
        None => "tools/list_whole".to_owned(),
        Some(p) => format!("tools/list_paged_{p}"),
    }
}

fn tools(c: &mut Criterion) {
    let rt = runtime();
    let connect = |n: usize, page_size: Option<usize>, checked: bool| {
        connect_rondo(many_tools::server(n, page_size), checked)
    };

    let mut g = c.benchmark_group("tools/call_add");
    for n in TOOL_COUNTS {
        rt.block_on(async {
            let mut c = connect(n, None, true).await;
            c.add().await;
            report(&mut c, &format!("add among {n} tools"), true);
        });
        g.bench_with_input(BenchmarkId::new("rondo", n), &n, |b, &n| {
            b.iter_custom(|iters| timed(&rt, iters, connect(n, None, false), |c| Box::pin(c.add())))
        });
    }
    g.finish();

    for page_size in PAGE_SIZES {
        let mut g = c.benchmark_group(list_group(page_size));
        for n in TOOL_COUNTS {
            rt.block_on(async {
                let mut c = connect(n, page_size, true).await;
                let pages = many_tools::list_all(&mut c, n).await;
                assert!(page_size.is_some() || pages == 1, "one page when unpaged");
                report(&mut c, &format!("tools/list of {n} tools"), true);
            });
            g.bench_with_input(BenchmarkId::new("rondo", n), &n, |b, &n| {
                b.iter_custom(|iters| {
                    timed(&rt, iters, connect(n, page_size, false), |c| {
                        Box::pin(async move {
                            many_tools::list_all(c, n).await;
                        })
                    })
                })
            });
        }
        g.finish();
    }

    let mut g = c.benchmark_group(format!("tools/list_first_page_{FIRST_PAGE}"));
    for n in TOOL_COUNTS {
        rt.block_on(async {
            let mut c = connect(n, Some(FIRST_PAGE), true).await;
            many_tools::list_first_page(&mut c, n, FIRST_PAGE).await;
            report(&mut c, &format!("first page of {n} tools"), true);
        });
        g.bench_with_input(BenchmarkId::new("rondo", n), &n, |b, &n| {
            b.iter_custom(|iters| {
                timed(&rt, iters, connect(n, Some(FIRST_PAGE), false), |c| {
                    Box::pin(many_tools::list_first_page(c, n, FIRST_PAGE))
                })
            })
        });
    }
    g.finish();
}

// Criterion's defaults (3 s warm-up, 5 s and 100 samples a benchmark) everywhere.
criterion_group!(benches, rounds, tools);
criterion_main!(benches);
