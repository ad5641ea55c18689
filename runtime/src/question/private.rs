//! What the question macros' expansions call, re-exported by `__private` (not a public API).

use super::advertise::AskMeta;
use super::{Answer, Asking, Fallback, Form, QuestionDecl, Rendered, Url};
use crate::cx::Cx;
use crate::protocol::{CallToolResult, JsonObject, Revision};
use crate::question::Elicit;
use crate::tools::BoxFuture;
use serde_json::Value;
use std::cell::Cell;
use std::future::Future;
use std::marker::PhantomData;

/// `#[elicit(form)]`: what the function renders must be a `Form<T>`.
#[diagnostic::on_unimplemented(
    message = "`#[elicit(form)]` functions return `Form<T>`, not `{Self}`",
    label = "not a form",
    note = "write `-> rondo_mcp::Form<T>` with `#[derive(Elicit)]` on `T`; for a page the user opens, write `#[elicit(url)]` and `-> rondo_mcp::Url`"
)]
pub trait FormQuestion {
    /// The form's fields.
    type Form: Elicit;
}

impl<T: Elicit + Send + 'static> FormQuestion for Form<T> {
    type Form = T;
}

/// `#[elicit(url)]`: what the function renders must be a `Url`.
#[diagnostic::on_unimplemented(
    message = "`#[elicit(url)]` functions return `Url`, not `{Self}`",
    label = "not a URL-mode question",
    note = "write `-> rondo_mcp::Url` (`Url::new(message, url)`); for a form, write `#[elicit(form)]` and `-> rondo_mcp::Form<T>`"
)]
pub trait UrlQuestion {}

impl UrlQuestion for Url {}

/// The mode check of an `#[elicit]` function's return type `R`, spanned at it: `Mode::<R>::form()`
/// fails when `R` is a rendering of the other mode. When `R` is no rendering at all, the
/// [`NotRendered`] default stands in (rustc passes over an inherent item whose bounds fail for
/// a trait's): [`rendered`] reports that, once, with [`Rendered`]'s message.
pub struct Mode<R>(PhantomData<fn() -> R>);

impl<R: Rendered> Mode<R> {
    /// `#[elicit(form)]`.
    pub fn form()
    where
        R: FormQuestion,
    {
    }
    /// `#[elicit(url)]`.
    pub fn url()
    where
        R: UrlQuestion,
    {
    }
}

/// The check that an `#[elicit]` function's return type `R` is a rendering at all.
pub fn rendered<R: Rendered>() {}

/// The check of a `#[sample]` function's return type, spanned at it: one error, in sampling's
/// words, for a type that is no rendering or a rendering of another kind. (A `Sample<T>` whose
/// `T` is no answer is reported where it is built: its constructors require
/// [`SampleAnswer`](super::SampleAnswer).)
pub fn is_sample<R: SampleQuestion>() {}

/// The check of a `#[roots]` function's return type, spanned at it (see [`is_sample`]).
pub fn is_roots<R: RootsQuestion>() {}

/// The stand-ins of [`Mode`] for a type that is no rendering.
pub trait NotRendered {
    /// Nothing to check.
    fn form() {}
    /// Nothing to check.
    fn url() {}
}

/// `#[sample]`: what the function renders must be a `Sample<T>`.
#[diagnostic::on_unimplemented(
    message = "`#[sample]` functions return `Sample<T>`, not `{Self}`",
    label = "not a sampling request",
    note = "write `-> rondo_mcp::Sample<T>` (`Sample::user(text)`), where `T` is the answer: `String`, a `Deserialize + JsonSchema` type, or `ModelReply`"
)]
pub trait SampleQuestion {}

impl<T: Send + 'static> SampleQuestion for super::Sample<T> {}

/// `#[roots]`: the function's answer must be `Roots`, which is also its rendering (`roots/list`
/// has no parameters).
#[diagnostic::on_unimplemented(
    message = "`#[roots]` functions answer `Roots`, not `{Self}`",
    label = "not `Roots`",
    note = "write `fn workspace(..) -> rondo_mcp::Roots;` (no body: the client lists its roots)"
)]
pub trait RootsQuestion: Rendered {
    /// The request.
    fn rendering() -> Self;
}

