//! [`Config`]: the runtime settings every request of a server shares.

use crate::middleware::Stack;
use crate::observe::Labels;
use crate::policy::ClientPolicy;
use crate::server_info::ServerInfo;
use crate::state::{
    Clock, ErasedGuard, ErasedLedger, KeyRing, MemoryLedger, MemoryReplayGuard, SystemClock,
};
use crate::tasks::{DEFAULT_TASKS_PER_PRINCIPAL, ErasedTaskStore, MemoryTaskStore};
use serde_json::value::RawValue;
use std::sync::Arc;
use std::time::Duration;

/// Runtime settings shared by every request of a server. `Server`'s builders set them.
#[derive(Clone)]
pub(crate) struct Config {
    /// Seals and opens `requestState`.
    pub keys: KeyRing,
    /// How long a sealed `requestState` stays valid.
    pub state_ttl: Duration,
    /// Rounds after which a multi-round request is refused.
    pub max_rounds: u32,
    /// Largest sealed `requestState`, in bytes (memo values count).
    pub max_state_bytes: usize,
    /// How long a 2025-11-25 server-to-client request waits for a person to answer.
    pub ask_timeout: Duration,
    /// Largest inbound message, in bytes.
    pub max_message_bytes: usize,
    /// Most requests one stdio connection runs at once.
    pub max_in_flight: usize,
    /// Most `subscriptions/listen` streams open at once, over every transport.
    pub max_listens: usize,
    /// Most resource URIs one listener follows (a listen's `resourceSubscriptions`, a
    /// 2025-11-25 session's `resources/subscribe`s).
    pub max_listen_uris: usize,
    /// Most tasks one listener follows (a listen's `taskIds`).
    pub max_listen_tasks: usize,
    /// Wall clock for expiry.
    pub clock: Arc<dyn Clock>,
    /// Bound into state so another server's state is refused even under a shared key.
    pub audience: String,
    /// How the out-of-band flows of URL-mode questions are waited for.
    pub flow: FlowSettings,
    /// Takes each sealed round once (`None`: replays are not refused).
    pub replay: Option<Arc<dyn ErasedGuard>>,
    /// Where `Cx::once` records the outcome of effects.
    pub ledger: Arc<dyn ErasedLedger>,
    /// What the server shares with the other instances of a fleet, for the warning at start.
    pub fleet: Fleet,
    /// Where tasks live and how they run (the tasks extension).
    pub tasks: TaskSettings,
    /// The clients treated as lacking capabilities they declare (empty: none).
    pub client_policy: ClientPolicy,
    /// The label values the question events and metrics gave out (bounded, `observe`).
    pub labels: Arc<Labels>,
    /// The handler's fixed description.
    pub info: ServerInfo,
    /// `info.implementation` written as JSON text once, for the `_meta.serverInfo` of every
    /// 2026-07-28 result (`info` is set here only and never changed after).
    pub info_text: Box<RawValue>,
    /// The middleware every message passes (`Server::layer`); `None`: none.
    pub layers: Option<Stack>,
}

/// What of a fleet's state a server was configured with: a server given a key ring (so that
/// other instances can open its `requestState`) whose replay guard or effect ledger is this
/// process's memory is warned about when it starts serving (design §19.1).
#[derive(Clone, Default)]
pub(crate) struct Fleet {
    /// A key ring was given (`Server::state_keys`), rather than the random one.
    pub keys_given: bool,
    /// The replay guard is in this process's memory (or there is none).
    pub guard_local: bool,
    /// The effect ledger is in this process's memory.
    pub ledger_local: bool,
    /// The warning was logged (once per server, whatever it serves).
    pub warned: Arc<std::sync::atomic::AtomicBool>,
}

impl Fleet {
    /// Logs, once, that replays across instances are not refused, when that is so.
    pub(crate) fn warn_if_unshared(&self) {
        use std::sync::atomic::Ordering;
        if !self.keys_given || !(self.guard_local || self.ledger_local) {
            return;
        }
        if self.warned.swap(true, Ordering::Relaxed) {
            return;
        }
        let what = match (self.guard_local, self.ledger_local) {
            (true, true) => "its replay guard and its effect ledger (Cx::once) are",
            (true, false) => "its replay guard is",
            _ => "its effect ledger (Cx::once) is",
        };
        tracing::warn!(
            target: "rondo::fleet",
            "this server seals requestState with a key ring it was given, as the instances of a fleet share, \
             but {what} in this process's memory: a round replayed on another instance, or after a restart, \
             is not refused, and an effect may happen once per instance. Share them: \
             Server::shared_state(rondo_mcp::shared::Redis::connect(url).await?) (in the examples: --redis URL \
             or RONDO_REDIS_URL). A single instance that keeps its key across restarts may ignore this."
        );
    }
}

