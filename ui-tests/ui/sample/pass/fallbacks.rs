//! `#[sample]` fallbacks: sync and `async` functions returning the answer, `Fallback::end(..)`
//! (every candidate, for the host's model), `Fallback::Refuse` and `Fallback::fail(..)`, and
//! `fallback = refuse`.

#![deny(warnings)]

use rondo_mcp::prelude::*;
use rondo_mcp::{Fallback, sample, tool};

/// Asks the client's model for a one-line summary; the sync fallback cuts the text.
#[sample(fallback = first_words)]
fn summary(text: &str) -> Sample {
    Sample::user(format!("Summarize in one line: {text}"))
}

fn first_words(text: &str) -> String {
    text.split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `async` fallback calls the server's own model provider.
#[sample(fallback = my_provider)]
fn title(text: &str) -> Sample {
    Sample::user(format!("A title for: {text}"))
}

async fn my_provider(text: &str) -> String {
    format!("About {}", text.len())
}

/// Without sampling, the tool ends with every candidate.
#[sample(fallback = every_candidate)]
fn pick(candidates: &[String]) -> Sample {
    Sample::user(format!("Pick one of: {}", candidates.join(", ")))
}

fn every_candidate(candidates: &[String]) -> Fallback<String> {
    Fallback::end(Json(candidates.to_vec()))
}

/// An `async` fallback that refuses (`-32021` naming `sampling`).
#[sample(fallback = no_model)]
fn translate(text: &str, language: &str) -> Sample {
    Sample::user(format!("Translate into {language}: {text}"))
}

async fn no_model(_text: &str, _language: &str) -> Fallback<String> {
    Fallback::Refuse
}

/// A fallback that ends the tool with an error result saying what to do.
#[sample(fallback = cannot_rate)]
fn rate(text: &str) -> Sample {
    Sample::user(format!("Rate from 1 to 5: {text}"))
}

fn cannot_rate(_text: &str) -> Fallback<String> {
    Fallback::fail("This client has no model to rate with; pass `rating` instead.")
}

/// Sampling or nothing.
#[sample(fallback = refuse)]
fn capital() -> Sample {
    Sample::user("What is the capital of France?")
}

/// Asks every question.
#[tool(asks = [summary, title, pick, translate, rate, capital])]
async fn everything(cx: &Cx, text: String) -> String {
    let candidates = vec![text.clone()];
    let mut out = cx.ask(summary(&text)).await;
    out += &cx.ask(title(&text)).await;
    out += &cx.ask(pick(&candidates)).await;
    out += &cx.ask(translate(&text, "French")).await;
    out += &cx.ask(rate(&text)).await;
    out + &cx.ask(capital()).await
}

fn main() {
    let _ = rondo_mcp::tools![everything];
}
