//! The `rondo::question` events: one per decision, told once per call however many rounds
//! the call took (a 2026-07-28 handler runs from the top on every round), with the reason of
//! each fallback, at both revisions and in a task. Its own test binary: it installs
//! the process-wide subscriber of `rondo_tests::logs::Events`.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Implementation, Revision};
use rondo_mcp::testing::{Reply, Script, TestClient};
use rondo_mcp::{ClientPolicy, Elicit, elicit, sample, tool};
use rondo_tests::logs::{Event, Events};
use rondo_tests::questions;
use serde_json::json;
use std::time::Duration;

/// Whether to publish.
#[derive(Debug, Elicit)]
pub struct Approval {
    /// Publish it?
    pub ok: bool,
}

/// A title from the client's model; without sampling, the first words.
#[sample(fallback = first_words)]
pub fn title(text: &str) -> Sample {
    Sample::user(format!("A title for: {text}")).max_tokens(20)
}

/// The fallback.
pub fn first_words(text: &str) -> String {
    text.split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Asks the user to approve the title.
#[elicit(form, fallback = refuse)]
pub fn approve(title: &str) -> Form<Approval> {
    Form::new(format!("Publish \"{title}\"?"))
}

/// A title (sampling, with a fallback), then an approval (a form): a client without sampling
/// takes the fallback on every round of the call.
#[tool(asks = [title, approve])]
pub async fn publish(cx: &Cx, text: String) -> String {
    let title = cx.ask(title(&text)).await;
    match cx.ask(approve(&title)).await {
        Answer::Accept(a) if a.ok => format!("Published: {title}"),
        _ => "Kept.".into(),
    }
}

fn server() -> Server<Router> {
    let router = Router::new(ServerInfo::new("events", "1.0.0")).tools(rondo_mcp::tools![
        publish,
        questions::buy,
        questions::welcome,
        questions::nickname_pair
    ]);
    Server::new(router)
}

/// The question events, each as `question outcome [action|reason]`.
fn told(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e.target == "rondo::question")
        .map(|e| {
            let detail = e.field("action").or(e.field("reason"));
            let mut s = format!(
                "{} {}",
                e.field("question").unwrap(),
                e.field("outcome").unwrap()
            );
            if let Some(d) = detail {
                s.push(' ');
                s.push_str(d);
            }
            s
        })
        .collect()
}

async fn client(
    server: Server<Router>,
    revision: Revision,
    caps: ClientCapabilities,
    script: Script,
) -> TestClient {
    TestClient::builder(server, revision)
        .client_info(Implementation::new("Some Host", "2.0.0"))
        .capabilities(caps)
        .script(script)
        .connect()
        .await
        .expect("connects")
}

#[tokio::test]
async fn a_fallback_in_the_first_round_is_told_once_over_the_call() {
    let events = Events::record();
    let c = client(
        server(),
        Revision::V2026_07_28,
        ClientCapabilities::with_elicitation_form(),
        Script::new().elicit(Reply::accept(json!({"ok": true}))),
    )
    .await;
    let call = c
        .call_tool("publish", json!({"text": "rondo asks the client"}))
        .await
        .unwrap();
    assert_eq!(call.text(), "Published: rondo asks");
    let events = events.take();
    // Round 0: no sampling, so the title's fallback, then the form goes out. Round 1: the
    // fallback again (the handler ran from the top), the form's answer. Each once.
    assert_eq!(
        told(&events),
        [
            "approve asked",
            "title fallback capability_missing",
            "approve answered accept",
        ]
    );
    let fallback = events
        .iter()
        .find(|e| e.field("outcome") == Some("fallback"))
        .unwrap();
    for (field, value) in [
        ("kind", "sampling"),
        ("method", "tools/call"),
        ("name", "publish"),
        ("client", "Some Host"),
        ("revision", "2026-07-28"),
    ] {
        assert_eq!(fallback.field(field), Some(value), "{fallback:?}");
    }
    assert_eq!(
        events
            .iter()
            .find(|e| e.field("outcome") == Some("asked"))
            .unwrap()
            .field("kind"),
        Some("form")
    );
    let rounds: Vec<_> = events.iter().filter_map(|e| e.field("rounds")).collect();
    assert_eq!(rounds, ["2"], "one rounds event, when the call ended");
    let sealed: Vec<_> = events
        .iter()
        .filter_map(|e| e.field("state_bytes"))
        .collect();
    assert_eq!(sealed.len(), 1, "one requestState went out: {events:?}");
    assert!(sealed[0].parse::<usize>().unwrap() > 0);
}

