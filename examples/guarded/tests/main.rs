//! The three layers around the notebook, as a client meets them: in memory at both kinds of
//! revision, and the binary as a child process.

use governor::Quota;
use rondo_example_guarded::{Audit, AuditRecord, Outcome, Policy, REFUSED, RateLimit, router};
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::TestClient;
use serde_json::json;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

type Records = Arc<Mutex<Vec<AuditRecord>>>;

/// The layers as `main` stacks them, with the audit going to `records`.
fn guarded(user: Option<&str>, limit: &RateLimit, records: &Records) -> Server<Router> {
    let records = records.clone();
    let server = Server::new(router())
        .layer(Policy::new().only("purge_notes", ["ada"]))
        .layer(limit.clone())
        .layer(Audit::new(move |r| records.lock().unwrap().push(r)));
    match user {
        Some(u) => server.principal(Principal::new(u)),
        None => server,
    }
}

/// A client of `rev` of the server [`guarded`] makes.
async fn client(
    user: Option<&str>,
    limit: &RateLimit,
    records: &Records,
    rev: Revision,
) -> TestClient {
    TestClient::builder(guarded(user, limit, records), rev)
        .connect()
        .await
        .unwrap()
}

fn per_hour(n: u32) -> RateLimit {
    RateLimit::per_principal(Quota::per_hour(NonZeroU32::new(n).unwrap()))
}

fn outcomes(records: &Records) -> Vec<(Option<String>, String, Outcome)> {
    let records = records.lock().unwrap();
    let records = records.iter();
    records
        .map(|r| (r.principal.clone(), r.tool.clone(), r.outcome.clone()))
        .collect()
}

const REVISIONS: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];

#[tokio::test]
async fn every_tool_call_is_audited_with_its_principal_and_outcome() {
    for rev in REVISIONS {
        let records = Records::default();
        let c = client(Some("bob"), &per_hour(100), &records, rev).await;
        c.call_tool("write_note", json!({"title": "t", "text": "hi"}))
            .await
            .unwrap();
        assert!(
            c.call_tool("read_note", json!({"title": "nope"}))
                .await
                .unwrap()
                .is_error()
        );
        let e = c.call_tool("purge_notes", json!({})).await.unwrap_err();
        assert_eq!(e.code, REFUSED);
        let e = c.call_tool("no_such_tool", json!({})).await.unwrap_err();
        c.list_tools().await.unwrap();
        let bob = Some("bob".to_owned());
        assert_eq!(
            outcomes(&records),
            [
                (bob.clone(), "write_note".into(), Outcome::Ok),
                (bob.clone(), "read_note".into(), Outcome::ToolError),
                (
                    bob.clone(),
                    "purge_notes".into(),
                    Outcome::Error {
                        code: REFUSED,
                        message:
                            "policy: `purge_notes` is not allowed for bob; ask an administrator"
                                .into()
                    }
                ),
                (
                    bob,
                    "no_such_tool".into(),
                    Outcome::Error {
                        code: e.code,
                        message: e.message
                    }
                ),
            ],
            "at {rev}: only tool calls are audited, each once"
        );
        let first = &records.lock().unwrap()[0];
        assert_eq!(first.revision, rev.to_string());
        assert_eq!(first.client.as_deref(), Some("rondo-test-client"));
        c.assert_valid();
    }
}

#[tokio::test]
async fn the_policy_keeps_a_tool_for_its_principals_and_refuses_it_before_it_runs() {
    for rev in REVISIONS {
        let (limit, records) = (per_hour(100), Records::default());
        let bob = client(Some("bob"), &limit, &records, rev).await;
        bob.call_tool("write_note", json!({"title": "t", "text": "kept"}))
            .await
            .unwrap();
        let e = bob.call_tool("purge_notes", json!({})).await.unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str(), e.data),
            (
                REFUSED,
                "policy: `purge_notes` is not allowed for bob; ask an administrator",
                Some(json!({"refused": "policy", "tool": "purge_notes"}))
            )
        );
        // It never ran: the note is still there.
        let note = bob.call_tool("read_note", json!({"title": "t"})).await;
        assert_eq!(note.unwrap().text(), "kept (bob)");

        // Nor for a caller the server knows no name for.
        let anonymous = client(None, &limit, &records, rev).await;
        let e = anonymous
            .call_tool("purge_notes", json!({}))
            .await
            .unwrap_err();
        assert!(e.message.contains("a caller without a principal"), "{e:?}");

        // The principal it names may.
        let ada = client(Some("ada"), &limit, &records, rev).await;
        let done = ada.call_tool("purge_notes", json!({})).await.unwrap();
        assert_eq!(
            done.text(),
            "Deleted 0 notes.",
            "each server has its own notebook"
        );
    }
}

