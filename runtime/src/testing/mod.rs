//! An MCP client for testing servers, for either revision.
//!
//! The client talks to the server through the same newline-delimited framing as stdio, over an
//! in-memory pipe ([`TestClient::modern`], [`TestClient::legacy`]), a child process's stdin and
//! stdout ([`TestClient::spawn`]: a server binary, end to end) or any pipe
//! ([`TestClient::over_io`]). It declares the capabilities a test chooses, answers elicitation,
//! sampling and roots questions from a [`Script`], drives the 2026-07-28 multi-round loop, and
//! records every line in both directions ([`TestClient::transcript`]; shown as it goes with
//! [`TestClientBuilder::echo`]). [`TestClient::close`] ends the conversation and checks that the
//! server ends with it.
//!
//! Every line it sends and receives is checked against the official JSON Schema of its revision
//! (bundled with the crate; see [`Validator`] for what is checked against what). A violation
//! fails the test: the call during which it was found panics, and so does
//! [`TestClient::assert_valid`] and dropping the client. A test that breaks the schema on purpose
//! names the definition it breaks and says why, with
//! [`TestClientBuilder::skip_validation_of`]; nothing turns the check off as a whole. Every
//! request waits at most [`TestClientBuilder::timeout`] (10 s by default) for its answer.
//!
//! ```
//! # use rondo_mcp::prelude::*;
//! # struct Echo;
//! # impl Handler for Echo { fn info(&self) -> ServerInfo { ServerInfo::new("echo", "1").with_tools() } }
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! use rondo_mcp::testing::TestClient;
//! let client = TestClient::legacy(Server::new(Echo)).connect().await.unwrap();
//! let tools = client.list_tools().await.unwrap();
//! assert!(tools.is_empty());
//! # }
//! ```

mod answers;
mod builder;
mod call;
mod capability_set;
mod child;
mod clock;
mod frame;
mod schema;
mod script;
mod sweep;
mod tasks;
mod validate;
mod wire;

pub use answers::Answering;
pub use builder::TestClientBuilder;
pub use call::Call;
pub use capability_set::CapabilitySet;
pub use child::CloseError;
pub use clock::ManualClock;
pub use frame::{Direction, Frame};
pub use script::{Reply, Script};
pub use sweep::{Client, Finding, Outcomes, Report, Sweep};
pub use validate::{Validator, Violation};

use crate::protocol::{self, ClientCapabilities, Error, Implementation, RequestId, Revision, Tool};
use crate::protocol::{JsonObject, meta};
use serde_json::{Value, json};
use std::panic::Location;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;
use tokio::sync::oneshot;
use wire::{Peer, Shared, lock};

/// The most pages [`TestClient::list_tools`] follows.
pub const MAX_PAGES: usize = 10_000;

/// An in-memory client connected to a server. See the [module docs](self).
///
/// A tool that asks, tested at both revisions: the client declares form elicitation and answers
/// from its script; at 2026-07-28 the answer comes in a second round, at 2025-11-25 as the
/// answer to a real `elicitation/create` request.
///
/// ```
/// use rondo_mcp::prelude::*;
/// use rondo_mcp::testing::{Reply, Script, TestClient};
/// use rondo_mcp::{Answer, Elicit, Form, elicit, tool, tools};
///
/// #[derive(Elicit)]
/// struct Name {
///     /// Your name
///     name: String,
/// }
///
/// /// Asks for a name.
/// #[elicit(form, fallback = refuse)]
/// fn ask_name() -> Form<Name> {
///     Form::new("Who are you?")
/// }
///
/// /// Greets the user by name.
/// #[tool(asks = [ask_name])]
/// async fn greet(cx: &Cx) -> String {
///     match cx.ask(ask_name()).await {
///         Answer::Accept(n) => format!("Hello, {}!", n.name),
///         _ => "Hello!".into(),
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = || Server::new(Router::new(ServerInfo::new("t", "1")).tools(tools![greet]));
/// let script = || Script::new().elicit(Reply::accept(serde_json::json!({"name": "Ada"})));
/// for (builder, rounds) in [(TestClient::modern(server()), 2), (TestClient::legacy(server()), 1)] {
///     let client = builder
///         .capabilities(ClientCapabilities::with_elicitation_form())
///         .script(script())
///         .connect()
///         .await
///         .unwrap();
///     let call = client.call_tool("greet", serde_json::json!({})).await.unwrap();
///     assert_eq!((call.text().as_str(), call.rounds), ("Hello, Ada!", rounds));
/// }
/// # }
/// ```
pub struct TestClient {
    shared: Arc<Shared>,
    /// What ends when the client [closes](TestClient::close); `None` once it did.
    peer: Option<Peer>,
    /// The task reading the server's output.
    reading: Option<tokio::task::JoinHandle<()>>,
    /// The server's `initialize` result (2025-11-25).
    initialized: Option<Value>,
    revision: Revision,
    capabilities: ClientCapabilities,
    client_info: Implementation,
    next_id: AtomicI64,
    max_rounds: u32,
    timeout: Duration,
    lenient: bool,
}

