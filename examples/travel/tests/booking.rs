//! `book_trip` through the test client at both revisions: both forms answered (two rounds on
//! 2026-07-28, the first answer carried by `requestState`), either declined or cancelled
//! (nothing booked), no capabilities (`-32021`: consent never falls back), every capability,
//! and the idempotent booking.

use crate::common;

use common::*;
use rondo_example_travel::Config;
use rondo_mcp::protocol::{Revision, code};
use rondo_mcp::testing::{Reply, Script};
use serde_json::{Value, json};

fn approve() -> Reply {
    Reply::accept(json!({"approve": true, "seat": "aisle", "travel_insurance": true}))
}

fn details() -> Value {
    json!({
        "passenger_name": "Grace Hopper",
        "date_of_birth": "1986-12-09",
        "emergency_contact_name": "Howard Aiken",
        "emergency_contact_phone": "+1 617 555 0100"
    })
}

const BOOKED: &str = "Booked Barcelona: flights 15 June 2027 to 22 June 2027, Hotel Arts Barcelona (beachfront), 7 nights, $3,000 in total for Grace Hopper (aisle seat, travel insurance): booking trip-1. Pay with pay_for_trip(booking_id: \"trip-1\").";

#[tokio::test]
async fn approval_then_details_books_once_both_are_in() {
    for rev in BOTH {
        let (server, travel) = travel(Config::default()).await;
        let script = Script::new()
            .elicit(approve())
            .elicit(Reply::accept(details()));
        let c = client(
            server,
            rev,
            caps(json!({"elicitation": {"form": {}}})),
            script,
        )
        .await;
        let call = c
            .call_tool("book_trip", json!({"package_id": "barcelona"}))
            .await
            .unwrap();
        assert_eq!(call.text(), BOOKED, "{rev}");
        assert_eq!(travel.store.booked(), 1);
        let asked = asked(&c);
        let messages: Vec<&str> = asked
            .iter()
            .map(|(_, p)| p["message"].as_str().unwrap())
            .collect();
        assert_eq!(
            messages,
            [
                "Book Barcelona: flights 15 June 2027 to 22 June 2027, Hotel Arts Barcelona (beachfront), 7 nights, $3,000 in total?",
                "Traveller details for the Barcelona trip (15 June 2027 to 22 June 2027)",
            ],
            "{rev}"
        );
        let approval = &asked[0].1["requestedSchema"];
        assert_eq!(approval["required"], json!(["approve"]));
        let props: Vec<&String> = approval["properties"].as_object().unwrap().keys().collect();
        assert_eq!(props, ["approve", "room_type", "seat", "travel_insurance"]);
        let details = &asked[1].1["requestedSchema"];
        assert_eq!(details["properties"]["date_of_birth"]["format"], "date");
        if rev.is_modern() {
            assert_eq!(call.rounds, 3, "one round per form, then the result");
            // The second round's request carries the first answer only through requestState.
            let second = c
                .transcript()
                .into_iter()
                .filter(|f| f.message["method"] == "tools/call")
                .nth(2)
                .unwrap();
            let params = &second.message["params"];
            assert!(params["inputResponses"].get("approve_trip").is_none());
            assert!(params["inputResponses"].get("traveller_details").is_some());
            assert!(params["requestState"].is_string());
        }
    }
}

#[tokio::test]
async fn declining_or_cancelling_either_form_books_nothing() {
    let cases = [
        (
            vec![Reply::Decline],
            "The traveller declined the trip; nothing was booked.",
        ),
        (
            vec![Reply::accept(json!({"approve": false}))],
            "The traveller declined the trip; nothing was booked.",
        ),
        (
            vec![Reply::Cancel],
            "The traveller dismissed the approval; nothing was booked.",
        ),
        (
            vec![approve(), Reply::Decline],
            "The traveller declined to give their details; nothing was booked.",
        ),
        (
            vec![approve(), Reply::Cancel],
            "The traveller dismissed the details form; nothing was booked.",
        ),
    ];
    for rev in BOTH {
        for (replies, want) in &cases {
            let (server, travel) = travel(Config::default()).await;
            let script = replies.iter().cloned().fold(Script::new(), Script::elicit);
            let c = client(server, rev, everything(), script).await;
            let call = c
                .call_tool("book_trip", json!({"package_id": "barcelona"}))
                .await
                .unwrap();
            assert_eq!(call.text(), *want, "{rev}");
            assert!(
                !call.is_error(),
                "{rev}: a decline is an answer, not an error"
            );
            assert_eq!(travel.store.booked(), 0, "{rev}: nothing booked");
        }
    }
}

