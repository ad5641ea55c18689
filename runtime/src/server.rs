//! [`Server`]: a [`Handler`] plus its configuration, and the whole public API for serving it.
//!
//! This file is the top of the runtime: it builds the engine (`dispatch/`) and delegates to
//! the transports (`stdio.rs`, `http/`), none of which know `Server`.

use crate::config::Config;
use crate::dispatch::Engine;
use crate::handler::Handler;
use crate::notify::Notifier;
use crate::policy::ClientPolicy;
use crate::server_info::ServerInfo;
use crate::shared::SharedState;
use crate::state::{Clock, KeyRing, Ledger, MemoryLedger, MemoryReplayGuard, ReplayGuard};
use crate::tasks::TaskStore;
use std::fmt;
use std::io;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};

/// A server ready to be served over a transport: the [`Handler`] and its settings.
///
/// `Server` is cheap to clone (a few `Arc`s); clones share everything.
pub struct Server<H> {
    engine: Engine<H>,
}

impl<H> Clone for Server<H> {
    fn clone(&self) -> Self {
        Server {
            engine: self.engine.clone(),
        }
    }
}

impl<H> fmt::Debug for Server<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("info", &self.engine.config.info)
            .finish_non_exhaustive()
    }
}

impl<H: Handler> Server<H> {
    /// A server with default settings: a random state key (right for one process; a fleet
    /// must share a ring, see [`Server::state_keys`]), 10-minute state expiry, 16 rounds,
    /// 64 KiB of state, an in-memory replay guard ([`Server::replay_guard`]), 5-minute answers
    /// on 2025-11-25 and 4 MiB messages.
    pub fn new(handler: H) -> Self {
        Server {
            engine: Engine::new(handler),
        }
    }

    fn config(&mut self) -> &mut Config {
        Arc::make_mut(&mut self.engine.config)
    }

    /// Wraps every message the server takes and sends in `layer`, a tower `Layer` (middleware:
    /// an audit log, a rate limit, a policy, `tower::timeout::TimeoutLayer`,
    /// `tower::limit::ConcurrencyLimitLayer`). Each call wraps every layer added before it, as
    /// axum's `Router::layer` does: the layer added last sees a message first. What a layer
    /// sees and may do: [`middleware`](crate::middleware).
    pub fn layer<L>(mut self, layer: L) -> Self
    where
        L: tower::Layer<crate::middleware::Stack>,
        L::Service: tower::Service<crate::middleware::McpRequest, Response = crate::middleware::McpResponse>
            + Clone
            + Send
            + Sync
            + 'static,
        <L::Service as tower::Service<crate::middleware::McpRequest>>::Error:
            Into<crate::middleware::BoxError>,
        <L::Service as tower::Service<crate::middleware::McpRequest>>::Future: Send + 'static,
    {
        let stack = self.config().layers.take();
        self.config().layers = Some(crate::middleware::push(stack, layer));
        self
    }

    /// Whom a connection over a pipe (stdio, [`serve_io`](Server::serve_io)) serves. A pipe
    /// carries no token: the host that started the server is its one user. A server that
    /// knows who that is (from its environment: the account it runs as, a key the host
    /// passed) names them here, and what keys on a principal does so on a pipe too: the
    /// [layers](crate::middleware::McpRequest::principal), `cx.principal()`, the tasks a
    /// principal holds, the binding of `requestState`. Default: none. HTTP takes each
    /// request's principal from its token (or from a layer in front) and ignores this.
    pub fn principal(mut self, principal: crate::Principal) -> Self {
        self.config().pipe_principal = Some(principal);
        self
    }

    /// Serves a custom request method ([`CustomMethod`](crate::CustomMethod)) at every
    /// revision, through the middleware like any request.
    ///
    /// # Panics
    ///
    /// When [`Server::try_method`] refuses it: a core method's name, a name in a core
    /// namespace or none, or one already served. The message says which and what to do.
    pub fn method(self, method: crate::CustomMethod) -> Self {
        self.try_method(method).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Server::method`], with the refusal as an error.
    pub fn try_method(
        mut self,
        method: crate::CustomMethod,
    ) -> Result<Self, crate::ExtensionError> {
        Arc::make_mut(&mut self.engine.extensions).add_method(method)?;
        Ok(self)
    }

    /// Serves an extension ([`Extension`](crate::Extension)): its settings are declared under
    /// `capabilities.extensions` (in `server/discover`, and in `initialize` unless it is
    /// 2026-07-28's only) and its methods served, through the middleware like any request.
    ///
    /// # Panics
    ///
    /// When [`Server::try_extension`] refuses it: an id without a prefix or already served,
    /// or a method [`Server::method`] would refuse. The message says which and what to do.
    pub fn extension(self, extension: crate::Extension) -> Self {
        self.try_extension(extension)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Server::extension`], with the refusal as an error; nothing is registered then.
    pub fn try_extension(
        mut self,
        extension: crate::Extension,
    ) -> Result<Self, crate::ExtensionError> {
        let mut extensions = (*self.engine.extensions).clone();
        extensions.add_extension(extension, &mut self.config().info.capabilities)?;
        self.engine.extensions = Arc::new(extensions);
        Ok(self)
    }

