//! The suite's tools and prompt that ask the client for input. Elicitation is asked with typed
//! questions (`#[derive(Elicit)]` forms, `#[elicit]` question functions, `asks = [..]`); sampling
//! and roots still use the runtime's ask API (`Cx::sample`, `Cx::list_roots`). The same code
//! answers `InputRequiredResult` on 2026-07-28 and sends real requests on 2025-11-25.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::CreateMessageRequest;
use rondo_mcp::{AskError, Elicit, elicit, prompt, tool};
use serde::Serialize;

/// A name.
#[derive(Debug, Elicit)]
struct Name {
    name: String,
}

/// The user's name; a client that cannot show forms leaves it unanswered (the suite's
/// capability check asks only what the client declared).
#[elicit(form, fallback = unanswered)]
fn user_name() -> Form<Name> {
    Form::new("What is your name?")
}

/// The fallback of questions a client cannot show: no answer, as if the user declined.
fn unanswered<T>() -> Answer<T> {
    Answer::Decline
}

/// A confirmation.
#[derive(Debug, Elicit)]
struct Confirm {
    ok: Option<bool>,
}

/// Asks to confirm.
#[elicit(form, fallback = refuse)]
fn confirm() -> Form<Confirm> {
    Form::new("Please confirm")
}

/// Greets `answer`'s name, or a stranger.
fn hello(answer: Answer<Name>) -> String {
    match answer {
        Answer::Accept(n) => format!("Hello, {}!", n.name),
        Answer::Decline | Answer::Cancel => "Hello, stranger!".into(),
    }
}

/// Asks the user's name (input key `user_name`) and greets them.
#[tool(asks = [user_name])]
async fn test_input_required_result_elicitation(cx: &Cx) -> String {
    hello(cx.ask(user_name()).await)
}

/// Asks the client's model for the capital of France.
#[tool]
async fn test_input_required_result_sampling(cx: &Cx) -> Result<String, AskError> {
    let r = cx
        .sample(
            "capital_question",
            CreateMessageRequest::user("What is the capital of France?", 100),
        )
        .await?;
    Ok(format!("Sampled: {}", r.content.text()))
}

/// Asks for the client's roots.
#[tool]
async fn test_input_required_result_list_roots(cx: &Cx) -> Result<String, AskError> {
    let r = cx.list_roots("client_roots").await?;
    Ok(format!("Found {} root(s)", r.roots.len()))
}

/// Asks for a confirmation and carries state between the rounds.
#[tool(asks = [confirm])]
async fn test_input_required_result_request_state(cx: &Cx) -> String {
    let ok = cx.ask(confirm()).await.ok().and_then(|c| c.ok);
    format!("state-ok: confirmed: {ok:?}")
}

/// Asks three questions at once.
#[tool(asks = [user_name])]
async fn test_input_required_result_multiple_inputs(cx: &Cx) -> Result<String, AskError> {
    let (name, greeting, roots) = tokio::join!(
        cx.ask(user_name()),
        cx.sample(
            "greeting",
            CreateMessageRequest::user("Generate a greeting", 50)
        ),
        cx.list_roots("client_roots"),
    );
    let (greeting, roots) = (greeting?, roots?);
    let name = name.ok().map(|n| n.name).unwrap_or_else(|| "?".into());
    Ok(format!(
        "name={name}, greeting={}, roots={}",
        greeting.content.text(),
        roots.roots.len()
    ))
}

/// A favourite colour.
#[derive(Debug, Elicit)]
struct Colour {
    color: String,
}

/// The first step: a name.
#[elicit(form, fallback = refuse)]
fn step1() -> Form<Name> {
    Form::new("Step 1: What is your name?")
}

/// The second step: a colour.
#[elicit(form, fallback = refuse)]
fn step2() -> Form<Colour> {
    Form::new("Step 2: What is your favorite color?")
}

/// Asks two questions, one after the other.
#[tool(asks = [step1, step2])]
async fn test_input_required_result_multi_round(cx: &Cx) -> String {
    let first = cx.ask(step1()).await.ok().map(|n| n.name);
    let second = cx.ask(step2()).await.ok().map(|c| c.color);
    format!(
        "{} likes {}",
        first.as_deref().unwrap_or("?"),
        second.as_deref().unwrap_or("?")
    )
}

/// Asks for a confirmation under integrity-protected state.
#[tool(asks = [confirm])]
async fn test_input_required_result_tampered_state(cx: &Cx) -> String {
    let _ = cx.ask(confirm()).await;
    "Confirmed".into()
}

/// Asks only what the client declared: elicitation when it can, sampling when it can.
#[tool(asks = [user_name])]
async fn test_input_required_result_capabilities(cx: &Cx) -> Result<String, String> {
    let declared = cx.client_capabilities();
    let (can_elicit, can_sample) = (declared.elicitation_form(), declared.sampling());
    let (name, model) = tokio::join!(
        cx.ask(user_name()),
        cx.sample(
            "capital_question",
            CreateMessageRequest::user("What is the capital of France?", 100)
        ),
    );
    if !can_elicit && !can_sample {
        return Err("The client declared neither elicitation nor sampling".into());
    }
    Ok(format!(
        "elicitation: {}, sampling: {}",
        hello(name),
        model
            .map(|r| r.content.text())
            .unwrap_or_else(|e| e.to_string()),
    ))
}

/// The context a prompt is written for.
#[derive(Debug, Elicit)]
struct PromptContext {
    context: String,
}