#[tokio::test]
async fn without_forms_the_consent_is_refused_with_32021() {
    for rev in BOTH {
        for declared in [
            nothing(),
            caps(json!({"sampling": {}, "roots": {}, "elicitation": {"url": {}}})),
        ] {
            let (server, travel) = travel(Config::default()).await;
            // The details as arguments do not replace the approval: consent never comes from the model.
            let mut args = details();
            args["package_id"] = json!("barcelona");
            let c = client(server, rev, declared, Script::new()).await;
            let err = c.call_tool("book_trip", args).await.unwrap_err();
            assert_eq!(err.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY, "{rev}");
            assert_eq!(
                err.data.unwrap()["requiredCapabilities"]["elicitation"],
                json!({"form": {}})
            );
            assert!(asked(&c).is_empty(), "{rev}: nothing asked");
            assert_eq!(travel.store.booked(), 0);
        }
    }
}

#[tokio::test]
async fn the_details_form_may_come_from_arguments_so_its_fields_are_optional_arguments() {
    let (server, _) = travel(Config::default()).await;
    let c = client(server, Revision::V2026_07_28, nothing(), Script::new()).await;
    let tools = c.list_tools().await.unwrap();
    let book = tools.iter().find(|t| t.name == "book_trip").unwrap();
    let schema = serde_json::to_value(&book.input_schema).unwrap();
    assert_eq!(schema["required"], json!(["package_id"]));
    for field in [
        "passenger_name",
        "date_of_birth",
        "hotel_requests",
        "emergency_contact_name",
        "emergency_contact_phone",
    ] {
        assert!(schema["properties"].get(field).is_some(), "{field}");
    }
    for consent in ["approve", "seat", "travel_insurance"] {
        assert!(
            schema["properties"].get(consent).is_none(),
            "{consent} is never an argument"
        );
    }
}

#[tokio::test]
async fn an_unknown_package_is_a_tool_error() {
    for rev in BOTH {
        let (server, _) = travel(Config::default()).await;
        let c = client(server, rev, everything(), Script::new()).await;
        let call = c
            .call_tool("book_trip", json!({"package_id": "paris"}))
            .await
            .unwrap();
        assert!(call.is_error());
        assert_eq!(
            call.text(),
            "No package \"paris\": the package on sale is \"barcelona\"."
        );
        assert!(asked(&c).is_empty(), "{rev}");
    }
}

#[tokio::test]
async fn a_retried_final_round_books_once_and_two_calls_book_twice() {
    // Without the replay guard a re-sent final round runs the tool again: the flow id keeps
    // the booking to one.
    let (server, travel) = travel(Config::default()).await;
    let server = server.without_replay_guard();
    let script = Script::new()
        .elicit(approve())
        .elicit(Reply::accept(details()))
        .elicit(approve())
        .elicit(Reply::accept(details()));
    let c = client(server, Revision::V2026_07_28, everything(), script).await;
    let first = c
        .call_tool("book_trip", json!({"package_id": "barcelona"}))
        .await
        .unwrap();
    assert_eq!(first.text(), BOOKED);
    // The client sends its last round again (a lost answer, a retry): the same booking.
    let last = c
        .transcript()
        .into_iter()
        .rfind(|f| f.message["method"] == "tools/call")
        .unwrap();
    let again = c
        .raw_request("tools/call", last.message["params"].clone())
        .await
        .unwrap();
    assert_eq!(again["content"][0]["text"], BOOKED);
    assert_eq!(travel.store.booked(), 1);
    // Another call with the same answers is another booking.
    let second = c
        .call_tool("book_trip", json!({"package_id": "barcelona"}))
        .await
        .unwrap();
    assert!(
        second.text().contains("booking trip-2"),
        "{}",
        second.text()
    );
    assert_eq!(travel.store.booked(), 2);
}

