//! Running a tool as a task (the tasks extension, design §25): deciding per `tools/call`,
//! creating the task before answering, and the runner that keeps the tool's future alive on
//! this instance until it ends, parks its questions in the store and brings back their
//! answers, renews the lease, and drops the future when the client cancels.

use super::drive::{Driven, drive, poll_once};
use super::rounds::Asking;
use super::{Answered, ClientFacts, Conn, Engine, Parsed};
use crate::backchannel::Outbound;
use crate::config::TaskSettings;
use crate::cx::{AskState, Cx, Ending, StartPhase, TaskLink};
use crate::handler::Handler;
use crate::observe::Pass;
use crate::protocol::{
    self, CallToolResult, ClientCapabilities, Error, Method, RequestId, TASKS_EXTENSION,
    TargetParams,
};
use crate::tasks::wire::TaskResult;
use crate::tasks::{
    ErasedTaskStore, Lease, Renewal, Settle, StoreError, TaskId, TaskRecord, TaskStore,
};
use crate::tools::{BoxFuture, TaskStart, TaskSupport};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// A tool's future, owned by whoever runs it: the request's driver, then the task's runner.
type ToolFuture = BoxFuture<'static, Result<CallToolResult, Error>>;

/// How one `tools/call` runs.
pub(super) enum TaskCall {
    /// An ordinary (multi-round) call.
    Sync,
    /// `-32021`: the tool runs only as a task and the request did not declare the extension.
    Refuse,
    /// As a task, started where the tool says.
    Task(TaskStart),
}

/// The message of a task whose server shut down before it finished.
const SHUTDOWN_MESSAGE: &str = "The server shut down before this task finished";

/// The error of a `tools/call` that needs the tasks extension.
pub(super) fn needs_tasks() -> Error {
    Error::missing_capability(&ClientCapabilities::with_extension(TASKS_EXTENSION))
}

