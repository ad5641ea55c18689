//! `cx.ask(q)`: the capability check, rendering (checked for determinism in debug builds),
//! the ask engine, and the fallback.

use super::advertise::AskKind;
use super::{AnswerOf, Ask, Failed, Fallback, Read, Rendered};
use crate::canonical;
use crate::cx::{AskError, Cx, Ending, Failure, Reading};
use crate::observe::{Outcome, Reason};
use crate::protocol::{ClientCapabilities, Error, InputRequest, JsonObject, Revision};
use crate::tools::BoxFuture;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Asks question `Q` with `inputs` (see [`Asking::ask`](super::Asking::ask)).
///
/// Generic, so compiled once per question in the crate that asks it: it only holds the typed
/// question while [`run`], which is not generic and is compiled once, here, asks it and takes
/// its fallback (design §9, "Build cost").
pub(super) async fn ask<Q, I>(cx: &Cx, inputs: I) -> AnswerOf<Q, I>
where
    Q: Ask<I>,
    I: Send,
{
    let mut question = Typed::<Q, I> {
        inputs: Some(inputs),
        rendered: None,
        answer: None,
    };
    run(cx, &mut question).await;
    match question.answer {
        Some(answer) => answer,
        // `run` returns only once the question holds its answer; every other way ends the
        // request, and a future that ends it never completes (`Cx::end`).
        None => unreachable!("`run` returned without an answer"),
    }
}

/// A question as [`run`] sees it: its rendering, its fallback, and answers read into the
/// question itself.
trait Question: Send {
    /// `QuestionDecl::KEY`.
    fn key(&self) -> &'static str;
    /// The kind, for the figures (`observe`).
    fn kind(&self) -> AskKind;
    /// `QuestionDecl::ARGS_FALLBACK`.
    fn args_fallback(&self) -> bool;
    /// [`Rendered::needs`].
    fn needs(&self) -> ClientCapabilities;
    /// Renders from the inputs, keeps the rendering, and gives its request for `revision`
    /// (`None` once the fallback has taken the inputs).
    fn render(&mut self, revision: Revision) -> Option<InputRequest>;
    /// Renders again, for the determinism check: the request only.
    fn render_again(&self, revision: Revision) -> Option<InputRequest>;
    /// [`Rendered::prefilled`] of the kept rendering.
    fn prefilled(&self, request: InputRequest, arguments: &JsonObject) -> InputRequest;
    /// [`Rendered::consent`] of the kept rendering.
    fn consent(&self) -> bool;
    /// [`Rendered::read`]: an answer is kept.
    fn read(&mut self, sent: &InputRequest, answer: Value) -> Read<()>;
    /// [`Rendered::failed`]: an answer is kept.
    fn failed(&mut self, why: &AskError) -> Failed<()>;
    /// Whether an answer is kept.
    fn answered(&self) -> bool;
    /// The declared fallback, given the inputs: an answer is kept.
    fn fallback<'s>(&'s mut self, cx: &'s Cx) -> BoxFuture<'s, Fallback<()>>;
}

/// The one [`Question`] impl: question `Q` asked with inputs `I`.
struct Typed<Q: Ask<I>, I> {
    /// Until the fallback takes them.
    inputs: Option<I>,
    rendered: Option<Q::Rendered>,
    answer: Option<AnswerOf<Q, I>>,
}

impl<Q, I> Question for Typed<Q, I>
where
    Q: Ask<I>,
    I: Send,
{
    fn key(&self) -> &'static str {
        Q::KEY
    }
    fn kind(&self) -> AskKind {
        Q::META.kind
    }
    fn args_fallback(&self) -> bool {
        Q::ARGS_FALLBACK
    }
    fn needs(&self) -> ClientCapabilities {
        <Q::Rendered as Rendered>::needs()
    }
    fn render(&mut self, revision: Revision) -> Option<InputRequest> {
        let rendered = Q::render(self.inputs.as_ref()?);
        Some(self.rendered.insert(rendered).request(revision))
    }
    fn render_again(&self, revision: Revision) -> Option<InputRequest> {
        Some(Q::render(self.inputs.as_ref()?).request(revision))
    }
    fn prefilled(&self, request: InputRequest, arguments: &JsonObject) -> InputRequest {
        match &self.rendered {
            Some(rendered) => rendered.prefilled(request, arguments),
            None => request,
        }
    }
    fn consent(&self) -> bool {
        self.rendered.as_ref().is_some_and(Rendered::consent)
    }
    fn read(&mut self, sent: &InputRequest, answer: Value) -> Read<()> {
        let Some(rendered) = &self.rendered else {
            return Read::Fallback("the question was not rendered".to_owned());
        };
        keep(&mut self.answer, rendered.read(Q::KEY, sent, answer))
    }
    fn failed(&mut self, why: &AskError) -> Failed<()> {
        let Some(rendered) = &self.rendered else {
            return Failed::Fallback;
        };
        match rendered.failed(Q::KEY, why) {
            Failed::Answer(a) => {
                self.answer = Some(a);
                Failed::Answer(())
            }
            Failed::Fallback => Failed::Fallback,
            Failed::End(why) => Failed::End(why),
        }
    }
    fn answered(&self) -> bool {
        self.answer.is_some()
    }
    fn fallback<'s>(&'s mut self, cx: &'s Cx) -> BoxFuture<'s, Fallback<()>> {
        let Some(inputs) = self.inputs.take() else {
            return no_inputs();
        };
        Box::pin(KeepAnswer {
            fallback: Q::fallback(cx, inputs),
            slot: &mut self.answer,
        })
    }
}