/// How the tasks of a server are stored and run (the tasks extension, design §25).
#[derive(Clone)]
pub(crate) struct TaskSettings {
    /// Where the records live (shared by a fleet, or this process's memory).
    pub store: Arc<dyn ErasedTaskStore>,
    /// How long a task is kept after it was created (`ttlMs`).
    pub ttl: Duration,
    /// How often a client should poll (`pollIntervalMs`); also how often a runner looks at a
    /// store that cannot wake it.
    pub poll_interval: Duration,
    /// How long a running instance's lease holds without renewal.
    pub lease: Duration,
    /// The most tasks one principal holds at once (live or terminal, until they expire).
    pub max_per_principal: usize,
    /// The most questions one task may ask in all.
    pub max_questions: usize,
    /// This server's id as a lease owner (random per `Server`).
    pub instance: String,
}

impl TaskSettings {
    /// The defaults: this process's memory, an hour, polls every second, a 30-second lease,
    /// 100 tasks per principal, 256 questions per task.
    fn new() -> TaskSettings {
        TaskSettings {
            store: Arc::new(MemoryTaskStore::default()),
            ttl: Duration::from_secs(3600),
            poll_interval: Duration::from_secs(1),
            lease: Duration::from_secs(30),
            max_per_principal: DEFAULT_TASKS_PER_PRINCIPAL,
            max_questions: 256,
            instance: crate::state::random_id(),
        }
    }
}

/// How a URL-mode question's out-of-band flow is waited for ([`UrlFlow::finished`](crate::UrlFlow::finished)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FlowSettings {
    /// 2026-07-28: how long one request waits before answering a state-only
    /// `InputRequiredResult`; it also paces a client that retries at once.
    pub wait: Duration,
    /// How long a flow is waited for in all, across rounds; then the request fails.
    pub budget: Duration,
    /// How often the server's check runs while waiting.
    pub poll: Duration,
}

impl FlowSettings {
    /// The defaults: 20 s per request, 15 minutes in all, a check every second.
    fn new() -> FlowSettings {
        FlowSettings {
            wait: Duration::from_secs(20),
            budget: Duration::from_secs(15 * 60),
            poll: Duration::from_secs(1),
        }
    }
}

impl Config {
    /// The defaults for a server described by `info`: a random state key (right for one
    /// process only), 10-minute state expiry, 16 rounds, 64 KiB of state, 5-minute answers on
    /// 2025-11-25, 4 MiB messages, 1024 requests at once on stdio, 256 listen streams following
    /// up to 256 URIs and 100 tasks each, the server's name as the audience, an in-memory replay guard, and
    /// no client policy.
    pub(crate) fn new(info: ServerInfo) -> Config {
        Config {
            keys: KeyRing::random(),
            state_ttl: Duration::from_secs(600),
            max_rounds: 16,
            max_state_bytes: 64 * 1024,
            ask_timeout: Duration::from_secs(300),
            max_message_bytes: 4 * 1024 * 1024,
            max_in_flight: 1024,
            max_listens: 256,
            max_listen_uris: 256,
            max_listen_tasks: DEFAULT_TASKS_PER_PRINCIPAL,
            clock: Arc::new(SystemClock),
            audience: info.implementation.name.clone(),
            flow: FlowSettings::new(),
            replay: Some(Arc::new(MemoryReplayGuard::default())),
            ledger: Arc::new(MemoryLedger::default()),
            fleet: Fleet {
                keys_given: false,
                guard_local: true,
                ledger_local: true,
                warned: Arc::default(),
            },
            tasks: TaskSettings::new(),
            client_policy: ClientPolicy::new(),
            labels: Arc::default(),
            info_text: crate::protocol::info_text(&info.implementation),
            info,
            layers: None,
        }
    }
}
