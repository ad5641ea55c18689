//! Question flows as an attacker or a careless client would answer them (issue 12), at both
//! revisions: integers a form field cannot hold exactly, sampling replies without text, a
//! rejection under `fallback = refuse`, the 2025-11-25 form error's wording, and a re-asked
//! question that says why. The wire-level attacks are in `wire_attacks.rs`.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Revision, code};
use rondo_mcp::testing::{Reply, Script, TestClient};
use rondo_tests::attacks::{server, shop};
use serde_json::{Value, json};

const BOTH: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];

fn conformance() -> Server<Router> {
    Server::new(rondo_example_conformance::router())
}

/// Elicitation (form), sampling and roots.
fn everything() -> ClientCapabilities {
    ClientCapabilities {
        sampling: ClientCapabilities::with_sampling().sampling,
        roots: ClientCapabilities::with_roots().roots,
        ..ClientCapabilities::with_elicitation_form()
    }
}

async fn client(
    server: Server<Router>,
    rev: Revision,
    caps: ClientCapabilities,
    script: Script,
) -> TestClient {
    TestClient::builder(server, rev)
        .capabilities(caps)
        .script(script)
        .connect()
        .await
        .expect("connects")
}

/// Numbers a client may send for a 64-bit field that the field cannot hold exactly: past
/// `i64::MAX` as a float (Python's `json.dumps(float(2**63))`), below `i64::MIN` (read as the
/// float -2^63), a fraction.
fn bad_signed() -> Vec<Value> {
    let wire = |t: &str| serde_json::from_str::<Value>(t).unwrap();
    vec![
        wire("9223372036854775808.0"),
        wire("9.223372036854775807e18"),
        wire("-9223372036854775809"),
        wire("12.5"),
    ]
}

#[tokio::test]
async fn a_64_bit_field_never_wraps_it_is_asked_again_or_named() {
    let wire = |t: &str| serde_json::from_str::<Value>(t).unwrap();
    let mut cases: Vec<(Value, &str)> = bad_signed()
        .into_iter()
        .map(|v| (json!({"signed": v}), "signed"))
        .collect();
    // What a JavaScript client sends for `u64::MAX`, and 2^64 written out.
    for t in ["18446744073709552000", "18446744073709551616"] {
        cases.push((json!({"signed": 1, "unsigned": wire(t)}), "unsigned"));
    }
    for (content, field) in cases {
        // 2026-07-28: asked again, then a good answer is taken.
        let script = Script::new()
            .elicit(Reply::accept(content.clone()))
            .elicit(Reply::accept(
                json!({"signed": -9007199254740991i64, "unsigned": u64::MAX}),
            ));
        let c = client(
            server(),
            Revision::V2026_07_28,
            ClientCapabilities::with_elicitation_form(),
            script,
        )
        .await;
        let call = c.call_tool("read_counts", json!({})).await.unwrap();
        assert_eq!(call.rounds, 3, "{content}: asked, asked again, answered");
        assert_eq!(
            call.text(),
            format!("signed=-9007199254740991 unsigned=Some({})", u64::MAX),
            "{content}"
        );
        // 2025-11-25: the failure names the field.
        let script = Script::new().elicit(Reply::accept(content.clone()));
        let c = client(
            server(),
            Revision::V2025_11_25,
            ClientCapabilities::with_elicitation_form(),
            script,
        )
        .await;
        let call = c.call_tool("read_counts", json!({})).await.unwrap();
        assert!(call.is_error(), "{content}: {}", call.text());
        assert!(
            call.text().contains(&format!("`{field}` must be")),
            "{content}: {}",
            call.text()
        );
    }
}

#[tokio::test]
async fn the_conformance_defaults_form_does_not_take_two_to_the_63() {
    for rev in BOTH {
        for age in bad_signed() {
            let script = Script::new().elicit(Reply::accept(json!({"age": age})));
            let c = client(
                conformance(),
                rev,
                ClientCapabilities::with_elicitation_form(),
                script,
            )
            .await;
            let call = c
                .call_tool("test_elicitation_sep1034_defaults", json!({}))
                .await
                .unwrap();
            let text = call.text();
            assert!(
                !text.contains("-9223372036854775808"),
                "{rev} {age}: {text}"
            );
            if rev.is_modern() {
                // Asked again; the script has no second answer, so the client stops there.
                assert!(call.input_required(), "{rev} {age}: {text}");
            } else {
                assert!(
                    call.is_error() && text.contains("`age` must be"),
                    "{age}: {text}"
                );
            }
        }
    }
}