#[tokio::test]
async fn each_principal_has_its_own_rate_and_past_it_gets_a_clear_error() {
    for rev in REVISIONS {
        // One limit shared by two servers: a principal's bucket is the same on both.
        let (limit, records) = (per_hour(3), Records::default());
        let alice = client(Some("alice"), &limit, &records, rev).await;
        let alice_again = client(Some("alice"), &limit, &records, rev).await;
        let bob = client(Some("bob"), &limit, &records, rev).await;
        for i in 0..3 {
            let c = if i == 2 { &alice_again } else { &alice };
            c.call_tool("write_note", json!({"title": format!("n{i}"), "text": "x"}))
                .await
                .unwrap();
        }
        let e = alice
            .call_tool("write_note", json!({"title": "over", "text": "x"}))
            .await
            .unwrap_err();
        assert_eq!(e.code, REFUSED);
        assert!(
            e.message
                .starts_with("rate limit: alice has made too many requests; try again in "),
            "{e:?}"
        );
        let data = e.data.expect("the error says when to try again");
        assert_eq!(data["refused"], "rate_limit");
        let after = data["retryAfterMs"].as_u64().unwrap();
        // A quota of 3 per hour gives one call back every 20 minutes.
        assert!((1_190_000..=1_200_000).contains(&after), "{after}");
        // The refused call did not run; alice may still list, and bob still calls.
        let gone = alice.call_tool("read_note", json!({"title": "over"})).await;
        assert!(
            gone.is_err(),
            "a read is a call too: alice is over her rate"
        );
        assert_eq!(alice.list_tools().await.unwrap().len(), 3);
        let fine = bob
            .call_tool("read_note", json!({"title": "over"}))
            .await
            .unwrap();
        assert_eq!(fine.text(), "No note titled \"over\".");
    }
}

#[tokio::test]
async fn the_binary_audits_to_stderr_and_applies_its_environment() {
    let log = std::env::temp_dir().join(format!("guarded-{}.stderr", std::process::id()));
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_guarded"));
    cmd.env("GUARDED_USER", "bob")
        .env("GUARDED_ADMINS", "ada")
        .env("GUARDED_PER_MINUTE", "2")
        .env("RUST_LOG", "warn")
        .stderr(std::fs::File::create(&log).unwrap());
    let c = TestClient::spawn(Revision::V2026_07_28, &mut cmd)
        .unwrap()
        .connect()
        .await
        .unwrap();
    c.call_tool("write_note", json!({"title": "t", "text": "hi"}))
        .await
        .unwrap();
    let e = c.call_tool("purge_notes", json!({})).await.unwrap_err();
    assert!(e.message.starts_with("policy: "), "{e:?}");
    let e = c
        .call_tool("read_note", json!({"title": "t"}))
        .await
        .unwrap_err();
    assert!(e.message.starts_with("rate limit: bob "), "{e:?}");
    c.close().await.unwrap();
    let stderr = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    let audit: Vec<serde_json::Value> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("audit "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let seen: Vec<_> = audit
        .iter()
        .map(|r| {
            (
                r["principal"].as_str(),
                r["tool"].as_str(),
                r["outcome"]["kind"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (Some("bob"), Some("write_note"), Some("ok")),
            (Some("bob"), Some("purge_notes"), Some("error")),
            (Some("bob"), Some("read_note"), Some("error")),
        ],
        "{stderr}"
    );
}
