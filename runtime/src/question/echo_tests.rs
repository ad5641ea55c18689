//! What a client sends is quoted only in part in the reasons the questions give (a re-ask's
//! reason, a fallback's, a failure's): a huge answer full of control characters reads as the
//! reason's own words, then the first `ECHO_CHARS` (100) characters of what quotes it, then
//! `…`. Each expected text below is written out whole.

use super::form::FieldProblem;
use super::{Form, Read, Rendered, Roots, Sample, Url};
use crate::cx::AskError;
use crate::protocol::{ECHO_CHARS, Error, InputRequest, Revision};
use serde_json::json;

/// Ten characters, nine of them control characters (ASCII, so a byte index is a character
/// index): an escape sequence that clears a terminal, a bell, a line break, NUL, a tab and a
/// backspace.
const NASTY: &str = "\u{1b}[2J\u{7}\r\n\0\t\u{8}";

/// `NASTY` 100 000 times: a megabyte.
fn huge() -> String {
    NASTY.repeat(100_000)
}

/// The first `n` characters of `huge()`.
fn head(n: usize) -> String {
    let mut s = NASTY.repeat(n / NASTY.len());
    s.push_str(&NASTY[..n % NASTY.len()]);
    s
}

/// `NASTY` as serde quotes a string it did not expect (Rust's `{:?}`): 27 characters.
const NASTY_QUOTED: &str = r"\u{1b}[2J\u{7}\r\n\0\t\u{8}";

/// The first `n` characters of `huge()` as serde quotes it.
fn head_quoted(n: usize) -> String {
    let mut s = NASTY_QUOTED.repeat(n / NASTY_QUOTED.len());
    s.push_str(&NASTY_QUOTED[..n % NASTY_QUOTED.len()]);
    s
}

/// A choice, for a form.
#[derive(Debug, crate::Elicit)]
#[elicit(rename_all = "lowercase")]
enum Side {
    Window,
    Aisle,
}

/// A form of one choice.
#[derive(Debug, crate::Elicit)]
#[allow(dead_code, reason = "only read")]
struct Seat {
    side: Side,
}

fn reason<A: std::fmt::Debug>(read: Read<A>) -> (&'static str, String) {
    match read {
        Read::AskAgain(why) => ("again", why),
        Read::Fallback(why) => ("fallback", why),
        Read::Answer(a) => panic!("read as an answer: {a:?}"),
    }
}

#[test]
fn the_helpers_count_right() {
    assert_eq!(NASTY.chars().count(), 10);
    assert_eq!(format!("{:?}", huge()).len(), 2 + 27 * 100_000);
    assert_eq!(head(23).chars().count(), 23);
    assert_eq!(head_quoted(40).chars().count(), 40);
    assert!(format!("{:?}", huge()).starts_with(&format!("\"{}", head_quoted(99))));
    assert_eq!(ECHO_CHARS, 100);
}

#[test]
fn a_sampling_reply_that_is_no_result_is_cut() {
    let q = Sample::<String>::user("What is the capital of France?");
    let sent = Rendered::request(&q, Revision::V2026_07_28);
    let reply = json!({"role": huge(), "model": "m", "content": {"type": "text", "text": "x"}});
    // serde quotes an unknown variant as it came: "unknown variant `" is 17 characters.
    assert_eq!(
        reason(q.read("capital", &sent, reply)),
        (
            "fallback",
            format!(
                "the reply is not a sampling result: unknown variant `{}…",
                head(83)
            )
        )
    );
}

#[test]
fn a_models_text_is_cut_in_the_reason() {
    // A JSON answer whose text is a string: serde quotes it, escaped, after "not the JSON
    // asked for: invalid type: string \"" (46 characters).
    #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code, reason = "only read")]
    struct Picks {
        best: Vec<String>,
    }
    let q = Sample::<Picks>::user("Pick.");
    let sent = Rendered::request(&q, Revision::V2026_07_28);
    let text = serde_json::to_string(&huge()).expect("serialises");
    let reply =
        json!({"role": "assistant", "model": "m", "content": {"type": "text", "text": text}});
    assert_eq!(
        reason(q.read("picks", &sent, reply)),
        (
            "fallback",
            format!(
                "the model's reply: not the JSON asked for: invalid type: string \"{}…",
                head_quoted(54)
            )
        )
    );
    // Content blocks of no known kind: their `type`s are listed, as they came.
    let q = Sample::<String>::user("Say it.");
    let reply = json!({"role": "assistant", "model": "m", "content": [{"type": huge()}]});
    assert_eq!(
        reason(q.read("say", &sent, reply)),
        (
            "fallback",
            format!("the model's reply: it has no text, only {}…", head(79))
        )
    );
}

#[test]
fn a_roots_answer_that_is_no_list_is_cut() {
    let answer = json!({"roots": huge()});
    let read = Roots::default().read("roots", &InputRequest::ListRoots, answer);
    assert_eq!(
        reason(read),
        (
            "again",
            format!(
                "the answer is not a roots list: invalid type: string \"{}…",
                head_quoted(78)
            )
        )
    );
}

#[test]
fn an_elicitation_answer_that_is_no_result_is_cut() {
    let answer = json!({"action": huge()});
    let form = Form::<Seat>::new("Which side?");
    let read = form.read("seat", &form.request(Revision::V2026_07_28), answer.clone());
    let expected = format!(
        "the answer is not an elicitation result: unknown variant `{}…",
        head(83)
    );
    assert_eq!(reason(read), ("again", expected.clone()));
    let page = Url::new("Pay here.", "https://pay.example.com/x");
    let read = page.read(
        "pay",
        &Rendered::request(&page, Revision::V2026_07_28),
        answer,
    );
    assert_eq!(reason(read), ("again", expected));
}

#[test]
fn a_choice_that_is_no_option_is_cut() {
    let problem = FieldProblem::NotAnOption {
        found: huge(),
        options: vec!["window", "aisle"],
    };
    assert_eq!(
        problem.to_string(),
        format!("must be one of `window`, `aisle`, not `{}…`", head(100))
    );
    // As a form's answer reads it: asked again with the same sentence.
    let form = Form::<Seat>::new("Which side?");
    let answer = json!({"action": "accept", "content": {"side": huge()}});
    let read = form.read("seat", &form.request(Revision::V2026_07_28), answer);
    assert_eq!(
        reason(read),
        (
            "again",
            format!(
                "the answer does not fit the form: `side` must be one of `window`, `aisle`, \
                 not `{}…`",
                head(100)
            )
        )
    );
}

#[test]
fn a_clients_error_message_is_cut() {
    let e = AskError::Rejected(Error::new(-1, huge()));
    assert_eq!(
        e.to_string(),
        format!("the client rejected the request: {}…", head(100))
    );
}