impl RootsQuestion for super::Roots {
    fn rendering() -> Self {
        super::Roots::default()
    }
}

impl<R> NotRendered for Mode<R> {}

/// A question's input: cloned for each rendering (the fallback gets the original).
#[diagnostic::on_unimplemented(
    message = "a question renders from clones of its inputs, and `{Self}` is not `Clone`",
    label = "not `Clone`",
    note = "take the input by reference (`&T` is always `Clone`), or derive `Clone` on the type"
)]
pub trait QuestionInput: Clone {}

impl<T: Clone> QuestionInput for T {}

/// A clone of one input, for rendering.
pub fn input<T: QuestionInput>(input: &T) -> T {
    input.clone()
}

/// `fallback = refuse`: the request ends with `-32021` naming what the client lacks.
pub fn refuse<'a, A: Send + 'a>() -> BoxFuture<'a, Fallback<A>> {
    // A ready future, not an `async` block: no state machine per question.
    Box::pin(std::future::ready(Fallback::Refuse))
}

/// `fallback = args` on a question whose function returns `R`: what the expansion reads of the
/// form. The items exist only when `R` is a form; otherwise the [`NotAForm`] stand-ins apply
/// (rustc passes over an inherent item whose bounds fail for a trait's), so a question that
/// does not return a form is reported once, by its mode check, and not again by these.
pub struct FormArgs<R>(PhantomData<fn() -> R>);

impl<R: FormQuestion> FormArgs<R> {
    /// The form's field names, which become optional arguments of the tools that ask it.
    pub const FIELDS: &'static [&'static str] = <R::Form as Elicit>::FIELDS;
    /// Whether the form carries consent, which `fallback = args` cannot take.
    pub const CONSENT: bool = <R::Form as Elicit>::CONSENT;

    /// The form's fields as tool-argument properties (none required: a tool whose client can
    /// show the form never needs them).
    pub fn schema() -> Option<JsonObject> {
        let schema = <R::Form as Elicit>::requested_schema(Revision::V2026_07_28);
        match schema.get("properties") {
            Some(Value::Object(properties)) => Some(properties.clone()),
            _ => Some(JsonObject::new()),
        }
    }

    /// The form's answer built from the tool's arguments, or the end of the tool with an error
    /// result naming what is missing, so the model can call again with them.
    pub fn fallback<'a>(cx: &'a Cx, key: &'static str) -> BoxFuture<'a, Fallback<Answer<R::Form>>>
    where
        R::Form: Send + 'a,
    {
        let empty = JsonObject::new();
        let arguments = cx.arguments().unwrap_or(&empty);
        let fallback = match <R::Form as Elicit>::from_content(arguments) {
            Ok(form) => Fallback::Answer(Answer::Accept(form)),
            Err(e) => Fallback::End(CallToolResult::error(format!(
                "This client cannot show the form `{key}`, so its fields are arguments of this tool: {e}. Call the tool again with them."
            ))),
        };
        Box::pin(async move { fallback })
    }
}

/// The stand-ins of [`FormArgs`] when the function does not return a form (never run: that
/// question does not compile).
pub trait NotAForm {
    /// No fields.
    const FIELDS: &'static [&'static str] = &[];
    /// No consent.
    const CONSENT: bool = false;
    /// No schema.
    fn schema() -> Option<JsonObject> {
        None
    }
    /// Refuses.
    fn fallback<'a, A: Send + 'a>(_: &'a Cx, _: &'static str) -> BoxFuture<'a, Fallback<A>> {
        refuse()
    }
}

impl<R> NotAForm for FormArgs<R> {}

