//! Fallback functions: sync and `async`, returning the answer or a `Fallback` that ends the tool
//! with a result or refuses; functions named like the keywords, reached by paths (`self::args`,
//! `names::refuse`), are the user's, not the expansion's hidden `refuse` and `args` (which take
//! no input: calling one with a name would not compile).

use rondo_mcp::prelude::*;
use rondo_mcp::{Answer, Elicit, Fallback, Form, Url, UrlFlow, elicit, tool};

#[derive(Elicit)]
struct Nickname {
    /// A nickname
    nickname: String,
}

/// Asks for a nickname; without forms, an `async` fallback looks one up.
#[elicit(form, fallback = look_up)]
fn nickname(name: &str) -> Form<Nickname> {
    Form::new(format!("What should we call {name}?"))
}

async fn look_up(name: &str) -> Answer<Nickname> {
    Answer::Accept(Nickname {
        nickname: name.chars().take(3).collect(),
    })
}

/// Asks for a nickname; without forms, the tool ends with a result the model can read.
#[elicit(form, fallback = end_early)]
fn strict_nickname(name: &str) -> Form<Nickname> {
    Form::new(format!("What should we call {name}?"))
}

fn end_early(name: &str) -> Fallback<Answer<Nickname>> {
    Fallback::End(CallToolResult::error(format!("ask {name} in person")))
}

/// Sends the user to pay; without URL mode, an `async` fallback refuses.
#[elicit(url, fallback = no_payment)]
fn pay(order: &str) -> Url {
    Url::new("Pay", format!("https://pay.example.com/{order}"))
}

async fn no_payment(_order: &str) -> Fallback<Answer<UrlFlow>> {
    Fallback::Refuse
}

/// Asks for a nickname; without forms, the function `args` of this module answers.
#[elicit(form, fallback = self::args)]
fn args_nickname(name: &str) -> Form<Nickname> {
    Form::new(format!("What should we call {name}?"))
}

fn args(name: &str) -> Answer<Nickname> {
    Answer::Accept(Nickname {
        nickname: name.to_uppercase(),
    })
}

/// Asks for a nickname; without forms, the function `names::refuse` answers.
#[elicit(form, fallback = names::refuse)]
fn refuse_nickname(name: &str) -> Form<Nickname> {
    Form::new(format!("What should we call {name}?"))
}

mod names {
    use rondo_mcp::Answer;

    pub fn refuse(name: &str) -> Answer<super::Nickname> {
        Answer::Accept(super::Nickname {
            nickname: name.to_lowercase(),
        })
    }
}

/// Asks every question.
#[tool(asks = [nickname, strict_nickname, args_nickname, refuse_nickname, pay])]
async fn everything(cx: &Cx, name: String) -> String {
    let _ = cx.ask(nickname(&name)).await;
    let _ = cx.ask(strict_nickname(&name)).await;
    let _ = cx.ask(args_nickname(&name)).await;
    let _ = cx.ask(refuse_nickname(&name)).await;
    match cx.ask(pay(&name)).await {
        Answer::Accept(_) => format!("{name} is paying"),
        _ => name,
    }
}

fn main() {
    let _ = rondo_mcp::tools![everything];
}
