//! `cx.ask(q)`: the capability check, rendering (checked for determinism in debug builds),
//! the ask engine, and the fallback.

use super::{AnswerOf, Ask, Failed, Fallback, Read, Rendered};
use crate::canonical;
use crate::cx::{AskError, Cx, Ending, Failure, Reading};
use crate::observe::{Outcome, Reason};
use crate::protocol::{ClientCapabilities, Error, InputRequest};

/// Asks question `Q` with `inputs` (see [`Asking::ask`](super::Asking::ask)).
pub(super) async fn ask<Q: Ask<I>, I>(cx: &Cx, inputs: I) -> AnswerOf<Q, I> {
    let needs = <Q::Rendered as Rendered>::needs();
    if let Some(missing) = cx.client_capabilities().missing(&needs) {
        return fall_back::<Q, I>(cx, inputs, Short::Missing(Box::new(missing))).await;
    }
    let rendered = Q::render(&inputs);
    let mut request = rendered.request(cx.revision());
    if cfg!(debug_assertions) {
        check_deterministic::<Q, I>(&inputs, &request, cx);
    }
    // The tool's arguments are bound into `requestState`, so defaults from them render the
    // same on every round.
    if Q::ARGS_FALLBACK
        && let Some(arguments) = cx.arguments()
    {
        request = rendered.prefilled(request, arguments);
    }
    let specific = request.required_capabilities();
    if let Some(missing) = cx.client_capabilities().missing(&specific) {
        return fall_back::<Q, I>(cx, inputs, Short::Missing(Box::new(missing))).await;
    }
    let read = |sent: &InputRequest, v| match rendered.read(Q::KEY, sent, v) {
        Read::Answer(a) => Reading::Value(a),
        Read::AskAgain(why) => Reading::Again(why),
        Read::Fallback(why) => Reading::Unusable(why),
    };
    let failure = match cx.ask_core(Q::KEY, request, rendered.consent(), read).await {
        Ok(answer) => return answer,
        Err(failure) => failure,
    };
    match failure {
        Failure::Unusable(why) => {
            tracing::warn!(question = Q::KEY, %why, "the answer cannot be used; taking the fallback");
            let why = format!("the client's answer could not be used: {why}");
            fall_back::<Q, I>(cx, inputs, Short::Client(why, Reason::Unparsable)).await
        }
        Failure::Ask(e) => match rendered.failed(Q::KEY, &e) {
            Failed::Fallback => fall_back::<Q, I>(cx, inputs, Short::of(*e)).await,
            Failed::Answer(a) => {
                cx.tell(Q::KEY, Q::META.kind, Outcome::Unanswered(reason(&e)));
                a
            }
            Failed::End(why) => {
                cx.tell(Q::KEY, Q::META.kind, Outcome::Unanswered(reason(&e)));
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

/// Runs the question's fallback; `why` says what a refusal comes to.
async fn fall_back<Q: Ask<I>, I>(cx: &Cx, inputs: I, why: Short) -> AnswerOf<Q, I> {
    let reason = match &why {
        Short::Missing(missing) if cx.missing_by_policy(missing) => {
            tracing::debug!(
                question = Q::KEY,
                removed = %cx.removed_by_policy(),
                "taking the fallback: the client policy removed what the question needs"
            );
            Reason::Policy
        }
        Short::Missing(_) => Reason::CapabilityMissing,
        Short::Client(_, reason) => *reason,
    };
    cx.tell(Q::KEY, Q::META.kind, Outcome::FellBack(reason));
    match Q::fallback(cx, inputs).await {
        Fallback::Answer(a) => a,
        Fallback::End(result) => cx.end(Ending::Result(result)).await,
        Fallback::Refuse => match why {
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
                cx.end(Ending::Failed(format!("Could not ask `{}`: {why}", Q::KEY)))
                    .await
            }
        },
    }
}

/// Debug builds render a question twice from the same inputs and compare: a rendering that
/// reads a clock, randomness or anything but its inputs would make answers miss their question
/// on the next round (design §4).
fn check_deterministic<Q: Ask<I>, I>(inputs: &I, first: &InputRequest, cx: &Cx) {
    let again = Q::render(inputs).request(cx.revision());
    let (a, b) = (
        canonical::to_canonical(&first.to_wire()),
        canonical::to_canonical(&again.to_wire()),
    );
    assert!(
        a == b,
        "question `{}` rendered differently from the same inputs ({a} then {b}): a question function must render from its inputs only (no clock, randomness or I/O)",
        Q::KEY
    );
}
