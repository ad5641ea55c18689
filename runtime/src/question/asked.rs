//! A question's identity ([`QuestionDecl`]), its rendering and fallback per input types
//! ([`Ask`]), and the lazy value a question function returns ([`Asked`]).

use super::advertise::AskMeta;
use super::{Fallback, Rendered};
use crate::cx::Cx;
use crate::protocol::JsonObject;
use crate::tools::BoxFuture;
use std::fmt;
use std::marker::PhantomData;

/// A question: implemented by the hidden type a question macro emits next to the function
/// (`#[elicit(form, ..)] fn approve(..)` also defines a type `approve`), which `asks = [..]`
/// names, so paths resolve through modules, renames and re-exports.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a question",
    label = "not a question function",
    note = "a question is a function with `#[elicit(form, fallback = ..)]`, `#[elicit(url, fallback = ..)]`, `#[sample(fallback = ..)]` or `#[roots(fallback = ..)]`"
)]
pub trait QuestionDecl: 'static {
    /// The key of its `inputRequests` entry: the function's name.
    const KEY: &'static str;
    /// Whether its fallback is `args`: its form's fields are optional arguments of the tools
    /// that ask it.
    const ARGS_FALLBACK: bool;
    /// `fallback = args`: the form's field names, which become optional arguments of every
    /// tool that asks the question. Empty otherwise.
    const ARGUMENTS: &'static [&'static str];
    /// What it asks of the client and what it does without an answer, as `tools/list`
    /// advertises it (`dev.rondo/asks`).
    const META: AskMeta;
    /// `fallback = args`: the schema properties those arguments add to a tool's `inputSchema`.
    fn argument_schema() -> Option<JsonObject> {
        None
    }
}

/// How a question with inputs `I` renders, and what it does when the client cannot answer.
/// The macros implement it for every lifetime of the inputs.
pub trait Ask<I>: QuestionDecl {
    /// What the function renders: [`Form`](super::Form), [`Url`](super::Url).
    type Rendered: Rendered;
    /// Renders the request from the inputs. Must depend on them only: debug builds render
    /// twice and compare.
    fn render(inputs: &I) -> Self::Rendered;
    /// The declared fallback, given the same inputs.
    fn fallback<'a>(
        cx: &'a Cx,
        inputs: I,
    ) -> BoxFuture<'a, Fallback<<Self::Rendered as Rendered>::Answer>>
    where
        I: 'a;
}

/// The answer type of question `Q` asked with inputs `I`: what `cx.ask(q)` returns.
pub type AnswerOf<Q, I> = <<Q as Ask<I>>::Rendered as Rendered>::Answer;

/// A question with its inputs, not yet rendered: what calling a question function returns.
/// Ask it with `cx.ask(q).await`; nothing is rendered before the client's capabilities are
/// checked, and the fallback gets the same inputs.
#[must_use = "a question does nothing until it is asked: `cx.ask(q).await`"]
pub struct Asked<Q, I> {
    pub(crate) inputs: I,
    question: PhantomData<fn() -> Q>,
}

impl<Q, I> Asked<Q, I> {
    #[doc(hidden)]
    pub fn new(inputs: I) -> Self {
        Asked {
            inputs,
            question: PhantomData,
        }
    }
}

impl<Q: QuestionDecl, I> fmt::Debug for Asked<Q, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Asked")
            .field("question", &Q::KEY)
            .finish_non_exhaustive()
    }
}
