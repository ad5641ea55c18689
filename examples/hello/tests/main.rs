//! The `hello` binary as a host runs it: over its stdin and stdout, at 2026-07-28 and
//! 2025-11-25, every message checked against the official schema of its revision.

use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::TestClient;
use serde_json::json;
use tokio::process::Command;

const BOTH: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];

async fn client(revision: Revision) -> TestClient {
    let mut hello = Command::new(env!("CARGO_BIN_EXE_hello"));
    TestClient::spawn(revision, hello.env("RUST_LOG", "warn"))
        .expect("the binary starts")
        .connect()
        .await
        .expect("it answers")
}

#[tokio::test]
async fn both_tools_answer_at_both_revisions() {
    for revision in BOTH {
        let client = client(revision).await;
        let names: Vec<_> = client.list_tools().await.unwrap();
        let names: Vec<_> = names.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["add", "forecast"], "{revision}");

        let sum = client
            .call_tool("add", json!({"a": 2, "b": 3}))
            .await
            .unwrap();
        assert_eq!(sum.text(), "5", "{revision}");

        let call = client
            .call_tool("forecast", json!({"city": "Lyon"}))
            .await
            .unwrap();
        let forecast = &call.result["structuredContent"];
        assert_eq!(
            forecast,
            &json!({"city": "Lyon", "celsius": 21.5}),
            "{revision}"
        );
        client
            .close()
            .await
            .expect("exits with 0 when stdin closes");
    }
}

#[tokio::test]
async fn an_empty_city_is_an_error_the_model_reads() {
    for revision in BOTH {
        let client = client(revision).await;
        let call = client
            .call_tool("forecast", json!({"city": ""}))
            .await
            .unwrap();
        assert!(call.is_error(), "{revision}");
        assert_eq!(call.text(), "name a city", "{revision}");
        client.close().await.unwrap();
    }
}

#[test]
fn help_names_the_http_flag() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hello"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("--http <ADDR>"), "{help}");
}
