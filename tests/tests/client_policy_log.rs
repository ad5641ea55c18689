//! The debug line of a client policy rule that fires, naming the client and the rule. Its own
//! test binary: `tracing` caches per call site whether anyone listens, process-wide, so a
//! thread-local subscriber in a binary whose other tests run at the same time misses lines now
//! and then.

use rondo_mcp::ClientPolicy;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Implementation, Revision};
use rondo_mcp::testing::{Script, TestClient};
use rondo_tests::logs::Captured;
use rondo_tests::questions::{self, Payments};
use serde_json::json;

fn policy() -> ClientPolicy {
    ClientPolicy::from_json(
        r#"{"rules": [{"client": "Some Host", "versions": "<1.4", "remove": ["elicitation.form"]}]}"#,
    )
    .expect("a valid policy")
}

#[tokio::test]
async fn a_matching_rule_is_logged_at_debug_with_the_client_and_the_rule() {
    let logs = Captured::default();
    let subscriber = logs.subscriber(tracing::Level::DEBUG);
    // `#[tokio::test]` runs the server's tasks on this thread, so they log here.
    let _default = tracing::subscriber::set_default(subscriber);
    let form = ClientCapabilities::with_elicitation_form();
    let server = questions::server(Payments::default()).client_policy(policy());
    let c = TestClient::builder(server, Revision::V2026_07_28)
        .client_info(Implementation::new("Some Host", "1.3.0"))
        .capabilities(form)
        .script(Script::new())
        .connect()
        .await
        .expect("connects");
    let call = c
        .call_tool("welcome", json!({"greeting": "Hi", "name": "Ada"}))
        .await
        .unwrap();
    assert_eq!(call.text(), "Hi, Ada!");
    let logs = logs.text();
    let line = logs
        .lines()
        .find(|l| l.contains("client policy: a rule matches this client"))
        .unwrap_or_else(|| panic!("no policy line: {logs}"));
    for part in [
        "DEBUG",
        r#"client="Some Host""#,
        r#"version="1.3.0""#,
        "rule=0",
        r#"pattern="Some Host""#,
        "removed=elicitation, elicitation.form",
    ] {
        assert!(line.contains(part), "{part} missing from: {line}");
    }
    assert!(
        logs.lines().any(
            |l| l.contains("taking the fallback: the client policy removed")
                && l.contains("question=\"guest\"")
        ),
        "the fallback says why: {logs}"
    );
}