/// A tool's input schema with the fields of its `fallback = args` questions added as optional
/// properties.
///
/// # Panics
/// When a field has the name of an argument the schema already has (arguments the macros cannot
/// see, from `#[args]` or `input_schema = ..`; named arguments are checked at compile time):
/// a programming error, raised when the tool list is built, never on a request.
pub fn with_question_arguments(
    mut schema: JsonObject,
    questions: &[fn() -> Option<JsonObject>],
) -> JsonObject {
    let mut added = JsonObject::new();
    for fields in questions.iter().filter_map(|q| q()) {
        added.extend(fields);
    }
    if added.is_empty() {
        return schema;
    }
    let properties = schema
        .entry("properties")
        .or_insert_with(|| Value::Object(JsonObject::new()));
    if let Value::Object(properties) = properties {
        for (name, field) in added {
            assert!(
                !properties.contains_key(&name),
                "the tool argument `{name}` is also a field of a form asked with `fallback = args`; rename one"
            );
            properties.insert(name, field);
        }
    }
    schema
}

/// The index of the first of `arguments` that is also one of `fields`, if any (the `const`
/// check of `asks = [..]` entries with `fallback = args`).
pub const fn argument_collision(arguments: &[&str], fields: &[&str]) -> Option<usize> {
    let mut i = 0;
    while i < arguments.len() {
        let mut j = 0;
        while j < fields.len() {
            if crate::sets::str_eq(arguments[i], fields[j]) {
                return Some(i);
            }
            j += 1;
        }
        i += 1;
    }
    None
}

/// A fallback function's result, sync or async: `(&FallbackCall::<A, _>::new(out)).run()` picks
/// [`ViaFuture`] when `out` is a future (a by-value impl, found first) and [`ViaValue`]
/// otherwise (an impl on the reference). The answer type `A` is given, not inferred, so what
/// the function returns is checked against it: one [`FallbackValue`] error at the function.
pub struct FallbackCall<A, R>(Cell<Option<R>>, PhantomData<fn() -> A>);

impl<A, R> FallbackCall<A, R> {
    /// Wraps what the fallback function returned.
    pub fn new(out: R) -> Self {
        FallbackCall(Cell::new(Some(out)), PhantomData)
    }

    fn take(&self) -> R {
        match self.0.take() {
            Some(out) => out,
            None => unreachable!("a fallback's result is taken once"),
        }
    }
}

/// What a fallback function may return: the answer itself or a [`Fallback`].
#[diagnostic::on_unimplemented(
    message = "this question's fallback must return `{A}`, not `{Self}`",
    label = "the fallback returns `{Self}`",
    note = "a fallback is called with the question's inputs and returns its answer (or `Fallback<{A}>` to end the tool early or refuse); it may be `async`"
)]
pub trait FallbackValue<A> {
    /// Into the fallback's outcome.
    fn into_fallback(self) -> Fallback<A>;
}

impl<A> FallbackValue<A> for A {
    fn into_fallback(self) -> Fallback<A> {
        Fallback::Answer(self)
    }
}

impl<A> FallbackValue<A> for Fallback<A> {
    fn into_fallback(self) -> Fallback<A> {
        self
    }
}

/// An `async` fallback.
pub trait ViaFuture {
    /// The question's answer.
    type Answer;
    /// The fallback function's future.
    type Future: Future;
    /// The fallback's outcome, once the future is done.
    fn run<'a>(&self) -> BoxFuture<'a, Fallback<Self::Answer>>
    where
        Self::Future: Send + 'a,
        Self::Answer: Send + 'a,
        <Self::Future as Future>::Output: FallbackValue<Self::Answer>;
}

impl<A, F: Future> ViaFuture for FallbackCall<A, F> {
    type Answer = A;
    type Future = F;
    fn run<'a>(&self) -> BoxFuture<'a, Fallback<A>>
    where
        F: Send + 'a,
        A: Send + 'a,
        F::Output: FallbackValue<A>,
    {
        let fut = self.take();
        Box::pin(async move { fut.await.into_fallback() })
    }
}

/// A sync fallback.
pub trait ViaValue {
    /// The question's answer.
    type Answer;
    /// What the function returned.
    type Value;
    /// The fallback's outcome.
    fn run<'a>(&self) -> BoxFuture<'a, Fallback<Self::Answer>>
    where
        Self::Answer: Send + 'a,
        Self::Value: FallbackValue<Self::Answer>;
}

