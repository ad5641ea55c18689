//! The servers of the `questions::attacks` tests (issue 12): a form of two 64-bit integers, a
//! `summarize` in the manner of the guide (`rondo_mcp::guide::sampling_and_roots`) whose sampling
//! question falls back to the text's first words, and the shared question server's `buy`.

use rondo_mcp::prelude::*;
use rondo_mcp::{Answer, Elicit, Form, elicit, sample, tool};

/// Two wide integers.
#[derive(Debug, Elicit)]
pub struct Counts {
    /// Signed
    pub signed: i64,
    /// Unsigned
    pub unsigned: Option<u64>,
}

#[elicit(form, fallback = refuse)]
fn counts() -> Form<Counts> {
    Form::new("How many?")
}

/// Reads two wide integers.
#[tool(asks = [counts])]
async fn read_counts(cx: &Cx) -> String {
    match cx.ask(counts()).await {
        Answer::Accept(c) => format!("signed={} unsigned={:?}", c.signed, c.unsigned),
        _ => "no answer".into(),
    }
}

/// A summary by the client's model (the guide's pattern), or the text's first words.
#[sample(fallback = first_words)]
fn summary(text: &str) -> Sample<String> {
    Sample::user(format!("Summarize: {text}")).max_tokens(100)
}

fn first_words(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().take(3).collect();
    format!("{}...", words.join(" "))
}

/// Summarizes a text.
#[tool(asks = [summary])]
async fn summarize(cx: &Cx, text: String) -> String {
    cx.ask(summary(&text)).await
}

pub fn server() -> Server<Router> {
    Server::new(
        Router::new(ServerInfo::new("attacks", "1"))
            .tools(rondo_mcp::tools![read_counts, summarize]),
    )
}

/// The bookshop-like `buy` of the shared question server.
pub fn shop() -> Server<Router> {
    crate::questions::server(crate::questions::Payments::paid_after(0))
}
