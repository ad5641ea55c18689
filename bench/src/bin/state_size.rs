//! `requestState` size as a function of what it carries: for 1, 4 and 16 questions asked in one
//! round and 0, 1 KiB and 32 KiB of memo, the bytes of the `requestState` each framework's
//! first round sends (Rondo: sealed, i.e. encrypted; rmcp: signed), and for Rondo the size of
//! the payload inside it. Every flow is then completed (the retry with every answer, checked)
//! with every line checked against the 2026-07-28 schema. Prints a Markdown table.
//!
//! `cargo run --release --manifest-path bench/Cargo.toml --bin state_size`

use rondo_bench::rounds::{PipeClient, connect_rmcp, connect_rondo, first_round, retry};
use rondo_bench::{rmcp_rounds, rondo_rounds};
use rondo_mcp::state::KeyRing;

const QUESTIONS: [u32; 3] = [1, 4, 16];
const MEMO_BYTES: [u32; 3] = [0, 1024, 32 * 1024];

/// The first round's `requestState` of `tool` on `c`, after the retry completed. A schema
/// violation by the client or by Rondo fails the run; one by rmcp is printed.
async fn measure(c: &mut PipeClient, tool: &str, questions: u32, memo: u32, ours: bool) -> String {
    let first = first_round(c, tool, questions, memo).await;
    retry(c, tool, questions, memo, &first).await;
    for v in c.wire.violations() {
        assert!(
            !ours && !v.starts_with("sent"),
            "{tool} {questions}/{memo}: {v}"
        );
        eprintln!("note: rmcp {tool} {questions}/{memo}: {v}");
    }
    first.state
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let ring = KeyRing::new(1, [7; 32]);
    println!(
        "| questions | memo | Rondo `requestState` | Rondo payload (plaintext) | rmcp `requestState` | Rondo / rmcp |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    for questions in QUESTIONS {
        for memo in MEMO_BYTES {
            let mut c = connect_rondo(rondo_rounds::server_with_keys(ring.clone()), true).await;
            let rondo = measure(&mut c, "confirm_steps", questions, memo, true).await;
            let plain = ring.open(&rondo).expect("sealed with this ring");
            let mut c = connect_rmcp(rmcp_rounds::Rounds::new(), true).await;
            let rmcp = measure(&mut c, "confirm_steps_mrtr", questions, memo, false).await;
            println!(
                "| {questions} | {memo} B | {} B | {} B | {} B | {:.2} |",
                rondo.len(),
                plain.len(),
                rmcp.len(),
                rondo.len() as f64 / rmcp.len() as f64
            );
        }
    }
}