/// A fallback's future whose answer goes to `slot`: a small hand-written future rather than
/// an `async` block, whose state machine would be compiled per question.
struct KeepAnswer<'s, A> {
    fallback: BoxFuture<'s, Fallback<A>>,
    slot: &'s mut Option<A>,
}

impl<A> Future for KeepAnswer<'_, A> {
    type Output = Fallback<()>;
    fn poll(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<Fallback<()>> {
        let this = &mut *self;
        this.fallback.as_mut().poll(context).map(|f| match f {
            Fallback::Answer(a) => {
                *this.slot = Some(a);
                Fallback::Answer(())
            }
            Fallback::End(result) => Fallback::End(result),
            Fallback::Refuse => Fallback::Refuse,
        })
    }
}

/// The fallback of a question whose inputs a fallback took already: it refuses.
fn no_inputs() -> BoxFuture<'static, Fallback<()>> {
    Box::pin(std::future::ready(Fallback::Refuse))
}

/// Why a question ended the request without an answer it should have had.
fn no_answer(key: &str) -> String {
    format!("Could not ask `{key}`: the question has no answer")
}

/// Asks `question` and, when it gets no answer, takes its fallback: returns once `question`
/// holds its answer, else ends the request (the fallback's `End` or `Refuse`, or a failure).
async fn run(cx: &Cx, question: &mut (dyn Question + '_)) {
    let short = match drive(cx, question).await {
        Ok(()) if question.answered() => return,
        Ok(()) => Short::Client("the answer was read twice".to_owned(), Reason::Unparsable),
        Err(short) => short,
    };
    let key = question.key();
    fell_back(cx, key, question.kind(), &short);
    match question.fallback(cx).await {
        Fallback::Answer(()) if question.answered() => {}
        Fallback::Answer(()) => cx.end(Ending::Failed(no_answer(key))).await,
        Fallback::End(result) => cx.end(Ending::Result(result)).await,
        Fallback::Refuse => refuse(cx, key, short).await,
    }
}

/// `read`, its answer kept in `slot`.
fn keep<A>(slot: &mut Option<A>, read: Read<A>) -> Read<()> {
    match read {
        Read::Answer(a) => {
            *slot = Some(a);
            Read::Answer(())
        }
        Read::AskAgain(why) => Read::AskAgain(why),
        Read::Fallback(why) => Read::Fallback(why),
    }
}

/// The capability check, rendering (checked for determinism in debug builds), the ask and what
/// a failure comes to: `Ok` when `question` holds its answer, else why it takes its fallback.
async fn drive(cx: &Cx, question: &mut (dyn Question + '_)) -> Result<(), Short> {
    let needs = question.needs();
    if let Some(missing) = cx.client_capabilities().missing(&needs) {
        return Err(Short::Missing(Box::new(missing)));
    }
    let Some(mut request) = question.render(cx.revision()) else {
        let why = "the question's inputs were taken".to_owned();
        return Err(Short::Client(why, Reason::Unparsable));
    };
    if cfg!(debug_assertions) {
        check_deterministic(&*question, &request, cx);
    }
    // The tool's arguments are bound into `requestState`, so defaults from them render the
    // same on every round.
    if question.args_fallback()
        && let Some(arguments) = cx.arguments()
    {
        request = question.prefilled(request, arguments);
    }
    let specific = request.required_capabilities();
    if let Some(missing) = cx.client_capabilities().missing(&specific) {
        return Err(Short::Missing(Box::new(missing)));
    }
    let (key, consent) = (question.key(), question.consent());
    let mut read = |sent: &InputRequest, v| match question.read(sent, v) {
        Read::Answer(()) => Reading::Value(()),
        Read::AskAgain(why) => Reading::Again(why),
        Read::Fallback(why) => Reading::Unusable(why),
    };
    let failure = match cx.ask_answer(key, request, consent, &mut read).await {
        Ok(()) => return Ok(()),
        Err(failure) => failure,
    };
    match failure {
        Failure::Unusable(why) => {
            tracing::warn!(question = key, %why, "the answer cannot be used; taking the fallback");
            let why = format!("the client's answer could not be used: {why}");
            Err(Short::Client(why, Reason::Unparsable))
        }
        Failure::Ask(e) => match question.failed(&e) {
            Failed::Fallback => Err(Short::of(*e)),
            Failed::Answer(()) => {
                cx.tell(key, question.kind(), Outcome::Unanswered(reason(&e)));
                Ok(())
            }
            Failed::End(why) => {
                cx.tell(key, question.kind(), Outcome::Unanswered(reason(&e)));
                cx.end(Ending::Failed(why)).await
            }
        },
    }
}

/// The end of a `-32021`'s message when the client declared the capability and the server's
/// client policy removed it (the sweep reads it: such a `-32021` names what the client
/// declared, on purpose).
pub(crate) const POLICY_SAYS: &str =
    " (the client declared it, and this server's client policy treats the client as lacking it)";

/// Why a question takes its fallback, for `refuse`.
enum Short {
    /// The client did not declare these capabilities: `-32021` naming them (boxed: they are
    /// large, and the other case is common).
    Missing(Box<ClientCapabilities>),
    /// The client declared what the question needs but rejected it, failed, or answered
    /// unusably: a failure saying so (never `-32021`, which would claim a capability is
    /// missing), and the reason the fallback is counted under.
    Client(String, Reason),
}

impl Short {
    fn of(e: AskError) -> Short {
        match e {
            AskError::Unsupported(missing) => Short::Missing(Box::new(missing)),
            other => Short::Client(other.to_string(), reason(&other)),
        }
    }
}

/// Why a question the client could not answer went without its answer (`observe`).
fn reason(e: &AskError) -> Reason {
    match e {
        AskError::Unsupported(_) | AskError::NotInRevision { .. } => Reason::CapabilityMissing,
        AskError::Rejected(_) => Reason::Rejected,
        AskError::Invalid(_) => Reason::Unparsable,
        AskError::Timeout => Reason::TimedOut,
        AskError::Disconnected => Reason::Disconnected,
    }
}

/// Notes that question `key` takes its fallback, and why.
fn fell_back(cx: &Cx, key: &str, kind: AskKind, why: &Short) {
    let reason = match why {
        Short::Missing(missing) if cx.missing_by_policy(missing) => {
            tracing::debug!(
                question = key,
                removed = %cx.removed_by_policy(),
                "taking the fallback: the client policy removed what the question needs"
            );
            Reason::Policy
        }
        Short::Missing(_) => Reason::CapabilityMissing,
        Short::Client(_, reason) => *reason,
    };
    cx.tell(key, kind, Outcome::FellBack(reason));
}

/// `fallback = refuse`: ends the request saying why question `key` got no answer.
async fn refuse(cx: &Cx, key: &str, why: Short) -> ! {
    match why {
        Short::Missing(missing) => {
            let error = if cx.missing_by_policy(&missing) {
                // The client declared it: say why it counts as missing all the same.
                let mut error = Error::missing_capability(&missing);
                error.message.push_str(POLICY_SAYS);
                error
            } else {
                Error::missing_capability_at(&missing, cx.revision())
            };
            cx.end(Ending::Error(error)).await
        }
        Short::Client(why, _) => {
            cx.end(Ending::Failed(format!("Could not ask `{key}`: {why}")))
                .await
        }
    }
}

/// Debug builds render a question twice from the same inputs and compare: a rendering that
/// reads a clock, randomness or anything but its inputs would make answers miss their question
/// on the next round (design §4).
fn check_deterministic(question: &dyn Question, first: &InputRequest, cx: &Cx) {
    let Some(again) = question.render_again(cx.revision()) else {
        return;
    };
    let (a, b) = (
        canonical::to_canonical(&first.to_wire()),
        canonical::to_canonical(&again.to_wire()),
    );
    assert!(
        a == b,
        "question `{}` rendered differently from the same inputs ({a} then {b}): a question function must render from its inputs only (no clock, randomness or I/O)",
        question.key()
    );
}