    /// The key ring that seals `requestState`. Every instance behind one load balancer needs
    /// the same ring so any of them can serve any retry, and the same
    /// [shared state](Server::shared_state) so that none serves a round another already took.
    pub fn state_keys(mut self, keys: KeyRing) -> Self {
        let config = self.config();
        config.keys = keys;
        config.fleet.keys_given = true;
        self
    }
    /// What this server shares with the other instances of its fleet: the replay guard, the
    /// task store and the effect ledger of [`Cx::once`](crate::Cx::once), all three at once
    /// (see [`shared`](crate::shared)). With the `redis` feature:
    /// `.shared_state(rondo_mcp::shared::Redis::connect(url).await?)`.
    ///
    /// Without it a fleet that shares a key ring accepts a round replayed on another
    /// instance, and lets each instance do an effect once; such a server logs a warning when
    /// it starts serving.
    pub fn shared_state(mut self, shared: impl Into<SharedState>) -> Self {
        let shared = shared.into();
        let config = self.config();
        config.replay = Some(shared.guard);
        config.tasks.store = shared.tasks;
        config.ledger = shared.ledger;
        config.fleet.guard_local = false;
        config.fleet.ledger_local = false;
        self
    }
    /// Where [`Cx::once`](crate::Cx::once) records the outcome of effects (default: a
    /// [`MemoryLedger`] for this process; [`Server::shared_state`] sets a fleet's).
    pub fn ledger(mut self, ledger: impl Ledger) -> Self {
        let local = is::<MemoryLedger>(&ledger);
        let config = self.config();
        config.ledger = Arc::new(ledger);
        config.fleet.ledger_local = local;
        self
    }
    /// How long a `requestState` is accepted after it was issued.
    pub fn state_ttl(mut self, ttl: Duration) -> Self {
        self.config().state_ttl = ttl;
        self
    }
    /// How many `InputRequiredResult`s one request may answer (default 16); the retry after the
    /// last of them that still asks for input gets `-32602`, telling the client to start again.
    pub fn max_rounds(mut self, rounds: u32) -> Self {
        self.config().max_rounds = rounds;
        self
    }
    /// The guard that takes each sealed round's `requestState` once, so a retry sent again
    /// (by the client, or by whoever captured it) is refused with `-32602` before the handler
    /// runs. The default is a [`MemoryReplayGuard`](crate::state::MemoryReplayGuard) for this
    /// process; a fleet that shares a key ring needs one shared store (see [`ReplayGuard`]).
    pub fn replay_guard(mut self, guard: impl ReplayGuard) -> Self {
        let local = is::<MemoryReplayGuard>(&guard);
        let config = self.config();
        config.replay = Some(Arc::new(guard));
        config.fleet.guard_local = local;
        self
    }
    /// No replay guard: a retry is taken as often as it is sent while its state lives, so a
    /// tool's effects after its last question must be idempotent by
    /// [`Cx::flow_id`](crate::Cx::flow_id) (which they should be anyway).
    pub fn without_replay_guard(mut self) -> Self {
        let config = self.config();
        config.replay = None;
        config.fleet.guard_local = true;
        self
    }
    /// The largest sealed `requestState`, in bytes. The answers it carries count: a retry whose
    /// answers would make it larger is refused with `-32602` naming the cap.
    pub fn max_state_bytes(mut self, bytes: usize) -> Self {
        self.config().max_state_bytes = bytes;
        self
    }
    /// How long a 2025-11-25 server-to-client request waits for its answer.
    pub fn ask_timeout(mut self, timeout: Duration) -> Self {
        self.config().ask_timeout = timeout;
        self
    }
    /// How long one request waits for a URL-mode question's out-of-band flow
    /// ([`UrlFlow::finished`](crate::UrlFlow::finished)) before a 2026-07-28 client is told to
    /// retry (default 20 s). It also paces a client that retries at once.
    pub fn flow_wait(mut self, wait: Duration) -> Self {
        let flow = &mut self.config().flow;
        flow.wait = wait;
        flow.poll = flow.poll.min(wait / 4);
        self
    }
    /// How long such a flow is waited for in all, across retries, before the request fails
    /// (default 15 minutes). Waiting rounds do not count towards [`Server::max_rounds`].
    pub fn flow_budget(mut self, budget: Duration) -> Self {
        self.config().flow.budget = budget;
        self
    }
    /// The largest inbound message, in bytes.
    pub fn max_message_bytes(mut self, bytes: usize) -> Self {
        self.config().max_message_bytes = bytes;
        self
    }
    /// The most requests one stdio connection (`serve_stdio`, [`serve_io`](Server::serve_io))
    /// runs at once, listen streams included (default 1024).
    /// A request beyond it waits, in the order it came, until one of them ends (a cancel of it
    /// drops it unanswered); while the waiting requests' lines add up to
    /// [`max_message_bytes`](Server::max_message_bytes) the reader reads no further, so a
    /// client that writes faster than the server serves is held back by the pipe, never
    /// refused. Over HTTP each request holds a connection, and `http::HttpConfig` bounds those.
    pub fn max_in_flight(mut self, requests: usize) -> Self {
        self.config().max_in_flight = requests;
        self
    }
    /// The most `subscriptions/listen` streams open at once, over every transport together
    /// (default 256). One more is answered at once with `-32603` saying so; the others go on.
    pub fn max_listens(mut self, streams: usize) -> Self {
        self.config().max_listens = streams;
        self
    }
    /// The most resource URIs one listener follows (default 256): a `subscriptions/listen`
    /// whose `resourceSubscriptions` lists more is refused with `-32602`, and so is a
    /// 2025-11-25 `resources/subscribe` beyond it. Each URI may be up to
    /// [`MAX_URI_BYTES`](crate::protocol::MAX_URI_BYTES) long.
    pub fn max_listen_uris(mut self, uris: usize) -> Self {
        self.config().max_listen_uris = uris;
        self
    }
    /// The most tasks one listener follows (default 100, as many as one principal holds by
    /// default): a `subscriptions/listen` whose `taskIds` lists more is refused with `-32602`.
    /// Each followed task is read from the task store whenever it may have changed, and at
    /// least every [`task_poll_interval`](Server::task_poll_interval).
    pub fn max_listen_tasks(mut self, tasks: usize) -> Self {
        self.config().max_listen_tasks = tasks;
        self
    }
    /// The clock for state expiry (tests inject a `testing::ManualClock`).
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.config().clock = clock;
        self
    }
    /// The audience bound into state (default: the server's name).
    pub fn audience(mut self, audience: impl Into<String>) -> Self {
        self.config().audience = audience.into();
        self
    }
    /// Where tasks live (the tasks extension): the default is a
    /// [`MemoryTaskStore`](crate::tasks::MemoryTaskStore) for this process; a fleet behind
    /// one load balancer shares one store (`RedisTaskStore`, feature `redis`), so any instance
    /// answers `tasks/get`, `tasks/update` and `tasks/cancel` for any task. Pass an `Arc` of
    /// the store to keep a handle on it.
    pub fn task_store(mut self, store: impl TaskStore) -> Self {
        self.config().tasks.store = Arc::new(store);
        self
    }
    /// How long a task is kept after it was created (`ttlMs`, default 1 hour). A tool still
    /// running then is dropped, and its task is gone.
    pub fn task_ttl(mut self, ttl: Duration) -> Self {
        self.config().tasks.ttl = ttl;
        self
    }
    /// How often clients are told to poll a task (`pollIntervalMs`, default 1 s); it is also
    /// how often a running task looks at a store that cannot wake it (Redis) for answers and
    /// cancel requests, and a listen stream at the tasks it follows.
    pub fn task_poll_interval(mut self, every: Duration) -> Self {
        self.config().tasks.poll_interval = every.max(Duration::from_millis(1));
        self
    }
    /// How long the lease of the instance running a task holds without renewal (default
    /// 30 s, renewed every third of it). When an instance dies its tasks read `failed` once
    /// the lease lapsed.
    pub fn task_lease(mut self, lease: Duration) -> Self {
        self.config().tasks.lease = lease.max(Duration::from_millis(3));
        self
    }
    /// The most tasks one principal holds at once, live or terminal until they expire
    /// (default 100); one more `tools/call` that would start a task is refused with `-32603`
    /// saying so.
    pub fn max_tasks_per_principal(mut self, n: usize) -> Self {
        self.config().tasks.max_per_principal = n;
        self
    }
    /// The most questions one task may ask in all (default 256); the task that asks one more
    /// ends `failed` with `-32602`.
    pub fn max_task_questions(mut self, n: usize) -> Self {
        self.config().tasks.max_questions = n;
        self
    }
    /// Treats the clients `policy` matches as lacking the capabilities its rules remove, for
    /// hosts that declare elicitation or sampling and never deliver it: their questions take
    /// the fallback at once, at both revisions (see [`ClientPolicy`]). Replaces any earlier
    /// policy; the default has no rules.
    pub fn client_policy(mut self, policy: ClientPolicy) -> Self {
        self.config().client_policy = policy;
        self
    }
    /// The server's description.
    pub fn info(&self) -> &ServerInfo {
        &self.engine.config.info
    }
    /// The handler.
    pub fn handler(&self) -> &H {
        &self.engine.handler
    }
    /// The hub that announces list changes and resource updates to listeners.
    pub fn notifier(&self) -> Notifier {
        self.engine.hub.clone()
    }

    /// Serves this process's stdin and stdout until stdin closes. Logs go to stderr only.
    #[cfg(feature = "stdio")]
    ///
    /// When stdin or stdout is a pipe or a socket (as a client that spawns the server gives
    /// it), it is read and written in non-blocking mode on the runtime's own workers, not on
    /// tokio's blocking thread pool, and put back in blocking mode when serving ends.
    pub async fn serve_stdio(self) -> io::Result<()> {
        let (input, output, restore) = crate::stdio::pipes::open()?;
        let served = self.serve_io(input, output).await;
        restore.run();
        served
    }

    /// Serves newline-delimited JSON-RPC read from `reader` and written to `writer` until
    /// `reader` reaches its end.
    pub async fn serve_io<R, W>(self, reader: R, writer: W) -> io::Result<()>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        // The connection's reader runs as a task of its own, not in the caller's future: under
        // `#[tokio::main]` that future is polled by `block_on` on the main thread, outside the
        // worker pool, and every request would cross from it to a worker and its answer back
        // (two thread wake-ups per call). As a task it runs on a worker, and the requests it
        // spawns start on the same worker.
        self.engine.config.fleet.warn_if_unshared();
        tokio::spawn(crate::stdio::serve_io(self.engine, reader, writer))
            .await
            .map_err(io::Error::other)?
    }

    /// The engine, for the fuzz targets' direct entry point (`fuzzing::Direct`).
    #[cfg(feature = "fuzzing")]
    pub(crate) fn into_engine(self) -> Engine<H> {
        self.engine
    }

    /// This server's Streamable HTTP endpoint (both revisions on one path).
    #[cfg(feature = "http")]
    pub fn into_http(self, config: crate::http::HttpConfig) -> crate::http::McpService<H> {
        self.engine.config.fleet.warn_if_unshared();
        crate::http::McpService::new(self.engine, config)
    }
}

