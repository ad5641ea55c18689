//! The driver: polls a handler's future and reports how it came to an end, reading the
//! request's ask state after every poll that did not finish (design §2).

use super::Answered;
use crate::cx::{Cx, Ending, StartPhase};
use crate::protocol::Error;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};

/// What a handler's future came to.
pub(super) enum Driven<T> {
    /// It returned.
    Done(T),
    /// A 2026-07-28 pass recorded questions: answer `InputRequiredResult`.
    InputRequired,
    /// The handler ended the request through its context ([`Ending`]).
    Ended(Ending),
    /// It panicked, with this message.
    Panicked(String),
    /// The client cancelled the request: nothing may be sent.
    Cancelled,
    /// A `task_start = explicit` tool called `Cx::start_task`: make the call a task, and
    /// hand the (kept) future to its runner.
    StartTask,
    /// In a task: the tool dropped the ask futures of parked questions unanswered; the runner
    /// withdraws them from the record.
    Withdrawn,
}

/// Polls a handler future to completion, a recorded question (2026-07-28), an ending, a panic
/// or cancellation. After every poll that returns `Pending`, the ask state is checked: an
/// ending, or questions recorded in this pass, end the drive, and the caller drops the future
/// (the tool's locals with it). The future is pinned by the caller, in its own frame: taken by
/// value it would be stored twice in this one's, once as the argument and once pinned.
///
/// Cancellation comes first: a request cancelled before a poll is not polled again, unless it
/// is inside [`Cx::once`] (an effect and its record are not torn apart: the drive goes on
/// until it leaves). The wait for it is registered only once the future is pending, so a
/// handler that finishes in its first poll (most do) never touches the token's waiter list.
pub(super) async fn drive<F: Future + ?Sized>(cx: &Cx, mut fut: Pin<&mut F>) -> Driven<F::Output> {
    let token = &cx.req.cancel;
    let mut cancelled = std::pin::pin!(None);
    std::future::poll_fn(|tcx| {
        if token.is_cancelled() && !cx.shielded() {
            return Poll::Ready(Driven::Cancelled);
        }
        if let Poll::Ready(d) = poll_once(cx, fut.as_mut(), tcx) {
            return Poll::Ready(d);
        }
        if cx.shielded() {
            // The handler wakes this drive when its effect moves on.
            return Poll::Pending;
        }
        if cancelled.is_none() {
            cancelled.set(Some(token.cancelled()));
        }
        match cancelled.as_mut().as_pin_mut().map(|c| c.poll(tcx)) {
            Some(Poll::Ready(())) => Poll::Ready(Driven::Cancelled),
            _ => Poll::Pending,
        }
    })
    .await
}

/// Polls `fut` once and reads the ask state after a `Pending`: an ending, questions recorded
/// since the last look, or a requested task start end the wait (the caller decides whether
/// the future is dropped, as `drive` does, or kept, as a task's runner does).
pub(super) fn poll_once<F: Future + ?Sized>(
    cx: &Cx,
    fut: Pin<&mut F>,
    tcx: &mut Context<'_>,
) -> Poll<Driven<F::Output>> {
    match std::panic::catch_unwind(AssertUnwindSafe(|| fut.poll(tcx))) {
        Ok(Poll::Ready(v)) => Poll::Ready(Driven::Done(v)),
        Ok(Poll::Pending) => {
            let mut asks = cx.asks();
            if let Some(ending) = asks.take_ending() {
                Poll::Ready(Driven::Ended(ending))
            } else if !asks.questions.is_empty() {
                Poll::Ready(Driven::InputRequired)
            } else if asks.has_withdrawn() {
                Poll::Ready(Driven::Withdrawn)
            } else if asks.start == StartPhase::Requested {
                Poll::Ready(Driven::StartTask)
            } else {
                Poll::Pending
            }
        }
        Err(payload) => Poll::Ready(Driven::Panicked(panic_message(payload.as_ref()))),
    }
}

/// Polls a request's answer once, where the transport read it, catching a panic: `Ready`
/// when it needed nothing to wait on, `Pending` when the transport must move it to a task.
/// Both transports start every request this way (design §23, "Poll once").
pub(crate) async fn poll_first<F: Future + ?Sized>(
    mut fut: Pin<&mut F>,
) -> std::thread::Result<Poll<F::Output>> {
    std::future::poll_fn(|tcx| {
        Poll::Ready(std::panic::catch_unwind(AssertUnwindSafe(|| {
            fut.as_mut().poll(tcx)
        })))
    })
    .await
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "non-string panic payload".into())
}

/// The answer of an ending, for every method.
pub(super) fn ended(ending: Ending) -> Answered {
    match ending {
        Ending::Error(e) => Err(e),
        Ending::Failed(why) => Err(Error::internal(why)),
        Ending::Result(_) => Err(Error::internal(
            "only a tool can end with a result of its own",
        )),
        Ending::Retry => Err(Error::internal(
            "only a tool, prompt or resource can wait for the client",
        )),
    }
}

/// The non-`Done` ends of a method that cannot ask for input.
pub(super) fn settle<T>(d: Driven<T>) -> Answered {
    match d {
        Driven::Done(_) | Driven::InputRequired | Driven::StartTask | Driven::Withdrawn => Err(
            Error::internal("this method cannot ask the client for input"),
        ),
        Driven::Ended(ending) => ended(ending),
        Driven::Panicked(msg) => {
            tracing::error!(panic = %msg, "handler panicked");
            Err(Error::internal("The handler failed with an internal error"))
        }
        Driven::Cancelled => Ok(None),
    }
}