impl<A, R> ViaValue for &FallbackCall<A, R> {
    type Answer = A;
    type Value = R;
    fn run<'a>(&self) -> BoxFuture<'a, Fallback<A>>
    where
        A: Send + 'a,
        R: FallbackValue<A>,
    {
        let fallback = self.take().into_fallback();
        Box::pin(async move { fallback })
    }
}

/// `asks = [..]`: what the expansion reads of a listed question. The items exist only when `Q`
/// is a question; otherwise the [`NotListed`] defaults stand in (rustc passes over an inherent
/// item whose bounds fail for a trait's), so an entry that is not a question is reported once,
/// where it is declared, and not again by every check that reads it.
pub struct Listed<Q>(PhantomData<fn() -> Q>);

impl<Q: QuestionDecl> Listed<Q> {
    /// See [`QuestionDecl::ARGS_FALLBACK`].
    pub const ARGS_FALLBACK: bool = Q::ARGS_FALLBACK;
    /// See [`QuestionDecl::ARGUMENTS`].
    pub const ARGUMENTS: &'static [&'static str] = Q::ARGUMENTS;
    /// See [`QuestionDecl::argument_schema`].
    pub fn argument_schema() -> Option<JsonObject> {
        Q::argument_schema()
    }
    /// See [`QuestionDecl::META`].
    pub const META: Option<AskMeta> = Some(Q::META);
}

/// The stand-ins of [`Listed`] for an entry that is not a question.
pub trait NotListed {
    /// No `fallback = args`.
    const ARGS_FALLBACK: bool = false;
    /// No arguments.
    const ARGUMENTS: &'static [&'static str] = &[];
    /// No schema.
    fn argument_schema() -> Option<JsonObject> {
        None
    }
    /// Nothing to advertise.
    const META: Option<AskMeta> = None;
}

impl<Q> NotListed for Listed<Q> {}

/// `asks = [..]`: the first step of rebinding a function's context to its declared questions,
/// `(&cx).__rondo_asking::<S>()`: an [`Asking`] when `cx` is `&Cx`. A context of another type
/// has its own error at its type, so [`RebindOther`] (found one autoref later) keeps it as it
/// is, and the body sees the type it declared: no second error.
pub trait RebindCx<'a> {
    /// The context as the function's `Asking`.
    fn __rondo_asking<S>(&self) -> Asking<'a, S>;
}

impl<'a> RebindCx<'a> for &'a Cx {
    fn __rondo_asking<S>(&self) -> Asking<'a, S> {
        Asking::new(self)
    }
}

/// See [`RebindCx`]: a context that is not `&Cx`, kept.
pub trait RebindOther<'a, T: ?Sized> {
    /// The context as it is.
    fn __rondo_asking<S>(&self) -> &'a T;
}

impl<'a, T: ?Sized> RebindOther<'a, T> for &&'a T {
    fn __rondo_asking<S>(&self) -> &'a T {
        self
    }
}

/// The second step, `(&asking).__rondo_context()`: a reference to the `Asking` (so the body's
/// `cx` is `&Asking`, which coerces to `&Cx`), or the kept context (see [`RebindCx`]).
pub trait RebindRef {
    /// The reference the body binds.
    fn __rondo_context(&self) -> &Self;
}

impl<S> RebindRef for Asking<'_, S> {
    fn __rondo_context(&self) -> &Self {
        self
    }
}

/// See [`RebindRef`]: the kept context.
pub trait RebindRefOther<'a, T: ?Sized> {
    /// The context as it is.
    fn __rondo_context(&self) -> &'a T;
}

impl<'a, T: ?Sized> RebindRefOther<'a, T> for &&'a T {
    fn __rondo_context(&self) -> &'a T {
        self
    }
}

/// `asks = [..]` on the `N`th tool of a `#[toolbox]`: its set of declared questions, a type
/// the expansion defines outside the method and the method's body names as
/// `<Self as AsksOf<N>>::Set`.
pub trait AsksOf<const N: usize> {
    /// The set: every declared question implements `Declared<Set>`.
    type Set;
}
