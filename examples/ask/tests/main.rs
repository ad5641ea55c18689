//! The `ask` binary as a host runs it, over its stdin and stdout, at 2026-07-28 and
//! 2025-11-25: a client that shows the form (the user answers, or says no) and one that
//! cannot (the fallback signs "anonymous"). Every message is checked against the official
//! schema of its revision.

use rondo_mcp::protocol::{ClientCapabilities, Revision};
use rondo_mcp::testing::{Reply, Script, TestClient};
use serde_json::json;
use tokio::process::Command;

const BOTH: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];

/// A client of `revision` declaring `caps` and answering with `script`; with `echo`, every
/// line it sends and gets is printed (`cargo test -p rondo-example-ask -- --nocapture`).
async fn client(revision: Revision, caps: ClientCapabilities, script: Script) -> TestClient {
    let mut ask = Command::new(env!("CARGO_BIN_EXE_ask"));
    TestClient::spawn(revision, ask.env("RUST_LOG", "warn"))
        .expect("the binary starts")
        .capabilities(caps)
        .script(script)
        .echo(|frame| println!("{frame:.160}"))
        .connect()
        .await
        .expect("it answers")
}

#[tokio::test]
async fn the_user_names_the_signer_at_both_revisions() {
    for revision in BOTH {
        println!("--- {revision}, a client that shows forms; the user answers Ada");
        let script = Script::new().elicit(Reply::accept(json!({"name": "Ada"})));
        let forms = ClientCapabilities::with_elicitation_form();
        let client = client(revision, forms, script).await;
        let call = client
            .call_tool("sign", json!({"message": "Hello!"}))
            .await
            .unwrap();
        assert_eq!(call.text(), "Ada signed: Hello!", "{revision}");
        // 2026-07-28: two calls (the question, then the retry with the answer).
        // 2025-11-25: one call, and an elicitation/create request in between.
        let expected_rounds = if revision == Revision::V2026_07_28 {
            2
        } else {
            1
        };
        assert_eq!(call.rounds, expected_rounds, "{revision}");
        client
            .close()
            .await
            .expect("exits with 0 when stdin closes");
    }
}

#[tokio::test]
async fn a_user_who_says_no_signs_nothing() {
    for revision in BOTH {
        let forms = ClientCapabilities::with_elicitation_form();
        let client = client(revision, forms, Script::new().elicit(Reply::Decline)).await;
        let call = client
            .call_tool("sign", json!({"message": "Hi"}))
            .await
            .unwrap();
        assert_eq!(call.text(), "Not signed: the user said no.", "{revision}");
        client.close().await.unwrap();
    }
}

#[tokio::test]
async fn a_client_without_forms_gets_the_fallback() {
    for revision in BOTH {
        println!("--- {revision}, a client that declares nothing: the fallback answers");
        let none = ClientCapabilities::default();
        let client = client(revision, none, Script::new()).await;
        let call = client
            .call_tool("sign", json!({"message": "Hello!"}))
            .await
            .unwrap();
        assert_eq!(call.text(), "anonymous signed: Hello!", "{revision}");
        assert_eq!(call.rounds, 1, "{revision}: nothing was asked");
        client.close().await.unwrap();
    }
}

#[test]
fn help_explains_the_server() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ask"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(
        help.contains("guestbook") && help.contains("--http <ADDR>"),
        "{help}"
    );
}
