//! Property tests of what a client controls: any bytes as `requestState` (random, or a real
//! token mutated) are refused with the one frozen `-32602` through a real server, never a panic;
//! any JSON as the answer to a derived form with every field kind reads as accepted (and then
//! every bound the form declares holds), declined, cancelled, or asked again with a reason
//! naming the problem.

use crate::targets;

use proptest::prelude::*;
use rondo_mcp::protocol::{ClientCapabilities, Revision, code};
use rondo_mcp::question::{Read, Rendered};
use rondo_mcp::state::STATE_REJECTED;
use rondo_mcp::testing::TestClient;
use rondo_mcp::{Answer, Elicit, Form};
use rondo_tests::servers::{Hand, call, retry};
use serde_json::{Map, Value, json};
use targets::Everything;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A token the server issued, as bytes (the base for mutated ones).
fn issued(rt: &tokio::runtime::Runtime, c: &TestClient) -> Vec<u8> {
    let first = rt.block_on(call(c, "greet")).unwrap();
    first["requestState"].as_str().unwrap().as_bytes().to_vec()
}

/// A real token with one byte changed, or cut short, or with bytes added.
fn mutated(token: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    let n = token.len();
    let (a, b, c) = (token.clone(), token.clone(), token);
    prop_oneof![
        (0..n, 1..=255u8).prop_map(move |(i, x)| {
            let mut t = a.clone();
            t[i] ^= x;
            t
        }),
        (0..n).prop_map(move |cut| b[..cut].to_vec()),
        proptest::collection::vec(any::<u8>(), 1..8).prop_map(move |tail| {
            let mut t = c.clone();
            t.extend(tail);
            t
        }),
    ]
}

#[test]
fn any_bytes_as_request_state_are_refused() {
    let rt = runtime();
    let c = rt
        .block_on(
            TestClient::modern(rondo_mcp::Server::new(Hand))
                .capabilities(ClientCapabilities::with_elicitation_form())
                .skip_validation_of("CallToolRequest", "sends arbitrary requestState strings")
                .connect(),
        )
        .unwrap();
    let token = issued(&rt, &c);
    let bytes = prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..600),
        mutated(token),
    ];
    proptest!(ProptestConfig::with_cases(300), |(b in bytes)| {
        let state = Value::String(String::from_utf8_lossy(&b).into_owned());
        let answers = json!({"user_name": {"action": "accept", "content": {"name": "Ada"}}});
        let e = rt.block_on(retry(&c, "greet", answers, state)).expect_err("refused");
        prop_assert_eq!(e.code, code::INVALID_PARAMS);
        prop_assert_eq!(e.message.as_str(), STATE_REJECTED);
        prop_assert!(e.data.is_none());
        // The same bytes as a token, as JSON, and sealed as a payload under the fuzz key: each
        // refused with the frozen error or, if it opens, round-trips (asserted inside).
        targets::request_state(&b);
    });
}

/// Any JSON, leaning towards the values a form's fields take.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e3f64..1e3).prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        (-20i64..50).prop_map(Value::from),
        prop_oneof![
            Just("Window"),
            Just("Aisle"),
            Just("vegan"),
            Just("fish"),
            Just("chicken"),
            Just("First"),
            Just("Second"),
            Just("ada@example.com"),
            Just("https://x.example"),
            Just("2020-02-30"),
            Just("2020-01-02T03:04:05Z"),
            Just(""),
            Just("Ad"),
        ]
        .prop_map(Value::from),
        ".{0,48}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map(key(), inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// An object key: mostly the form's fields.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(Everything::FIELDS).prop_map(str::to_owned),
        1 => ".{0,12}",
    ]
}

/// A form answer: an action and content whose keys are mostly the form's fields, or any JSON.
fn answer() -> impl Strategy<Value = Value> {
    let content =
        proptest::collection::btree_map(key(), json_value(), 0..=Everything::FIELDS.len())
            .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>()));
    let action = prop_oneof![
        6 => Just(json!("accept")),
        1 => Just(json!("decline")),
        1 => Just(json!("cancel")),
        1 => json_value(),
    ];
    // A valid answer with up to three fields replaced or removed: near the bounds.
    let near = proptest::collection::vec((key(), proptest::option::of(json_value())), 0..4)
        .prop_map(|edits| {
            let mut a = valid();
            for (k, v) in edits {
                let c = a["content"].as_object_mut().unwrap();
                match v {
                    Some(v) => c.insert(k, v),
                    None => c.remove(&k),
                };
            }
            a
        });
    prop_oneof![
        3 => (action, content).prop_map(|(a, c)| json!({"action": a, "content": c})),
        3 => near,
        1 => json_value(),
    ]
}

/// An accepted answer that fits the form.
fn valid() -> Value {
    json!({"action": "accept", "content": {
        "fullName": "Ada Lovelace", "travellers": 2, "celsius": 21.5, "offset": -3,
        "big": 7, "signed": -7, "approve": true, "seat": "Window", "extras": ["vegan"]}})
}

#[test]
fn any_json_as_a_form_answer_is_read_or_asked_again() {
    let form = Form::<Everything>::new("Fill in everything");
    let sent = form.request(Revision::V2026_07_28);
    assert!(
        matches!(
            form.read("everything", &sent, valid()),
            Read::Answer(Answer::Accept(_))
        ),
        "the base answer fits"
    );
    let accepted = std::cell::Cell::new(0u32);
    proptest!(ProptestConfig::with_cases(1000), |(a in answer())| {
        for revision in [Revision::V2025_11_25, Revision::V2026_07_28] {
            let sent = form.request(revision);
            match form.read("everything", &sent, a.clone()) {
                Read::Answer(Answer::Accept(f)) => {
                    accepted.set(accepted.get() + 1);
                    prop_assert_eq!(&a["action"], "accept");
                    targets::form_answer(a.to_string().as_bytes());
                    let n = f.full_name.chars().count();
                    prop_assert!((2..=40).contains(&n));
                    prop_assert!((1..=9).contains(&f.travellers));
                    prop_assert!((1..=2).contains(&f.extras.len()));
                }
                Read::Answer(Answer::Decline | Answer::Cancel) => {
                    prop_assert!(a["action"] == "decline" || a["action"] == "cancel");
                }
                Read::AskAgain(why) => {
                    prop_assert!(
                        why.contains("does not fit the form") || why.contains("not an elicitation result"),
                        "{}", why
                    );
                }
                Read::Fallback(why) => prop_assert!(!why.is_empty()),
            }
        }
    });
    assert!(
        accepted.get() > 50,
        "only {} answers were accepted",
        accepted.get()
    );
}
