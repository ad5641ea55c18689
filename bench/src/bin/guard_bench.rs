//! The replay guard's cost per round, in memory against shared on Redis (loopback):
//!
//! ```text
//! taskset -c 0 guard_bench [--runs 5] [--seconds 5] [--conns 1,32] [--server-cpu 1]
//!                          [--redis-cpu 0] [--baseline PATH [--baseline-name NAME]]
//! ```
//!
//! Starts two `redis-server`s on 127.0.0.1 (one writing every write to its append-only file and
//! fsyncing it before answering, as `deploy/kubernetes/redis.yaml` runs it; one keeping nothing
//! on disk) and three `rondo_guarded` servers (next to this binary): its state in memory, on
//! the fsyncing Redis, on the other. Each is driven with two-round 2026-07-28 flows from C
//! clients, one keep-alive connection each, for SECONDS per run: `delete_file` (the final
//! round taken once through the guard: one Redis command, `SET NX PXAT`) and `delete_once`
//! (the same, the deletion done through `Cx::once`: two more, the ledger's claim and record).
//! The first round of a flow carries no state, so it touches no guard. For each C and flow,
//! RUNS repetitions with the three servers interleaved, each run on a server started for it;
//! every answer is checked, and any failure makes the run exit non-zero.
//!
//! With `--baseline PATH`, a `rondo_guarded` built from another commit (NAME, default
//! "baseline") is driven too, interleaved with this one, on the same two Redis: an A/B of a
//! change to the guard or the ledger (`bench/fleet.sh` builds one with `BASELINE=COMMIT`).
//!
//! Output: Markdown tables of flows/s and of each flow's median time (both rounds), median
//! [min–max] of the runs, and what Redis adds per flow.

use rondo_bench::flows::{self, Flow, Persistence, Proc, drive, free_addr, wait_listening};
use rondo_bench::stats::{Spread, pinned, sibling};
use serde_json::json;
use std::process::Stdio;

const USAGE: &str = "usage: guard_bench [--runs N] [--seconds S] [--conns 1,32] \
                     [--server-cpu CPU] [--redis-cpu CPU] [--baseline PATH [--baseline-name NAME]]";

fn path(n: u64) -> String {
    format!("/tmp/guard-{n}")
}

fn flow(tool: &'static str) -> Flow {
    Flow {
        tool,
        key: "confirm_delete",
        args: |n| json!({"path": path(n)}),
        question: |n| format!("Delete {}?", path(n)),
        response: |_| json!({"action": "accept", "content": {"confirm": true}}),
        done: |n| format!("deleted {}", path(n)),
    }
}