/// Asks what the prompt should take into account.
#[elicit(form, fallback = refuse)]
fn user_context() -> Form<PromptContext> {
    Form::new("What context should the prompt use?")
}

/// A prompt that asks for its context first.
#[prompt(asks = [user_context])]
async fn test_input_required_result_prompt(cx: &Cx) -> String {
    let context = cx.ask(user_context()).await.ok().map(|c| c.context);
    format!(
        "Write with this context in mind: {}",
        context.as_deref().unwrap_or("none")
    )
}

/// Asks the client's model to answer a prompt (2025-11-25 back-channel).
#[tool]
async fn test_sampling(cx: &Cx, prompt: String) -> Result<String, AskError> {
    let r = cx
        .sample("sampling", CreateMessageRequest::user(prompt, 100))
        .await?;
    Ok(format!("LLM response: {}", r.content.text()))
}

/// Who the user is.
#[derive(Debug, Elicit, Serialize)]
struct Contact {
    /// Your username
    username: String,
    /// Your email address
    #[elicit(format = "email")]
    email: String,
}

/// Asks who the user is, with the tool's message.
#[elicit(form, fallback = refuse)]
fn elicitation(message: &str) -> Form<Contact> {
    Form::new(message)
}

/// Asks the user a question (2025-11-25 back-channel).
#[tool(asks = [elicitation])]
async fn test_elicitation(cx: &Cx, message: String) -> String {
    let (action, content) = match cx.ask(elicitation(&message)).await {
        Answer::Accept(c) => ("accept", serde_json::to_value(c).unwrap_or_default()),
        Answer::Decline => ("decline", serde_json::json!({})),
        Answer::Cancel => ("cancel", serde_json::json!({})),
    };
    format!("User response: action={action}, content={content}")
}

/// `action` and the submitted content, as the suite's reference fixtures print them.
fn completed<T: Serialize>(answer: Answer<T>) -> String {
    let (action, content) = match answer {
        Answer::Accept(form) => ("accept", serde_json::to_value(form).unwrap_or_default()),
        Answer::Decline => ("decline", serde_json::Value::Null),
        Answer::Cancel => ("cancel", serde_json::Value::Null),
    };
    format!("Elicitation completed: action={action}, content={content}")
}

/// An account's status.
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
enum Status {
    Active,
    Inactive,
    Pending,
}

/// A form whose fields all have defaults (SEP-1034).
#[derive(Debug, Elicit, Serialize)]
struct Defaults {
    #[elicit(default = "John Doe")]
    name: String,
    #[elicit(default = 30)]
    age: i64,
    #[elicit(default = 95.5)]
    score: f64,
    #[elicit(default = Status::Active)]
    status: Status,
    #[elicit(default = true, not_consent)]
    verified: bool,
}

/// Asks to review the defaults.
#[elicit(form, fallback = refuse)]
fn defaults() -> Form<Defaults> {
    Form::new("Please review the defaults")
}

/// Asks with a form whose fields all have defaults (SEP-1034).
#[tool(asks = [defaults])]
async fn test_elicitation_sep1034_defaults(cx: &Cx) -> String {
    completed(cx.ask(defaults()).await)
}

/// Untitled options.
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
enum Untitled {
    Option1,
    Option2,
    Option3,
}

/// Titled options.
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
enum Titled {
    /// First Option
    Value1,
    /// Second Option
    Value2,
    /// Third Option
    Value3,
}

/// Titled options that 2025-11-25 clients see in the legacy `enumNames` form.
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
#[elicit(legacy_enum_names)]
enum Legacy {
    /// Option One
    Opt1,
    /// Option Two
    Opt2,
    /// Option Three
    Opt3,
}

/// Titled options of a multiple choice.
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "lowercase")]
enum Choice {
    /// First Choice
    Value1,
    /// Second Choice
    Value2,
    /// Third Choice
    Value3,
}

/// Every enum shape (SEP-1330).
#[derive(Debug, Elicit, Serialize)]
#[serde(rename_all = "camelCase")]
struct Enums {
    untitled_single: Option<Untitled>,
    titled_single: Option<Titled>,
    legacy_enum: Option<Legacy>,
    #[elicit(min_items = 1, max_items = 3)]
    untitled_multi: Option<Vec<Untitled>>,
    titled_multi: Option<Vec<Choice>>,
}

/// Asks to pick options.
#[elicit(form, fallback = refuse)]
fn enums() -> Form<Enums> {
    Form::new("Pick some options")
}

/// Asks with every enum shape (SEP-1330).
#[tool(asks = [enums])]
async fn test_elicitation_sep1330_enums(cx: &Cx) -> String {
    completed(cx.ask(enums()).await)
}

/// The asking tools.
pub fn tools() -> rondo_mcp::ToolSet {
    rondo_mcp::tools![
        test_input_required_result_elicitation,
        test_input_required_result_sampling,
        test_input_required_result_list_roots,
        test_input_required_result_request_state,
        test_input_required_result_multiple_inputs,
        test_input_required_result_multi_round,
        test_input_required_result_tampered_state,
        test_input_required_result_capabilities,
        test_sampling,
        test_elicitation,
        test_elicitation_sep1034_defaults,
        test_elicitation_sep1330_enums,
    ]
}

/// The asking prompt.
pub fn prompts() -> rondo_mcp::PromptSet {
    rondo_mcp::prompts![test_input_required_result_prompt]
}