impl TestClient {
    /// The revision this client speaks.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// The server's answer to `initialize` (its `protocolVersion`, `capabilities`,
    /// `serverInfo`, `instructions`), at 2025-11-25; `None` at 2026-07-28, which has no
    /// handshake.
    pub fn initialize_result(&self) -> Option<&Value> {
        self.initialized.as_ref()
    }

    /// Every line sent and received so far.
    pub fn transcript(&self) -> Vec<Frame> {
        lock(&self.shared.transcript).clone()
    }

    /// How many lines the transcript holds.
    pub(crate) fn transcript_len(&self) -> usize {
        lock(&self.shared.transcript).len()
    }

    /// The lines from the `start`th on.
    pub(crate) fn transcript_since(&self, start: usize) -> Vec<Frame> {
        let all = lock(&self.shared.transcript);
        all.get(start..).unwrap_or_default().to_vec()
    }

    /// Fails (panics) when a line sent or received since the last check violates the schema.
    #[track_caller]
    pub fn assert_valid(&self) {
        lock(&self.shared.check).assert_valid();
    }

    /// The schema violations found since the last check, which no longer fail the test: for a
    /// test of the check itself.
    pub fn take_violations(&self) -> Vec<Violation> {
        lock(&self.shared.check).take_unreported()
    }

    /// The request metadata this client puts in every 2026-07-28 request.
    pub fn request_meta(&self) -> Value {
        json!({
            meta::PROTOCOL_VERSION: self.revision.as_str(),
            meta::CLIENT_CAPABILITIES: self.capabilities,
            meta::CLIENT_INFO: self.client_info,
        })
    }

