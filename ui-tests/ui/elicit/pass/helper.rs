//! A helper that asks on its caller's behalf: it takes `&Asking<'_, S>` and declares what it
//! asks with `where approve: Declared<S>`; tools and prompts that list the question call it.

use rondo_mcp::prelude::*;
use rondo_mcp::question::{Asking, Declared};
use rondo_mcp::{Answer, Elicit, Form, elicit, prompt, tool};

#[derive(Elicit)]
struct Approval {
    /// Go ahead?
    approve: bool,
}

/// Asks before acting.
#[elicit(form, fallback = refuse)]
fn approve(item: &str) -> Form<Approval> {
    Form::new(format!("Go ahead with {item}?"))
}

/// Whether the user approves `item`.
async fn approved<S>(cx: &Asking<'_, S>, item: &str) -> bool
where
    approve: Declared<S>,
{
    matches!(cx.ask(approve(item)).await, Answer::Accept(a) if a.approve)
}

/// Deletes after asking, through the helper.
#[tool(asks = [approve])]
async fn delete(cx: &Cx, item: String) -> String {
    if approved(cx, &item).await {
        format!("deleted {item}")
    } else {
        "kept".into()
    }
}

/// A prompt that asks through the same helper.
#[prompt(asks = [approve])]
async fn summary(cx: &Cx, item: String) -> String {
    let ok = approved(cx, &item).await;
    format!("Summarise {item} (approved: {ok})")
}

fn main() {
    let _ = Router::new(ServerInfo::new("helper", "1.0.0"))
        .tools(rondo_mcp::tools![delete])
        .prompts(rondo_mcp::prompts![summary]);
}
