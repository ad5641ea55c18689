//! A connection task that wakes itself while it runs is polled again at once, instead of
//! going back through the scheduler.
//!
//! hyper's HTTP/1.1 dispatcher hands a request's body to the service through a channel, and
//! the service taking the body's chunk wakes the sender's waker, which is the connection
//! task itself, in the middle of its own poll. tokio treats a task woken while it runs as a
//! yield: when the poll ends, the task goes to the back of the worker's queue and an idle
//! worker is woken (a futex or eventfd write) to steal it. For a request answered in that very
//! poll the second poll finds nothing to do, so every request paid a thread wake-up, and
//! under a few connections the connection often moved to the other core.
//!
//! [`Rewake`] polls the connection with a waker of its own. A wake that arrives while the
//! connection is being polled is only noted, and the connection is polled once more before
//! the task returns; a wake at any other time goes straight to the task's waker. The extra
//! polls are bounded ([`AGAIN`]): past them the wake is passed on, so a connection that
//! keeps waking itself (hyper's own yield after 16 rounds, tokio's cooperative budget) still
//! yields to the other tasks.

use futures_util::task::AtomicWaker;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::task::{Context, Poll, Wake, Waker};

/// Polls in a row that a wake noted during the poll may ask for, before it is passed on to
/// the scheduler.
const AGAIN: usize = 2;

/// Not being polled: a wake goes to the task's waker.
const IDLE: u8 = 0;
/// Being polled: a wake is noted.
const POLLING: u8 = 1;
/// Being polled, and woken meanwhile: poll again.
const WOKEN: u8 = 2;

/// `fut`, whose wakes during its own poll are turned into another poll (see the module).
pub(crate) struct Rewake<F> {
    fut: Pin<Box<F>>,
    shared: Arc<Shared>,
    waker: Waker,
}

struct Shared {
    state: AtomicU8,
    task: AtomicWaker,
}

impl<F: Future> Rewake<F> {
    pub(crate) fn new(fut: F) -> Self {
        let shared = Arc::new(Shared {
            state: AtomicU8::new(IDLE),
            task: AtomicWaker::new(),
        });
        Self {
            fut: Box::pin(fut),
            waker: Waker::from(shared.clone()),
            shared,
        }
    }
}

impl<F: Future> Future for Rewake<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.get_mut();
        this.shared.task.register(cx.waker());
        let mut own = Context::from_waker(&this.waker);
        for _ in 0..=AGAIN {
            this.shared.state.store(POLLING, Ordering::Release);
            let out = this.fut.as_mut().poll(&mut own);
            let was = this.shared.state.swap(IDLE, Ordering::AcqRel);
            if out.is_ready() || was != WOKEN {
                return out;
            }
        }
        // Still waking itself: let the scheduler run the others first.
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

impl Wake for Shared {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        match self
            .state
            .compare_exchange(POLLING, WOKEN, Ordering::AcqRel, Ordering::Acquire)
        {
            // Noted (now or by an earlier wake): the poll under way polls again.
            Ok(_) | Err(WOKEN) => {}
            Err(_) => self.task.wake(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Counts the wakes the scheduler would get.
    #[derive(Default)]
    struct Count(AtomicUsize);

    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    impl Count {
        fn wakes(&self) -> usize {
            self.0.load(Ordering::SeqCst)
        }
    }

    /// Wakes itself on each of its first `wakes` polls and is ready on the next one.
    struct SelfWaking {
        wakes: usize,
        polls: usize,
    }

    impl Future for SelfWaking {
        type Output = usize;

        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<usize> {
            self.polls += 1;
            if self.polls > self.wakes {
                return Poll::Ready(self.polls);
            }
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }

    fn poll_once<F: Future>(fut: &mut Rewake<F>, task: &Arc<Count>) -> Poll<F::Output> {
        let waker = Waker::from(task.clone());
        Pin::new(fut).poll(&mut Context::from_waker(&waker))
    }

    #[test]
    fn a_wake_during_the_poll_polls_again_without_the_scheduler() {
        let task = Arc::new(Count::default());
        let mut fut = Rewake::new(SelfWaking { wakes: 1, polls: 0 });
        assert_eq!(poll_once(&mut fut, &task), Poll::Ready(2));
        assert_eq!(task.wakes(), 0, "the self-wake reached the scheduler");
    }

    #[test]
    fn a_future_that_keeps_waking_itself_still_yields() {
        let task = Arc::new(Count::default());
        let mut fut = Rewake::new(SelfWaking {
            wakes: usize::MAX,
            polls: 0,
        });
        assert_eq!(poll_once(&mut fut, &task), Poll::Pending);
        assert_eq!(fut.fut.polls, AGAIN + 1);
        assert_eq!(task.wakes(), 1, "the yield must be passed on once");
        assert_eq!(poll_once(&mut fut, &task), Poll::Pending);
        assert_eq!(fut.fut.polls, 2 * (AGAIN + 1));
        assert_eq!(task.wakes(), 2);
    }

    #[test]
    fn a_wake_between_polls_goes_to_the_task() {
        let task = Arc::new(Count::default());
        let (tx, rx) = tokio::sync::oneshot::channel::<u8>();
        let mut fut = Rewake::new(rx);
        assert!(poll_once(&mut fut, &task).is_pending());
        assert_eq!(task.wakes(), 0);
        tx.send(7).unwrap();
        assert_eq!(task.wakes(), 1, "a wake while not polled was lost");
        assert!(matches!(poll_once(&mut fut, &task), Poll::Ready(Ok(7))));
    }

    #[test]
    fn a_wake_from_another_thread_is_never_lost() {
        // Races a sender on another thread against the polls: whichever side wins, the
        // receiver ends with every value, and each wait ends by a wake the task saw.
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_time()
            .build()
            .unwrap();
        rt.block_on(async {
            for _ in 0..200 {
                let (tx, rx) = tokio::sync::oneshot::channel::<u8>();
                let sender = tokio::spawn(async move {
                    tokio::task::yield_now().await;
                    tx.send(1).unwrap();
                });
                // Its own task, so nothing but its wake polls it again.
                let receiver = tokio::spawn(Rewake::new(rx));
                let got = tokio::time::timeout(std::time::Duration::from_secs(2), receiver)
                    .await
                    .expect("a wake was lost");
                assert_eq!(got.unwrap().unwrap(), 1);
                sender.await.unwrap();
            }
        });
    }
}
