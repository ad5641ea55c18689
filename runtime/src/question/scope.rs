//! The questions a function declares: `asks = [..]` rebinds its context to an
//! [`Asking<'_, S>`](Asking), whose [`ask`](Asking::ask) accepts only the questions declared
//! for `S`.

use super::{AnswerOf, Ask, Asked, QuestionDecl};
use crate::cx::Cx;
use crate::tools::BoxFuture;
use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

/// The question `Self` is declared by the functions whose set is `S`. The macros implement it
/// in each function's body, one impl per `asks = [..]` entry, for a hidden set type local to
/// that body; asking anything else fails this bound at the ask.
#[diagnostic::on_unimplemented(
    message = "a function asks only the questions in its `asks = [..]`, and `{Self}` is not in the list of `{S}`; add it there",
    label = "`{Self}` is not declared",
    note = "declaring the questions lets the compiler check their fallbacks and arguments: `#[tool(asks = [{Self}])]`",
    note = "a helper that asks for its caller takes `cx: &Asking<'_, S>` and declares what it asks with `where {Self}: Declared<S>`"
)]
pub trait Declared<S>: QuestionDecl {}

/// The set of every question, for hand-written handlers, which have no `asks = [..]`
/// ([`Asking::any`]).
#[derive(Debug, Clone, Copy)]
pub struct AnyQuestion;

impl<Q: QuestionDecl> Declared<AnyQuestion> for Q {}

/// The request context of a function that declares the questions of `S`. Inside a `#[tool]`,
/// `#[prompt]` or `#[resource]` function the context parameter is one of these; the rest of
/// [`Cx`] is reached through `Deref`, and `&Asking<..>` coerces to `&Cx`.
///
/// A helper that asks on a tool's behalf takes it generically:
/// `async fn confirm<S>(cx: &Asking<'_, S>, ..) where approve: Declared<S>`.
pub struct Asking<'a, S> {
    cx: &'a Cx,
    set: PhantomData<fn() -> S>,
}

impl<'a, S> Asking<'a, S> {
    #[doc(hidden)]
    pub fn new(cx: &'a Cx) -> Self {
        Asking {
            cx,
            set: PhantomData,
        }
    }

    /// Asks a question this function declares and gives its answer: the client's, or the
    /// fallback's when the client did not declare what the question needs.
    ///
    /// 2026-07-28: an unanswered question ends this pass (the request answers
    /// `InputRequiredResult`, the client calls again with the answer, and the function runs
    /// from the top); questions awaited together (`join!`) are asked in one round.
    /// 2025-11-25: a real request goes to the client and is awaited.
    //
    // A plain function returning a boxed future, not an `async fn`: the future of an `async fn`
    // carries its bounds, so rustc would report a missing `Declared` three times (at the
    // argument, the call and the `.await`); here it is one error, at the question.
    pub fn ask<Q, I>(&self, question: Asked<Q, I>) -> BoxFuture<'a, AnswerOf<Q, I>>
    where
        Q: Ask<I> + Declared<S>,
        Q::Rendered: Sync,
        I: Send + 'a,
    {
        Box::pin(super::engine::ask::<Q, I>(self.cx, question.inputs))
    }
}

impl<S> Deref for Asking<'_, S> {
    type Target = Cx;
    fn deref(&self) -> &Cx {
        self.cx
    }
}

impl<S> fmt::Debug for Asking<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.cx, f)
    }
}

impl<'a> Asking<'a, AnyQuestion> {
    /// `cx` as a context that may ask any question: for hand-written handlers, which have no
    /// `asks = [..]` (`Asking::any(cx).ask(q).await`).
    pub fn any(cx: &'a Cx) -> Self {
        Asking::new(cx)
    }
}
