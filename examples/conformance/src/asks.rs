//! The suite's tools and prompt that ask the client for input, with typed questions: forms
//! (`#[derive(Elicit)]`, `#[elicit]`), the client's model (`#[sample]`) and roots (`#[roots]`),
//! each declared in `asks = [..]`. The same code answers `InputRequiredResult` on 2026-07-28 and
//! sends real requests on 2025-11-25.

use rondo_mcp::prelude::*;
use rondo_mcp::{Elicit, elicit, prompt, roots, sample, tool};
use serde::Serialize;

/// A name.
#[derive(Debug, Elicit)]
pub(crate) struct Name {
    name: String,
}

/// The user's name; a client that cannot show forms leaves it unanswered (the suite's
/// capability check asks only what the client declared).
#[elicit(form, fallback = unanswered)]
pub(crate) fn user_name() -> Form<Name> {
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
pub(crate) fn hello(answer: Answer<Name>) -> String {
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

/// The capital of France, from the client's model.
#[sample(fallback = refuse)]
fn capital_question() -> Sample {
    Sample::user("What is the capital of France?").max_tokens(100)
}

/// Asks the client's model for the capital of France.
#[tool(asks = [capital_question])]
async fn test_input_required_result_sampling(cx: &Cx) -> String {
    format!("Sampled: {}", cx.ask(capital_question()).await)
}

/// The client's roots.
#[roots(fallback = refuse)]
fn client_roots() -> Roots;

/// Asks for the client's roots.
#[tool(asks = [client_roots])]
async fn test_input_required_result_list_roots(cx: &Cx) -> String {
    let roots = cx.ask(client_roots()).await;
    format!("Found {} root(s)", roots.roots().len())
}

/// A greeting from the client's model, or a plain one.
#[sample(fallback = plain_greeting)]
fn greeting() -> Sample {
    Sample::user("Generate a greeting").max_tokens(50)
}

fn plain_greeting() -> String {
    "Hello".into()
}

/// Asks for a confirmation and carries state between the rounds.
#[tool(asks = [confirm])]
async fn test_input_required_result_request_state(cx: &Cx) -> String {
    let ok = cx.ask(confirm()).await.ok().and_then(|c| c.ok);
    format!("state-ok: confirmed: {ok:?}")
}

/// Asks three questions at once.
#[tool(asks = [user_name, greeting, client_roots])]
async fn test_input_required_result_multiple_inputs(cx: &Cx) -> String {
    let (name, greeting, roots) = tokio::join!(
        cx.ask(user_name()),
        cx.ask(greeting()),
        cx.ask(client_roots()),
    );
    let name = name.ok().map(|n| n.name).unwrap_or_else(|| "?".into());
    format!(
        "name={name}, greeting={greeting}, roots={}",
        roots.roots().len()
    )
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
#[tool(asks = [user_name, optional::capital_question])]
async fn test_input_required_result_capabilities(cx: &Cx) -> Result<String, String> {
    let declared = cx.client_capabilities();
    if !declared.elicitation_form() && !declared.sampling() {
        return Err("The client declared neither elicitation nor sampling".into());
    }
    let (name, capital) = tokio::join!(cx.ask(user_name()), cx.ask(optional::capital_question()));
    Ok(format!("elicitation: {}, sampling: {capital}", hello(name)))
}

/// Questions for clients that may not answer them: their fallbacks stand in.
mod optional {
    use rondo_mcp::prelude::*;
    use rondo_mcp::sample;

    /// The capital of France from the client's model, when it has one (the same input key as
    /// the sampling tool's question).
    #[sample(fallback = no_model)]
    pub fn capital_question() -> Sample {
        Sample::user("What is the capital of France?").max_tokens(100)
    }

    fn no_model() -> String {
        "the client declared no sampling".into()
    }
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

/// The client's model's answer to a prompt.
#[sample(fallback = refuse)]
fn sampling(prompt: &str) -> Sample {
    Sample::user(prompt).max_tokens(100)
}

/// Asks the client's model to answer a prompt (2025-11-25 back-channel).
#[tool(asks = [sampling])]
async fn test_sampling(cx: &Cx, prompt: String) -> String {
    format!("LLM response: {}", cx.ask(sampling(&prompt)).await)
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
