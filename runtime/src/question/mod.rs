//! Typed questions, what the question macros build on (docs/design.md, "Typed questions").
//!
//! A question function renders a request from its inputs ([`Form`], [`Url`], [`Sample`],
//! [`Roots`]).
//! Calling it builds an [`Asked`] value holding the inputs; `cx.ask(q)` ([`Asking::ask`]) checks
//! what the client declared, renders, asks through the revision's mechanism (the ask engine in
//! `cx/`), reads the answer, or runs the question's fallback with the same inputs. `form`:
//! forms from types (`#[derive(Elicit)]`).

pub(crate) mod advertise;
mod answer;
mod ask_form;
mod asked;
#[cfg(test)]
mod echo_tests;
mod engine;
pub mod form;
pub(crate) mod private;
mod roots;
mod sample;
mod scope;
mod url;

pub use advertise::ASKS_META_KEY;
pub(crate) use advertise::without_asks;
pub use answer::{Answer, Fallback, NotAccepted};
pub use ask_form::Form;
pub use asked::Asked;
#[doc(hidden)] // the question macros' contract, reached through `__private`
pub use asked::{AnswerOf, Ask, QuestionDecl};
#[cfg(feature = "testing")]
pub(crate) use engine::POLICY_SAYS;
pub use form::{Elicit, ElicitEnum, FormError, FormField};
pub use roots::Roots;
pub use sample::{ModelReply, Sample, SampleAnswer, ToolUse};
pub use scope::{AnyQuestion, Asking, Declared};
pub use url::{Url, UrlFlow};

use crate::cx::AskError;
use crate::protocol::{ClientCapabilities, InputRequest, JsonObject, Revision};
use serde_json::Value;

/// What a question function renders: the request it stands for and how its answer reads.
///
/// The question engine's trait, implemented by [`Form`], [`Url`], [`Sample`] and [`Roots`]. It
/// is documented because compile errors name it (a question function must return one), but it
/// is not an extension point: a kind of question of its own needs support in the macros, so
/// implementing it outside this crate is not part of the stable API.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a question's rendering",
    label = "a question function returns what it asks",
    note = "`#[elicit(form)]` functions return `rondo_mcp::Form<T>` (with `#[derive(Elicit)]` on `T`), `#[elicit(url)]` functions return `rondo_mcp::Url`"
)]
pub trait Rendered: Send + Sized + 'static {
    /// What `cx.ask` gives back.
    type Answer: Send;
    /// The capability every rendering of this kind needs, checked before anything is rendered.
    fn needs() -> ClientCapabilities;
    /// Whether an answer carries consent: then it counts only for a rendering the server sent
    /// (bound through `requestState`), never when sent up front.
    fn consent(&self) -> bool;
    /// The request, for a client of `revision`.
    fn request(&self, revision: Revision) -> InputRequest;
    /// `fallback = args` questions, for a client that can show them: `request` with the values
    /// the tool's `arguments` give for its fields as the fields' defaults, so the user sees
    /// what the model passed and confirms it (a value that does not fit its field is left
    /// out). The default changes nothing.
    fn prefilled(&self, request: InputRequest, arguments: &JsonObject) -> InputRequest {
        let _ = arguments;
        request
    }
    /// Reads the client's answer to `sent` (the request as it went out) for question `key`.
    fn read(&self, key: &'static str, sent: &InputRequest, answer: Value) -> Read<Self::Answer>;
    /// What a question the client could not answer comes to (2025-11-25: an error, a timeout).
    fn failed(&self, key: &'static str, why: &AskError) -> Failed<Self::Answer>;
}

/// How an answer reads ([`Rendered::read`]; the engine's, not an extension point).
#[derive(Debug)]
pub enum Read<A> {
    /// The answer.
    Answer(A),
    /// It does not fit: ask again (2026-07-28), or end with this reason (2025-11-25).
    AskAgain(String),
    /// It cannot be used and asking again would get the same: take the fallback.
    Fallback(String),
}

/// What a question the client could not answer comes to ([`Rendered::failed`]; the engine's,
/// not an extension point).
#[derive(Debug)]
pub enum Failed<A> {
    /// Run the question's fallback.
    Fallback,
    /// Use this answer (a form nobody answered in time was dismissed).
    Answer(A),
    /// End the request with this readable failure.
    End(String),
}
