//! Renderings are deterministic: the first round of the same call, served by two separate
//! processes (a fresh hash seed, a fresh key ring, a different address space each), writes
//! byte-identical `InputRequiredResult` lines apart from the sealed `requestState`. An answer
//! given to one instance of a fleet must match the question another instance renders.

use rondo_mcp::prelude::*;
use rondo_mcp::testing::{Direction, TestClient};
use rondo_tests::questions::{Payments, server};
use serde_json::{Value, json};
use std::process::Command;

const CHILD: &str = "RONDO_DETERMINISM_CHILD";
const MARK: &str = "FIRST-ROUND:";

/// In the child process: serves the first round of `buy` and `nickname_pair` and prints the
/// lines the server wrote, with the random `requestState` replaced.
async fn child() {
    let c = TestClient::modern(server(Payments::default()))
        .capabilities(ClientCapabilities::with_elicitation_form())
        .connect()
        .await
        .unwrap();
    for (name, args) in [
        ("buy", json!({"item": "tea", "quantity": 3})),
        ("nickname_pair", json!({"first": "Ada", "second": "Grace"})),
    ] {
        let r = c
            .request("tools/call", json!({"name": name, "arguments": args}))
            .await
            .unwrap();
        assert_eq!(r["resultType"], "input_required");
    }
    for frame in c.transcript() {
        if frame.direction == Direction::Received {
            let parsed: Value = serde_json::from_str(&frame.line).unwrap();
            let state = parsed["result"]["requestState"].as_str().unwrap();
            println!("{MARK}{}", frame.line.replace(state, "<state>"));
        }
    }
}

/// The marked lines a child printed.
fn first_rounds() -> Vec<String> {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            concat!(
                module_path!(),
                "::the_first_round_is_byte_identical_in_two_processes"
            )
            .split_once("::")
            .map_or("", |(_, name)| name),
            "--nocapture",
        ])
        .env(CHILD, "1")
        .output()
        .expect("the child runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix(MARK).map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn the_first_round_is_byte_identical_in_two_processes() {
    if std::env::var_os(CHILD).is_some() {
        return child().await;
    }
    let (a, b) = (first_rounds(), first_rounds());
    assert_eq!(a.len(), 2, "{a:?}");
    assert!(a[0].contains("\"inputRequests\""), "{}", a[0]);
    assert_eq!(
        a, b,
        "the same first round rendered differently in two processes"
    );
}

static RENDERED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A yes/no, for the restless question.
#[derive(Debug, rondo_mcp::Elicit)]
struct Again {
    again: Option<bool>,
}

/// A question that reads something besides its inputs (a counter): it renders differently
/// each time.
#[rondo_mcp::elicit(form, fallback = refuse)]
fn restless() -> rondo_mcp::Form<Again> {
    let n = RENDERED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    rondo_mcp::Form::new(format!("Asked {n} times"))
}

/// Asks the restless question.
#[rondo_mcp::tool(asks = [restless])]
async fn ask_restless(cx: &Cx) -> String {
    let again = cx.ask(restless()).await.ok().and_then(|a| a.again);
    format!("{again:?}")
}

/// Debug builds render every question twice and compare: a rendering that is not a function
/// of its inputs fails at once, naming the question, instead of making answers miss it later.
#[cfg(debug_assertions)]
#[tokio::test]
async fn a_rendering_that_is_not_a_function_of_its_inputs_fails_in_debug_builds() {
    let router =
        Router::new(ServerInfo::new("restless", "1")).tools(rondo_mcp::tools![ask_restless]);
    let c = TestClient::modern(Server::new(router))
        .capabilities(ClientCapabilities::with_elicitation_form())
        .connect()
        .await
        .unwrap();
    let call = c.call_tool("ask_restless", json!({})).await.unwrap();
    assert!(call.is_error());
    assert_eq!(
        call.text(),
        "Tool `ask_restless` failed with an internal error"
    );
    assert_eq!(
        RENDERED.load(std::sync::atomic::Ordering::SeqCst),
        2,
        "rendered twice, then stopped"
    );
}