fn main() {
    let (mut runs, mut seconds, mut conns) = (5usize, 5.0f64, vec![1usize, 32]);
    let (mut server_cpu, mut redis_cpu) = (None, None);
    let (mut baseline, mut baseline_name) = (None, "baseline".to_owned());
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{USAGE}"));
        match flag.as_str() {
            "--runs" => runs = value.parse().expect(USAGE),
            "--seconds" => seconds = value.parse().expect(USAGE),
            "--conns" => conns = value.split(',').map(|c| c.parse().expect(USAGE)).collect(),
            "--server-cpu" => server_cpu = Some(value),
            "--redis-cpu" => redis_cpu = Some(value),
            "--baseline" => baseline = Some(value),
            "--baseline-name" => baseline_name = value,
            _ => panic!("{USAGE}"),
        }
    }
    let dir = std::env::temp_dir().join(format!("rondo-guard-bench-{}", std::process::id()));
    let (fsync_redis, fsync_url) =
        flows::redis(&dir.join("fsync"), Persistence::Fsync, redis_cpu.as_deref());
    let (plain_redis, plain_url) =
        flows::redis(&dir.join("plain"), Persistence::None, redis_cpu.as_deref());
    let program = sibling("rondo_guarded");
    let mut kinds: Vec<(String, &str, Option<&str>)> = vec![
        ("memory".into(), &program, None),
        (
            "Redis, fsync always".into(),
            &program,
            Some(fsync_url.as_str()),
        ),
        (
            "Redis, no persistence".into(),
            &program,
            Some(plain_url.as_str()),
        ),
    ];
    if let Some(old) = &baseline {
        kinds.extend([
            (format!("{baseline_name}: memory"), old.as_str(), None),
            (
                format!("{baseline_name}: Redis, fsync always"),
                old.as_str(),
                Some(fsync_url.as_str()),
            ),
            (
                format!("{baseline_name}: Redis, no persistence"),
                old.as_str(),
                Some(plain_url.as_str()),
            ),
        ]);
    }
    // A fresh server for each run: the memory guard remembers at most 65,536 rounds for the
    // state lifetime (10 minutes), which a few runs at this rate fill.
    let start = |program: &str, url: Option<&str>| {
        let addr = free_addr();
        let a = addr.to_string();
        let mut args = vec![a.as_str()];
        args.extend(url);
        let mut child = pinned(server_cpu.as_deref(), program, &args)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start {program}: {e}"));
        wait_listening(addr, &mut child, program);
        (Proc(child), addr)
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let mut failed = false;
    println!(
        "{runs} runs of {seconds} s per cell, servers interleaved; `rondo_guarded` on CPU {}, \
         Redis on CPU {}, this driver where it was started",
        server_cpu.as_deref().unwrap_or("any"),
        redis_cpu.as_deref().unwrap_or("any")
    );
    for tool in ["delete_file", "delete_once"] {
        println!();
        println!("### `{tool}`");
        println!();
        let names: Vec<&str> = kinds.iter().map(|k| k.0.as_str()).collect();
        println!(
            "| clients | {} | {} |",
            names
                .iter()
                .map(|n| format!("{n} flows/s"))
                .collect::<Vec<_>>()
                .join(" | "),
            names
                .iter()
                .map(|n| format!("{n} ms/flow (p50)"))
                .collect::<Vec<_>>()
                .join(" | ")
        );
        println!("|---|{}", "---|".repeat(2 * names.len()));
        for &c in &conns {
            let mut rate = vec![Vec::new(); kinds.len()];
            let mut p50 = vec![Vec::new(); kinds.len()];
            for r in 0..runs {
                for (i, (name, program, url)) in kinds.iter().enumerate() {
                    let (server, addr) = start(program, *url);
                    let base = ((r * kinds.len() + i) as u64) << 40;
                    let (mut t, took) = rt.block_on(drive(addr, flow(tool), c, seconds, base));
                    drop(server);
                    if t.errors > 0 {
                        failed = true;
                        eprintln!(
                            "{name} {tool} {c}: {} errors, e.g. {:?}",
                            t.errors, t.first_errors
                        );
                    }
                    rate[i].push(t.flows as f64 / took.as_secs_f64());
                    p50[i].push(t.ms(0.5));
                }
            }
            let cells = |v: &[Vec<f64>], f: fn(&Spread) -> String| {
                v.iter()
                    .map(|x| f(&Spread::of(x)))
                    .collect::<Vec<_>>()
                    .join(" | ")
            };
            println!(
                "| {c} | {} | {} |",
                cells(&rate, Spread::cell),
                cells(&p50, |s| format!(
                    "{:.3} [{:.3}–{:.3}]",
                    s.median, s.min, s.max
                ))
            );
            let median = |v: &[f64]| Spread::of(v).median;
            eprintln!(
                "{tool}, {c} clients: Redis (fsync) adds {:.0} µs per flow at the median, Redis \
                 without persistence {:.0} µs",
                (median(&p50[1]) - median(&p50[0])) * 1000.0,
                (median(&p50[2]) - median(&p50[0])) * 1000.0
            );
            if kinds.len() == 6 {
                eprintln!(
                    "{tool}, {c} clients: against {baseline_name}, per flow at the median: memory \
                     {:+.0} µs, Redis (fsync) {:+.0} µs, Redis without persistence {:+.0} µs",
                    (median(&p50[0]) - median(&p50[3])) * 1000.0,
                    (median(&p50[1]) - median(&p50[4])) * 1000.0,
                    (median(&p50[2]) - median(&p50[5])) * 1000.0
                );
            }
        }
    }
    // `exit` runs no destructor: the two Redis go first.
    drop((fsync_redis, plain_redis));
    let _ = std::fs::remove_dir_all(&dir);
    if failed {
        std::process::exit(1);
    }
}