/// The error a client sees when the store failed (its message is safe to show).
pub(super) fn store_error(e: StoreError) -> Error {
    tracing::warn!(error = %e, "the task store failed");
    Error::internal(e.to_string())
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl<H: Handler> Engine<H> {
    /// How the `tools/call` of `tool` runs: the tool's task mode, whether the server
    /// advertises the extension, and whether this request declared it (2026-07-28 only).
    pub(super) fn task_call(&self, facts: &ClientFacts, tool: &str) -> TaskCall {
        let Some(mode) = self.handler.tool_task(tool) else {
            return TaskCall::Sync;
        };
        if !self.config.info.serves_tasks() {
            tracing::warn!(
                tool,
                "the tool has a task mode but the server does not advertise the tasks extension (ServerInfo::with_tasks); it runs synchronously"
            );
            return TaskCall::Sync;
        }
        let declared =
            facts.revision.is_modern() && facts.capabilities().declares_extension(TASKS_EXTENSION);
        match (declared, mode.support) {
            (true, _) => TaskCall::Task(mode.start),
            (false, TaskSupport::Optional) => TaskCall::Sync,
            (false, TaskSupport::Required) => TaskCall::Refuse,
        }
    }

    /// Serves the `tools/call` of a task-capable tool whose request declared the extension.
    /// Started at entry: the task is created and answered before the tool runs. Started
    /// explicitly: the call runs as an ordinary multi-round call until the tool calls
    /// `Cx::start_task`, and the same future then goes on as the task.
    pub(super) async fn call_as_task(
        &self,
        id: RequestId,
        method: Method,
        conn: &Conn,
        facts: ClientFacts,
        mut params: TargetParams,
        start: TaskStart,
    ) -> Answered {
        let (asks, round, flow) = match start {
            // A task takes answers only through `tasks/update`.
            TaskStart::Entry => (
                AskState::asking(Default::default(), Default::default()),
                0,
                None,
            ),
            TaskStart::Explicit => {
                let bound = self.open_rounds(&method, conn, &facts, &mut params).await?;
                (bound.asks, bound.round, bound.flow)
            }
        };
        let parsed = Parsed {
            id,
            method,
            target: Some(params.target),
            arguments: params.arguments,
            round,
            flow: None,
        };
        let mut facts = self.facts(parsed, conn, facts);
        // The task outlives the request, whose stream may close once it is answered: its
        // tool sees a token of its own, cancelled when the task is, and holds no sender of the
        // request's stream (which would keep an HTTP response open). So nothing is sent on
        // the stream by a task-capable call, also before an explicit start: the extension
        // has no progress or log messages for a task.
        facts.cancel = CancellationToken::new();
        facts.out = Outbound::closed();
        // A task cannot answer with an HTTP status: `cx.require_scopes` fails it instead.
        facts.step_up = None;
        let mut asks = asks;
        if start == TaskStart::Explicit {
            asks.start = StartPhase::Armed;
        }
        let cx = Arc::new(Cx::new(Arc::new(facts), asks, flow));
        let handler = self.handler.clone();
        let tool_cx = cx.clone();
        let mut fut: ToolFuture =
            Box::pin(async move { CallToolResult::run(&*handler, &tool_cx).await });
        if start == TaskStart::Explicit {
            let before = tokio::select! {
                biased;
                _ = conn.cancel.cancelled() => Driven::Cancelled,
                d = drive(&cx, fut.as_mut()) => d,
            };
            let before = match before {
                Driven::StartTask => Driven::StartTask,
                Driven::Panicked(msg) => CallToolResult::panicked(cx.target(), msg),
                other => other,
            };
            if !matches!(before, Driven::StartTask) {
                return self.finish_rounds(&cx, before);
            }
        }
        self.start_task(cx, fut).await
    }

    /// Creates the task (durable before it is answered, so `tasks/get` finds it at once),
    /// switches the context into it and spawns its runner with the tool's future.
    async fn start_task(&self, cx: Arc<Cx>, fut: ToolFuture) -> Answered {
        let s = &self.config.tasks;
        let now = self.config.clock.now_ms();
        let lease = Lease {
            owner: s.instance.clone(),
            until_ms: now.saturating_add(ms(s.lease)),
        };
        let principal = cx.principal().map(|p| p.key().to_owned());
        let record = TaskRecord::new(
            principal,
            cx.target(),
            now,
            ms(s.ttl),
            ms(s.poll_interval),
            lease,
        );
        s.store
            .create(&record, s.max_per_principal)
            .await
            .map_err(store_error)?;
        // What the call decided up to here stands: the same future goes on as the task.
        cx.tell_pass(Pass::Whole);
        {
            let mut asks = cx.asks();
            asks.task = Some(TaskLink::new(record.id.clone()));
            asks.start = StartPhase::No;
            asks.unbound.clear();
            asks.questions.clear();
        }
        tracing::info!(task = %record.id, tool = cx.target(), "task started");
        let runner = Runner {
            engine: self.clone(),
            settings: s.clone(),
            cx,
            id: record.id.clone(),
            fut,
        };
        tokio::spawn(runner.run());
        protocol::write(&TaskResult::created(&record, &self.config.info_text)).map(Some)
    }
}

/// The runner of one task: owns the tool's future on the instance that created the task.
struct Runner<H> {
    engine: Engine<H>,
    settings: TaskSettings,
    cx: Arc<Cx>,
    id: TaskId,
    fut: ToolFuture,
}

/// What one turn of the runner's loop saw.
enum Turn {
    /// The server is shutting down.
    Shutdown,
    /// The tool's future moved on.
    Tool(Driven<Result<CallToolResult, Error>>),
    /// Time to renew the lease.
    Renew,
    /// The record may have changed (answers, a cancel request), or a poll interval passed.
    Look,
}

/// What a look at the record decided.
enum Look {
    /// Go on.
    Go,
    /// Stop without settling: the task is gone, terminal or no longer ours.
    Stop,
    /// The client cancelled it.
    Cancel,
}

impl<H: Handler> Runner<H> {
    async fn run(self) {
        let Runner {
            engine,
            settings,
            cx,
            id,
            mut fut,
        } = self;
        let store = &*settings.store;
        let owner = settings.instance.as_str();
        let renew_every = (settings.lease / 3).max(Duration::from_millis(1));
        let mut renew_at = Instant::now() + renew_every;
        let end = loop {
            let turn = tokio::select! {
                biased;
                _ = engine.hub.closing() => Turn::Shutdown,
                d = std::future::poll_fn(|tcx| poll_once(&cx, fut.as_mut(), tcx)) => Turn::Tool(d),
                _ = tokio::time::sleep_until(renew_at) => Turn::Renew,
                _ = store.dyn_wait_change(&id, settings.poll_interval) => Turn::Look,
            };
            let now = engine.config.clock.now_ms();
            match turn {
                Turn::Shutdown => break Some(Settle::Failed(Error::internal(SHUTDOWN_MESSAGE))),
                Turn::Tool(Driven::InputRequired | Driven::Withdrawn) => {
                    let (wire, withdrawn, issued) = {
                        let mut asks = cx.asks();
                        let wire = asks.park_recorded();
                        let withdrawn = asks.take_withdrawn();
                        let issued = asks.task.as_ref().map_or(0, |t| t.issued.len());
                        (wire, withdrawn, issued)
                    };
                    if issued > settings.max_questions {
                        break Some(Settle::Failed(Error::invalid_params(format!(
                            "The task asked more than {} questions",
                            settings.max_questions
                        ))));
                    }
                    // New questions are parked before withdrawn ones leave, so a task that
                    // swapped one question for another never shows `working` in between.
                    let parked = if wire.is_empty() {
                        Ok(true)
                    } else {
                        // A task's future is never run again: what it decided is told now.
                        cx.tell_pass(Pass::Whole);
                        store.dyn_park(&id, owner, wire, now).await
                    };
                    let kept = match parked {
                        Ok(true) if !withdrawn.is_empty() => {
                            store.dyn_withdraw(&id, owner, withdrawn, now).await
                        }
                        other => other,
                    };
                    match kept {
                        Ok(true) => {}
                        Ok(false) => break None,
                        Err(e) => break Some(Settle::Failed(store_error(e))),
                    }
                }
                Turn::Tool(d) => break Some(outcome(&cx, d)),
                Turn::Renew => {
                    let until = now.saturating_add(ms(settings.lease));
                    match store.dyn_renew_lease(&id, owner, until, now).await {
                        Ok(Renewal::Held {
                            cancel_requested: true,
                        }) => break Some(Settle::Cancelled),
                        Ok(Renewal::Held { .. }) => renew_at = Instant::now() + renew_every,
                        Ok(Renewal::Lost) => break None,
                        Err(e) => {
                            tracing::warn!(task = %id, error = %e, "could not renew a task's lease");
                            renew_at = Instant::now() + renew_every / 4;
                        }
                    }
                }
                Turn::Look => match look(store, &cx, &id, owner, now).await {
                    Look::Go => {}
                    Look::Stop => break None,
                    Look::Cancel => break Some(Settle::Cancelled),
                },
            }
        };
        cx.tell_pass(Pass::Whole);
        // The tool's locals go first: a cancelled task's future is dropped, not finished.
        cx.req.cancel.cancel();
        drop(fut);
        if let Some(end) = end {
            settle(&engine, store, &id, owner, end).await;
        }
    }
}

/// Reads the record: gone or not ours → stop; cancel requested → cancel; answers → taken and
/// handed to the tool's waiting asks.
async fn look(store: &dyn ErasedTaskStore, cx: &Cx, id: &TaskId, owner: &str, now: u64) -> Look {
    let record = match store.dyn_load(id, now).await {
        Ok(Some(r)) => r,
        Ok(None) => return Look::Stop,
        Err(e) => {
            tracing::warn!(task = %id, error = %e, "could not read a running task");
            return Look::Go;
        }
    };
    let ours = record.lease.as_ref().is_some_and(|l| l.owner == owner);
    if record.status.is_terminal() || !ours {
        return Look::Stop;
    }
    if record.cancel_requested {
        return Look::Cancel;
    }
    if record.answers.is_empty() {
        return Look::Go;
    }
    match store.dyn_take_answers(id, owner, now).await {
        Ok(Some(answers)) => {
            let mut asks = cx.asks();
            if asks.inject(answers) > 0
                && let Some(task) = &asks.task
            {
                task.notify.notify_waiters();
            }
            Look::Go
        }
        Ok(None) => Look::Stop,
        Err(e) => {
            tracing::warn!(task = %id, error = %e, "could not take a task's answers");
            Look::Go
        }
    }
}

/// How the tool's end settles its task (design §25): a result, also an `isError` one, is
/// `completed`; a JSON-RPC error is `failed`; a panic is an `isError` result.
fn outcome(cx: &Cx, d: Driven<Result<CallToolResult, Error>>) -> Settle {
    let d = match d {
        Driven::Panicked(msg) => CallToolResult::panicked(cx.target(), msg),
        other => other,
    };
    let result = match d {
        Driven::Done(Ok(result)) => result,
        Driven::Done(Err(e)) | Driven::Ended(Ending::Error(e)) => return Settle::Failed(e),
        Driven::Ended(ending) => match CallToolResult::ends_with(ending) {
            Ok(result) => result,
            Err(_) => return Settle::Failed(Error::internal("the tool ended without a result")),
        },
        _ => return Settle::Failed(Error::internal("the tool ended without a result")),
    };
    match serde_json::to_value(&result) {
        Ok(mut v) => {
            if let Some(obj) = v.as_object_mut() {
                obj.insert("resultType".into(), "complete".into());
            }
            Settle::Completed(v)
        }
        Err(e) => Settle::Failed(Error::internal(format!(
            "the tool's result could not be written: {e}"
        ))),
    }
}

/// Settles the task, trying again a few times when the store fails (after that the lease
/// lapses and any reader settles it `failed`).
async fn settle<H>(
    engine: &Engine<H>,
    store: &dyn ErasedTaskStore,
    id: &TaskId,
    owner: &str,
    end: Settle,
) {
    let mut pause = Duration::from_millis(50);
    for _ in 0..6 {
        let now = engine.config.clock.now_ms();
        match store.dyn_settle(id, owner, end.clone(), now).await {
            Ok(settled) => {
                tracing::info!(task = %id, settled, "task ended");
                return;
            }
            Err(e) => {
                tracing::warn!(task = %id, error = %e, "could not settle a task; trying again");
                tokio::time::sleep(pause).await;
                pause *= 2;
            }
        }
    }
}
