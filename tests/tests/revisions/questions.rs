//! Questions at each handshake revision: a form from 2025-06-18 on in that revision's words,
//! the fallback before it and for multiple choice at 2025-06-18, a refusal that says the
//! client's revision cannot declare what is missing, and sampling at every revision.

use super::server::*;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Revision, code};
use rondo_mcp::testing::{Direction, Reply, Script, TestClient};
use serde_json::json;

#[tokio::test]
async fn a_form_is_asked_from_2025_06_18_in_that_revision_s_words() {
    for revision in [Revision::V2025_06_18, Revision::V2025_11_25] {
        let c = connect(
            revision,
            everything(),
            Script::new().elicit(Reply::accept(
                json!({"seat": "Aisle", "name": "Grace", "insured": true}),
            )),
        )
        .await;
        let call = c.call_tool("book", json!({})).await.unwrap();
        assert_eq!(call.text(), "Grace at the aisle, insured", "{revision}");
        let asked = c
            .transcript()
            .into_iter()
            .find(|f| {
                f.direction == Direction::Received && f.message["method"] == "elicitation/create"
            })
            .expect("asked")
            .message;
        let params = &asked["params"];
        let schema = &params["requestedSchema"]["properties"];
        if revision == Revision::V2025_06_18 {
            assert!(params.get("mode").is_none());
            assert_eq!(schema["seat"]["enum"], json!(["Window", "Aisle"]));
            assert_eq!(
                schema["seat"]["enumNames"],
                json!(["By the window", "On the aisle"])
            );
            assert!(schema["name"].get("default").is_none());
            assert_eq!(schema["insured"]["default"], false);
        } else {
            assert_eq!(params["mode"], "form");
            assert!(schema["seat"].get("oneOf").is_some());
            assert_eq!(schema["name"]["default"], "Ada");
        }
        let declined = connect(revision, everything(), Script::new().elicit(Reply::Decline)).await;
        let call = declined.call_tool("book", json!({})).await.unwrap();
        assert_eq!(call.text(), "no seat", "{revision}");
    }
}

#[tokio::test]
async fn before_2025_06_18_a_form_takes_its_fallback_whatever_the_client_sent() {
    for revision in [Revision::V2024_11_05, Revision::V2025_03_26] {
        let c = TestClient::builder(server(), revision)
            .skip_validation_of(
                "InitializeRequest",
                "declares elicitation, which this revision does not have",
            )
            .connect()
            .await
            .unwrap();
        // The client opens its session again declaring elicitation, which its revision does
        // not have: it is not read.
        c.raw_request(
            "initialize",
            json!({"protocolVersion": revision.as_str(),
                   "capabilities": {"elicitation": {}, "sampling": {}},
                   "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await
        .unwrap();
        let e = c.call_tool("book", json!({})).await.unwrap_err();
        assert_eq!(e.code, -32021, "{revision}: {e:?}");
        assert!(e.message.contains("elicitation"), "{}", e.message);
        let pizza = c.call_tool("pizza", json!({})).await.unwrap();
        assert_eq!(pizza.text(), "0 toppings");
        assert!(
            c.transcript()
                .iter()
                .all(|f| f.message["method"] != "elicitation/create"),
            "{revision}"
        );
    }
}

#[tokio::test]
async fn a_refusal_says_when_the_client_s_revision_cannot_declare_what_is_missing() {
    let refused = |e: Error| {
        assert_eq!(e.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY, "{e:?}");
        e.message
    };
    // A 2025-06-18 client that declared elicitation (form mode, all its revision has) is not
    // told that it lacks elicitation: it lacks a revision with URL mode.
    let c = connect(Revision::V2025_06_18, everything(), Script::new()).await;
    assert_eq!(
        refused(c.call_tool("pay", json!({})).await.unwrap_err()),
        "Server requires the elicitation capability for this request, in a form this client's \
         protocol revision (2025-06-18) does not have (data.requiredCapabilities says which)"
    );
    // Before 2025-06-18 there is no elicitation to declare.
    let sampling = ClientCapabilities::with_sampling();
    let c = connect(Revision::V2024_11_05, sampling, Script::new()).await;
    assert_eq!(
        refused(c.call_tool("book", json!({})).await.unwrap_err()),
        "Server requires the elicitation capability for this request, which this client's \
         protocol revision (2024-11-05) does not have"
    );
    // Where the revision could declare it, the client simply did not.
    for (revision, tool) in [
        (Revision::V2025_06_18, "book"),
        (Revision::V2025_11_25, "book"),
        (Revision::V2025_11_25, "pay"),
    ] {
        let c = connect(revision, ClientCapabilities::default(), Script::new()).await;
        assert_eq!(
            refused(c.call_tool(tool, json!({})).await.unwrap_err()),
            "Server requires the elicitation capability for this request",
            "{revision} {tool}"
        );
    }
}

#[tokio::test]
async fn a_multiple_choice_form_takes_its_fallback_at_2025_06_18_only() {
    let script = || Script::new().elicit(Reply::accept(json!({"toppings": ["Cheese", "Olives"]})));
    let old = connect(Revision::V2025_06_18, everything(), script()).await;
    assert_eq!(
        old.call_tool("pizza", json!({})).await.unwrap().text(),
        "0 toppings"
    );
    assert!(
        old.transcript()
            .iter()
            .all(|f| f.message["method"] != "elicitation/create")
    );
    let new = connect(Revision::V2025_11_25, everything(), script()).await;
    assert_eq!(
        new.call_tool("pizza", json!({})).await.unwrap().text(),
        "2 toppings"
    );
}

#[tokio::test]
async fn sampling_is_asked_at_every_handshake_revision_and_falls_back_without_it() {
    for revision in HANDSHAKE {
        let c = connect(
            revision,
            everything(),
            Script::new().sample(Reply::sample_text("an old pond")),
        )
        .await;
        let call = c
            .call_tool("haiku", json!({"topic": "frogs"}))
            .await
            .unwrap();
        assert_eq!(call.text(), "an old pond", "{revision}");
        let none = connect(revision, ClientCapabilities::default(), Script::new()).await;
        let call = none
            .call_tool("haiku", json!({"topic": "frogs"}))
            .await
            .unwrap();
        assert_eq!(call.text(), "no poem", "{revision}");
    }
}