/// Whether `value` is a `T` (the stores that are this process's memory, for the fleet warning).
fn is<T: 'static>(value: &dyn std::any::Any) -> bool {
    value.is::<T>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::meta;
    use serde_json::{Value, json};

    /// The same dispatcher path serves stdio: ack, a filtered change, and nothing after
    /// `notifications/cancelled`.
    #[tokio::test]
    async fn listen_over_newline_framing() {
        use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
        struct H;
        impl Handler for H {
            fn info(&self) -> ServerInfo {
                ServerInfo::new("t", "1").with_tools_list_changed()
            }
        }
        let server = Server::new(H);
        let notifier = server.notifier();
        let (client, end) = tokio::io::duplex(1 << 16);
        let (sr, sw) = tokio::io::split(end);
        let serving = tokio::spawn(server.serve_io(sr, sw));
        let (cr, mut cw) = tokio::io::split(client);
        let mut lines = BufReader::new(cr).lines();
        let limit = std::time::Duration::from_secs(10);
        let mut next = async || -> Option<Value> {
            let line = tokio::time::timeout(limit, lines.next_line())
                .await
                .ok()?
                .ok()??;
            serde_json::from_str(&line).ok()
        };
        let listen = json!({"jsonrpc": "2.0", "id": 5, "method": "subscriptions/listen", "params": {
            "_meta": {meta::PROTOCOL_VERSION: "2026-07-28", meta::CLIENT_CAPABILITIES: {}},
            "notifications": {"toolsListChanged": true, "promptsListChanged": true}}});
        cw.write_all(format!("{listen}\n").as_bytes())
            .await
            .unwrap();
        let ack = next().await.expect("ack");
        assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
        assert_eq!(
            ack["params"]["notifications"],
            json!({"toolsListChanged": true})
        );
        notifier.prompts_list_changed();
        notifier.tools_list_changed();
        let changed = next().await.expect("change");
        assert_eq!(changed["method"], "notifications/tools/list_changed");
        assert_eq!(changed["params"]["_meta"][meta::SUBSCRIPTION_ID], 5);
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                            "params": {"requestId": 5}});
        cw.write_all(format!("{cancel}\n").as_bytes())
            .await
            .unwrap();
        cw.shutdown().await.unwrap();
        assert_eq!(next().await, None, "nothing is sent for a cancelled listen");
        let served = tokio::time::timeout(limit, serving).await;
        assert!(matches!(served, Ok(Ok(Ok(())))));
    }
}