#[tokio::test]
async fn the_2025_form_error_says_it_once() {
    let script = Script::new().elicit(Reply::accept(json!({"signed": "many"})));
    let c = client(
        server(),
        Revision::V2025_11_25,
        ClientCapabilities::with_elicitation_form(),
        script,
    )
    .await;
    let call = c.call_tool("read_counts", json!({})).await.unwrap();
    assert_eq!(
        call.text(),
        "Could not ask `counts`: the answer does not fit the form: `signed` must be an integer, \
         not a string"
    );
}

/// Sampling replies that carry no text, each with the schema definition it breaks, if any.
fn textless_replies() -> Vec<(Value, bool)> {
    let reply = |content: Value| json!({"role": "assistant", "content": content, "model": "m", "stopReason": "endTurn"});
    vec![
        (
            reply(json!({"type": "image", "data": "AAAA", "mimeType": "image/png"})),
            true,
        ),
        (
            reply(json!({"type": "audio", "data": "AAAA", "mimeType": "audio/wav"})),
            true,
        ),
        (
            reply(json!({"type": "tool_use", "id": "t1", "name": "search", "input": {}})),
            true,
        ),
        (reply(json!([])), true),
        (reply(Value::Null), false),
        (reply(json!({"type": "text", "text": 5})), false),
        (
            reply(json!([{"type": "text", "text": "Hi"}, {"type": "text", "text": 5}])),
            false,
        ),
    ]
}

/// A client for `rev` that answers sampling with `reply`, skipping the schema check of the
/// message that carries it when the reply breaks the schema on purpose.
async fn sampling_client(
    server: Server<Router>,
    rev: Revision,
    caps: ClientCapabilities,
    reply: Value,
    valid: bool,
) -> TestClient {
    let mut b = TestClient::builder(server, rev).capabilities(caps).script(
        Script::new()
            .sample(Reply::Raw(reply))
            .elicit(Reply::accept(json!({"name": "Ada"})))
            .roots(Reply::roots(vec![])),
    );
    if !valid {
        let def = if rev.is_modern() {
            "CallToolRequest"
        } else {
            "CreateMessageResult"
        };
        b = b.skip_validation_of(
            def,
            "answers sampling with a reply that has no text, on purpose",
        );
    }
    b.connect().await.expect("connects")
}

#[tokio::test]
async fn a_sampling_reply_without_text_takes_the_fallback() {
    for rev in BOTH {
        for (reply, valid) in textless_replies() {
            let c = sampling_client(
                server(),
                rev,
                ClientCapabilities::with_sampling(),
                reply.clone(),
                valid,
            )
            .await;
            let call = c
                .call_tool("summarize", json!({"text": "one two three four"}))
                .await
                .unwrap();
            assert_eq!(call.text(), "one two three...", "{rev} {reply}");
            let c = sampling_client(conformance(), rev, everything(), reply.clone(), valid).await;
            let call = c
                .call_tool("test_input_required_result_multiple_inputs", json!({}))
                .await
                .unwrap();
            assert!(
                call.text().contains("greeting=Hello,"),
                "{rev} {reply}: {}\n{:#?}",
                call.result,
                c.transcript()
                    .iter()
                    .map(|f| f.line.clone())
                    .collect::<Vec<_>>()
            );
        }
    }
}

#[tokio::test]
async fn a_text_reply_is_still_the_answer() {
    for rev in BOTH {
        let script = Script::new().sample(Reply::sample_text("A short text."));
        let c = client(server(), rev, ClientCapabilities::with_sampling(), script).await;
        let call = c
            .call_tool("summarize", json!({"text": "a b c d"}))
            .await
            .unwrap();
        assert_eq!(call.text(), "A short text.", "{rev}");
    }
}