    /// Sends a request with exactly these params (no `_meta` added) and awaits the answer.
    ///
    /// # Panics
    ///
    /// When no answer comes within the [timeout](TestClientBuilder::timeout), or a line sent or
    /// received so far violates the schema (the message names the caller's line).
    #[track_caller]
    pub fn raw_request(
        &self,
        method: &str,
        params: Value,
    ) -> impl Future<Output = Result<Value, Error>> + Send + '_ {
        let at = Location::caller();
        let method = method.to_owned();
        async move { self.exchange(at, &method, params).await }
    }

    /// Sends a raw line, which need not be valid JSON; it is recorded and checked like every
    /// other line, and the server's answer shows up in the [transcript](TestClient::transcript).
    #[track_caller]
    pub fn raw_line(&self, line: &str) -> impl Future<Output = ()> + Send + '_ {
        let at = Location::caller();
        let line = line.to_owned();
        async move {
            self.shared.send_line(&line).await;
            self.fail_on_violations(at);
        }
    }

    /// Sends a notification.
    #[track_caller]
    pub fn notify(&self, method: &str, params: Value) -> impl Future<Output = ()> + Send + '_ {
        let at = Location::caller();
        let msg = protocol::notification_value(method, params);
        async move {
            self.shared.send(msg).await;
            self.fail_on_violations(at);
        }
    }

    /// Sends a request, adding this client's `_meta` on 2026-07-28 (keys already present win).
    #[track_caller]
    pub fn request(
        &self,
        method: &str,
        params: Value,
    ) -> impl Future<Output = Result<Value, Error>> + Send + '_ {
        let at = Location::caller();
        let method = method.to_owned();
        async move { self.exchange(at, &method, self.with_meta(params)).await }
    }

    /// `tools/list`: every tool, following `nextCursor` from page to page (at most
    /// [`MAX_PAGES`] pages: a server whose cursors never end fails the call).
    #[track_caller]
    pub fn list_tools(&self) -> impl Future<Output = Result<Vec<Tool>, Error>> + Send + '_ {
        let at = Location::caller();
        async move {
            let mut tools = Vec::new();
            let mut params = json!({});
            for _ in 0..MAX_PAGES {
                let r = self
                    .exchange(at, "tools/list", self.with_meta(params))
                    .await?;
                let page: Vec<Tool> = serde_json::from_value(r["tools"].clone())
                    .map_err(|e| Error::internal(e.to_string()))?;
                tools.extend(page);
                match r.get("nextCursor") {
                    Some(next) => params = json!({ "cursor": next }),
                    None => return Ok(tools),
                }
            }
            Err(Error::internal(format!(
                "tools/list gave more than {MAX_PAGES} pages"
            )))
        }
    }

    /// `tools/call`, following 2026-07-28 rounds with scripted answers.
    #[track_caller]
    pub fn call_tool(
        &self,
        name: &str,
        arguments: Value,
    ) -> impl Future<Output = Result<Call, Error>> + Send + '_ {
        let params = call::named(name, arguments);
        self.follow(Location::caller(), "tools/call", params)
    }

    /// `prompts/get`, following rounds.
    #[track_caller]
    pub fn get_prompt(
        &self,
        name: &str,
        arguments: Value,
    ) -> impl Future<Output = Result<Call, Error>> + Send + '_ {
        let params = call::named(name, arguments);
        self.follow(Location::caller(), "prompts/get", params)
    }

    /// `resources/read`, following rounds.
    #[track_caller]
    pub fn read_resource(
        &self,
        uri: &str,
    ) -> impl Future<Output = Result<Call, Error>> + Send + '_ {
        self.follow(Location::caller(), "resources/read", json!({ "uri": uri }))
    }

    /// Sends a multi-round-capable request and follows `InputRequiredResult`s: each round
    /// answers the input requests from the script and retries with the echoed `requestState`.
    #[track_caller]
    pub fn call(
        &self,
        method: &str,
        params: Value,
    ) -> impl Future<Output = Result<Call, Error>> + Send + '_ {
        self.follow(Location::caller(), method, params)
    }

    fn follow(
        &self,
        at: &'static Location<'static>,
        method: &str,
        params: Value,
    ) -> impl Future<Output = Result<Call, Error>> + Send + '_ {
        let method = method.to_owned();
        async move {
            let mut rounds = 1;
            let mut result = self
                .exchange(at, &method, self.with_meta(params.clone()))
                .await?;
            while result.get("resultType").and_then(Value::as_str) == Some("input_required")
                && rounds < self.max_rounds
            {
                let asked = result.get("inputRequests").and_then(Value::as_object);
                let mut responses = JsonObject::new();
                for (key, req) in asked.into_iter().flatten() {
                    let m = req
                        .get("method")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    let put = req.get("params").unwrap_or(&Value::Null);
                    if let Some(Some(Ok(v))) = self
                        .shared
                        .take_reply(m, Some(key), put)
                        .map(|r| r.to_value())
                    {
                        responses.insert(key.clone(), v);
                    }
                }
                let state = result.get("requestState").cloned();
                // Nothing to answer with (or nothing to echo): a real client would stop here.
                if responses.is_empty() && (state.is_none() || asked.is_some_and(|m| !m.is_empty()))
                {
                    break;
                }
                let mut retry = params.clone();
                if !responses.is_empty() {
                    retry["inputResponses"] = Value::Object(responses);
                }
                if let Some(s) = state {
                    retry["requestState"] = s;
                }
                result = self.exchange(at, &method, self.with_meta(retry)).await?;
                rounds += 1;
            }
            Ok(Call { result, rounds })
        }
    }

    /// `params` with this client's `_meta` on 2026-07-28.
    fn with_meta(&self, params: Value) -> Value {
        if self.revision.is_modern() {
            call::with_meta(params, self.request_meta())
        } else {
            params
        }
    }

    /// Sends one request and awaits its answer, failing the test (at `at`) on a timeout or a
    /// schema violation.
    async fn exchange(
        &self,
        at: &'static Location<'static>,
        method: &str,
        params: Value,
    ) -> Result<Value, Error> {
        let id = RequestId::Number(self.next_id.fetch_add(1, Ordering::SeqCst));
        let (tx, rx) = oneshot::channel();
        lock(&self.shared.pending).insert(id.clone(), tx);
        self.shared
            .send(protocol::request_value(&id, method, Some(params)))
            .await;
        let Ok(answer) = tokio::time::timeout(self.timeout, rx).await else {
            lock(&self.shared.pending).remove(&id);
            if self.lenient {
                let why = format!("no answer within {:?}", self.timeout);
                return Err(Error::internal(why));
            }
            let mut why = format!(
                "no answer to `{method}` (id {id}) within {:?}",
                self.timeout
            );
            if let Some(report) = self.unreported() {
                why = format!("{why}\n{report}");
            }
            panic!("{at}: {why}");
        };
        self.fail_on_violations(at);
        answer.unwrap_or_else(|_| Err(Error::internal("no answer")))
    }

    /// Panics, naming `at`, when a line violated the schema since the last report (a lenient
    /// client keeps them for [`TestClient::take_violations`]).
    fn fail_on_violations(&self, at: &'static Location<'static>) {
        if self.lenient {
            return;
        }
        if let Some(report) = self.unreported() {
            panic!("{at}: {report}");
        }
    }

    /// The report of the violations found since the last one, if any.
    fn unreported(&self) -> Option<String> {
        let new = lock(&self.shared.check).take_unreported();
        (!new.is_empty()).then(|| validate::report(self.revision, &new))
    }
}

impl Drop for TestClient {
    /// A violation found after the last call fails the test here (unless it is failing already).
    fn drop(&mut self) {
        if std::thread::panicking() || self.lenient {
            return;
        }
        if let Some(report) = self.unreported() {
            panic!("{report}");
        }
    }
}