#[tokio::test]
async fn a_final_round_sent_again_gets_its_booking_and_books_nothing_more() {
    // With the default replay guard, the same sealed round is taken for one set of answers:
    // sent again unchanged (a client that lost the answer), it is served again and the booking
    // recorded with `Cx::once` answers; with other answers, it is refused.
    let (server, travel) = travel(Config::default()).await;
    let script = Script::new()
        .elicit(approve())
        .elicit(Reply::accept(details()));
    let c = client(server, Revision::V2026_07_28, everything(), script).await;
    let first = c
        .call_tool("book_trip", json!({"package_id": "barcelona"}))
        .await
        .unwrap();
    assert_eq!(first.text(), BOOKED);
    let last = c
        .transcript()
        .into_iter()
        .rfind(|f| f.message["method"] == "tools/call")
        .unwrap();
    let again = c
        .raw_request("tools/call", last.message["params"].clone())
        .await
        .unwrap();
    assert_eq!(again["content"][0]["text"], BOOKED, "{again:#}");
    let mut changed = last.message["params"].clone();
    let key = changed["inputResponses"]
        .as_object()
        .and_then(|o| o.keys().next().cloned())
        .expect("the details' answer");
    changed["inputResponses"][&key] = json!({"action": "decline"});
    let e = c.raw_request("tools/call", changed).await.unwrap_err();
    assert_eq!(
        (e.code, e.message.as_str()),
        (-32602, rondo_mcp::state::STATE_REJECTED)
    );
    assert_eq!(travel.store.booked(), 1);
}

#[tokio::test]
async fn a_declined_round_replayed_with_accept_books_nothing_even_without_a_guard() {
    // The decision is recorded once per call (`Cx::once`): where no replay guard holds (it
    // forgot the round, or another instance does not share it), the same round sent again with
    // the approval turned to accept finds the refusal, and the details asked next change nothing.
    let (server, travel) = travel(Config::default()).await;
    let server = server.without_replay_guard();
    let script = Script::new().elicit(Reply::accept(json!({"approve": false})));
    let c = client(server, Revision::V2026_07_28, everything(), script).await;
    let declined = c
        .call_tool("book_trip", json!({"package_id": "barcelona"}))
        .await
        .unwrap();
    let refusal = "The traveller declined the trip; nothing was booked.";
    assert_eq!(declined.text(), refusal);
    let last = c
        .transcript()
        .into_iter()
        .rfind(|f| f.message["method"] == "tools/call")
        .unwrap();
    let mut params = last.message["params"].clone();
    let key = params["inputResponses"]
        .as_object()
        .and_then(|o| o.keys().next().cloned())
        .expect("the approval's answer");
    params["inputResponses"][&key] = json!({"action": "accept", "content": {"approve": true}});
    let asks_details = c.raw_request("tools/call", params.clone()).await.unwrap();
    assert_eq!(
        asks_details["resultType"], "input_required",
        "{asks_details:#}"
    );
    params["requestState"] = asks_details["requestState"].clone();
    let details_key = asks_details["inputRequests"]
        .as_object()
        .and_then(|o| o.keys().next().cloned())
        .expect("the details question");
    params["inputResponses"][&details_key] = json!({"action": "accept", "content": details()});
    let done = c.raw_request("tools/call", params).await.unwrap();
    assert_eq!(done["content"][0]["text"], refusal, "{done:#}");
    assert_eq!(travel.store.booked(), 0);
}