#[tokio::test]
async fn two_questions_in_one_round_and_a_reasked_one_are_each_told_once() {
    let events = Events::record();
    let c = client(
        server(),
        Revision::V2026_07_28,
        ClientCapabilities::with_elicitation_form(),
        Script::new()
            .elicit(Reply::accept(json!({"nickname": "Ace"})))
            .elicit(Reply::Decline),
    )
    .await;
    let call = c
        .call_tool("nickname_pair", json!({"first": "Ada", "second": "Grace"}))
        .await
        .unwrap();
    assert_eq!(call.text(), "Ace & ");
    assert_eq!(
        told(&events.take()),
        [
            "nickname asked",
            "nickname asked",
            "nickname answered accept",
            "nickname answered decline",
        ]
    );
    // An answer that does not fit the form is asked again, then answered.
    let c = client(
        server(),
        Revision::V2026_07_28,
        ClientCapabilities::with_elicitation_form(),
        Script::new()
            .elicit(Reply::accept(json!({"name": ""})))
            .elicit(Reply::accept(json!({"name": "Ada"}))),
    )
    .await;
    let call = c
        .call_tool("welcome", json!({"greeting": "Hi"}))
        .await
        .unwrap();
    assert_eq!(call.text(), "Hi, Ada!");
    assert_eq!(
        told(&events.take()),
        ["guest asked", "guest re_asked", "guest answered accept"]
    );
}

#[tokio::test]
async fn a_policy_fallback_and_a_refusal_say_why() {
    let events = Events::record();
    let policy = ClientPolicy::from_json(
        r#"{"rules": [{"client": "Some Host", "remove": ["elicitation.form"]}]}"#,
    )
    .unwrap();
    let c = client(
        server().client_policy(policy),
        Revision::V2026_07_28,
        ClientCapabilities::with_elicitation_form(),
        Script::new(),
    )
    .await;
    let call = c
        .call_tool("welcome", json!({"greeting": "Hi", "name": "Ada"}))
        .await
        .unwrap();
    assert_eq!(call.text(), "Hi, Ada!");
    assert_eq!(told(&events.take()), ["guest fallback policy"]);
    // No forms at all: `confirm` refuses (-32021), which is its fallback.
    let c = client(
        server(),
        Revision::V2026_07_28,
        ClientCapabilities::default(),
        Script::new(),
    )
    .await;
    let e = c
        .call_tool("buy", json!({"item": "tea", "quantity": 1}))
        .await
        .unwrap_err();
    assert_eq!(e.code, -32021);
    assert_eq!(
        told(&events.take()),
        ["confirm fallback capability_missing"]
    );
}

#[tokio::test]
async fn legacy_questions_are_told_as_they_happen() {
    let events = Events::record();
    let caps: ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {"form": {}}, "sampling": {}})).unwrap();
    let c = client(
        server(),
        Revision::V2025_11_25,
        caps.clone(),
        Script::new()
            .sample(Reply::Error(Error::new(-1, "User rejected sampling")))
            .elicit(Reply::Decline),
    )
    .await;
    let call = c
        .call_tool("publish", json!({"text": "rondo asks the client"}))
        .await
        .unwrap();
    assert_eq!(call.text(), "Kept.");
    let first = events.take();
    assert_eq!(
        told(&first),
        [
            "title asked",
            "title fallback rejected",
            "approve asked",
            "approve answered decline",
        ]
    );
    assert!(
        first
            .iter()
            .filter(|e| e.target == "rondo::question")
            .all(|e| e.field("revision") == Some("2025-11-25"))
    );
    // Nobody answers the form in time: it counts as dismissed, and is told as unanswered.
    let c = client(
        server().ask_timeout(Duration::from_millis(50)),
        Revision::V2025_11_25,
        ClientCapabilities::with_elicitation_form(),
        Script::new().elicit(Reply::Ignore),
    )
    .await;
    let call = c
        .call_tool("buy", json!({"item": "tea", "quantity": 1}))
        .await
        .unwrap();
    assert_eq!(call.text(), "Not bought: the question was dismissed.");
    assert_eq!(
        told(&events.take()),
        ["confirm asked", "confirm unanswered timed_out"]
    );
}

#[tokio::test]
async fn a_client_name_is_a_clean_label() {
    let events = Events::record();
    let c = TestClient::builder(server(), Revision::V2026_07_28)
        .client_info(Implementation::new("evil\"} 1\n# HELP", "1"))
        .capabilities(ClientCapabilities::default())
        .connect()
        .await
        .unwrap();
    let _ = c
        .call_tool("publish", json!({"text": "a b c"}))
        .await
        .unwrap_err();
    let events = events.take();
    let clients: Vec<_> = events
        .iter()
        .filter(|e| e.target == "rondo::question")
        .map(|e| e.field("client").unwrap().to_owned())
        .collect();
    assert_eq!(
        clients,
        ["evil__ 1__ HELP", "evil__ 1__ HELP"],
        "{events:?}"
    );
}

#[tokio::test]
async fn a_task_tells_its_question_when_parked_and_its_answer_when_injected() {
    use rondo_tests::servers::TaskLab;
    let events = Events::record();
    let lab = TaskLab::default();
    let server = Server::new(lab.clone()).task_poll_interval(Duration::from_millis(20));
    let c = TestClient::modern(server)
        .capabilities(ClientCapabilities::with_elicitation_form())
        .with_tasks()
        .script(Script::new().elicit(Reply::accept(json!({"confirm": true}))))
        .connect()
        .await
        .unwrap();
    let call = c.call_tool("ask", json!({})).await.unwrap();
    let id = call.task_id().expect("a task").to_owned();
    let done = c.follow_task(&id).await.unwrap();
    assert_eq!(done.text(), "confirm: true");
    // The runner tells what the task decided before it settles the task.
    assert_eq!(
        told(&events.take()),
        ["confirm asked", "confirm answered accept"]
    );
}