#[tokio::test]
async fn a_rejected_sample_under_refuse_is_no_capability_error() {
    let mut cases = vec![(
        Revision::V2025_11_25,
        Reply::Error(Error::new(-1, "User rejected sampling")),
    )];
    for rev in BOTH {
        // A reply without `content`, and one without text.
        cases.push((rev, Reply::Raw(json!({"role": "assistant", "model": "m"}))));
        cases.push((
            rev,
            Reply::Raw(json!({"role": "assistant", "model": "m", "content": {"type": "image", "data": "AA", "mimeType": "image/png"}})),
        ));
    }
    for (rev, reply) in cases {
        let mut b = TestClient::builder(conformance(), rev)
            .capabilities(ClientCapabilities::with_sampling())
            .script(Script::new().sample(reply.clone()));
        if matches!(&reply, Reply::Raw(v) if v.get("content").is_none()) {
            let def = if rev.is_modern() {
                "CallToolRequest"
            } else {
                "CreateMessageResult"
            };
            b = b.skip_validation_of(def, "answers sampling without content, on purpose");
        }
        let c = b.connect().await.unwrap();
        let out = c.call_tool("test_sampling", json!({"prompt": "Hi"})).await;
        match out {
            Err(e) => {
                assert_ne!(
                    e.code,
                    code::MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "{rev} {reply:?}: {e:?}"
                );
                panic!("{rev} {reply:?}: expected a tool error, got {e:?}");
            }
            Ok(call) => {
                assert!(call.is_error(), "{rev} {reply:?}: {}", call.text());
                let text = call.text();
                assert!(
                    text.contains("the client rejected") || text.contains("could not be used"),
                    "{rev} {reply:?}: {text}"
                );
            }
        }
    }
}

#[tokio::test]
async fn refuse_without_the_capability_is_still_32021() {
    for rev in BOTH {
        let c = client(
            conformance(),
            rev,
            ClientCapabilities::default(),
            Script::new(),
        )
        .await;
        let e = c
            .call_tool("test_sampling", json!({"prompt": "Hi"}))
            .await
            .unwrap_err();
        assert_eq!(e.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY, "{rev}");
    }
}

#[tokio::test]
async fn a_reask_renders_the_same_bytes_in_two_processes() {
    let mut seen = Vec::new();
    for _ in 0..2 {
        let script = Script::new().elicit(Reply::accept(json!({"approve": "yes"})));
        let c = client(
            shop(),
            Revision::V2026_07_28,
            ClientCapabilities::with_elicitation_form(),
            script,
        )
        .await;
        let call = c
            .call_tool("buy", json!({"item": "tea", "quantity": 1}))
            .await
            .unwrap();
        assert!(call.input_required());
        let requests = call.result["inputRequests"].to_string();
        assert!(requests.contains("Asked again because"), "{requests}");
        seen.push(requests);
    }
    assert_eq!(seen[0], seen[1]);
}

#[tokio::test]
async fn the_round_cap_names_the_last_problem() {
    let mut script = Script::new();
    for _ in 0..5 {
        script = script.elicit(Reply::accept(json!({"approve": "yes"})));
    }
    let c = client(
        shop().max_rounds(3),
        Revision::V2026_07_28,
        ClientCapabilities::with_elicitation_form(),
        script,
    )
    .await;
    let e = c
        .call_tool("buy", json!({"item": "tea", "quantity": 1}))
        .await
        .unwrap_err();
    assert_eq!(e.code, code::INVALID_PARAMS);
    assert_eq!(
        e.message,
        "The request needed more than 3 rounds of input; start it again (the last answer to \
         `confirm` was asked again because the answer does not fit the form: `approve` must be \
         true or false, not a string)"
    );
}

#[tokio::test]
async fn a_reason_quoting_a_huge_answer_is_cut() {
    let script = Script::new().elicit(Reply::accept(
        json!({"approve": true, "delivery": "x".repeat(10_000)}),
    ));
    let c = client(
        shop(),
        Revision::V2026_07_28,
        ClientCapabilities::with_elicitation_form(),
        script,
    )
    .await;
    let call = c
        .call_tool("buy", json!({"item": "tea", "quantity": 1}))
        .await
        .unwrap();
    let message = call.result["inputRequests"]["confirm"]["params"]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(message.len() < 400, "{} characters", message.len());
    // The reason quotes the answer's first 100 characters (`echo`), so it is short enough for
    // the re-ask's own cut to leave it whole.
    assert_eq!(
        message,
        format!(
            "Buy tea for $12.50?\n\nAsked again because the answer does not fit the form: \
             `delivery` must be one of `standard`, `express`, not `{}…`.",
            "x".repeat(100)
        )
    );
}
