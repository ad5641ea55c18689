//! `cx.ask(q)`: the capability check, rendering (checked for determinism in debug builds),
//! the ask engine, and the fallback.

use super::{AnswerOf, Ask, Failed, Fallback, Read, Rendered};
use crate::canonical;
use crate::cx::{Cx, Ending, Failure, Reading};
use crate::protocol::{Error, InputRequest};

/// Asks question `Q` with `inputs` (see [`Asking::ask`](super::Asking::ask)).
pub(super) async fn ask<Q: Ask<I>, I>(cx: &Cx, inputs: I) -> AnswerOf<Q, I> {
    let needs = <Q::Rendered as Rendered>::needs();
    if cx.client_capabilities().missing(&needs).is_some() {
        return fall_back::<Q, I>(cx, inputs, &needs).await;
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
    if cx.client_capabilities().missing(&specific).is_some() {
        return fall_back::<Q, I>(cx, inputs, &specific).await;
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
            fall_back::<Q, I>(cx, inputs, &specific).await
        }
        Failure::Ask(e) => match rendered.failed(Q::KEY, &e) {
            Failed::Fallback => fall_back::<Q, I>(cx, inputs, &specific).await,
            Failed::Answer(a) => a,
            Failed::End(why) => cx.end(Ending::Failed(why)).await,
        },
    }
}

/// Runs the question's fallback; `needs` is what the question needed, for `refuse`.
async fn fall_back<Q: Ask<I>, I>(
    cx: &Cx,
    inputs: I,
    needs: &crate::protocol::ClientCapabilities,
) -> AnswerOf<Q, I> {
    match Q::fallback(cx, inputs).await {
        Fallback::Answer(a) => a,
        Fallback::End(result) => cx.end(Ending::Result(result)).await,
        Fallback::Refuse => {
            let missing = cx
                .client_capabilities()
                .missing(needs)
                .unwrap_or_else(|| needs.clone());
            cx.end(Ending::Error(Error::missing_capability(&missing)))
                .await
        }
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
