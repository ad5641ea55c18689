//! What a tool sees of the tasks extension through its context: where an explicitly started
//! task begins ([`Cx::start_task`]), and the task it runs as.

use super::Cx;
use super::ask_state::StartPhase;
use std::task::Poll;

impl Cx {
    /// Makes this call a task here, for a tool declared `#[tool(task = .., task_start =
    /// explicit)]` whose client declared the tasks extension: the `tools/call` is answered
    /// with the new task, and the tool goes on running as it, polled by the client with
    /// `tasks/get`. Everything before this line ran as an ordinary call (its questions asked
    /// by multi-round retries, so it may run more than once: keep effects after it); what
    /// follows runs once. In every other case (a synchronous call, a task started at entry, a
    /// second call) it returns at once.
    pub async fn start_task(&self) {
        {
            let mut asks = self.asks();
            if asks.start != StartPhase::Armed {
                return;
            }
            asks.start = StartPhase::Requested;
        }
        // The driver sees the request after this poll, starts the task and polls the tool
        // again from the task's runner, where this finds the task.
        std::future::poll_fn(|_| {
            if self.asks().task.is_some() {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
        .await
    }

    /// The id of the task this call runs as (`taskId`), if it runs as one.
    pub fn task_id(&self) -> Option<String> {
        self.asks().task.as_ref().map(|t| t.id.to_string())
    }

    /// Says what the task is doing now (`statusMessage` in `tasks/get`), when this call runs as
    /// a task; otherwise nothing. [`Cx::progress`] with a message does the same in a task. At
    /// most one write per `task_poll_interval` (the latest message wins); a message is for
    /// people, not a protocol.
    pub async fn task_status(&self, message: impl Into<String>) {
        let config = &self.req.config;
        let now = self.now_ms();
        let every = u64::try_from(config.tasks.poll_interval.as_millis()).unwrap_or(u64::MAX);
        let id = {
            let mut asks = self.asks();
            let Some(task) = asks.task.as_mut() else {
                return;
            };
            if task
                .status_written_ms
                .is_some_and(|at| now < at.saturating_add(every))
            {
                return;
            }
            task.status_written_ms = Some(now);
            task.id.clone()
        };
        let store = &*config.tasks.store;
        let written = store
            .dyn_set_status_message(&id, &config.tasks.instance, message.into(), now)
            .await;
        if let Err(e) = written {
            tracing::warn!(task = %id, error = %e, "could not set a task's status message");
        }
    }

    /// Whether this call runs as a task: then nothing is sent on the request's stream (the
    /// extension has no progress or log messages for a task; the request was answered).
    pub(crate) fn in_task(&self) -> bool {
        self.asks().task.is_some()
    }
}
