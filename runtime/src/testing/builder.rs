//! [`TestClientBuilder`]: the client's settings, and the ways to start one (a [`Server`] on an
//! in-memory pipe, or any peer on a pipe; a child process is in `child.rs`).

use super::wire::{Echo, Peer, Pipe, Reader, Shared, Writer, read_loop};
use super::{Frame, Script, TestClient, Validator};
use crate::handler::Handler;
use crate::protocol::{ClientCapabilities, Error, Implementation, Revision};
use crate::server::Server;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::atomic::AtomicI64;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, BufReader};

/// Starts the server (or reaches the peer) and gives the client's ends of the pipe.
pub(super) type Start = Box<dyn FnOnce() -> Pipe + Send>;

/// Builds a [`TestClient`]. `H` is the handler of the server it starts (`()` for a client of
/// any peer, [`TestClient::over_io`]).
pub struct TestClientBuilder<H> {
    pub(super) start: Start,
    pub(super) handler: PhantomData<fn() -> H>,
    pub(super) lenient: bool,
    pub(super) revision: Revision,
    pub(super) capabilities: ClientCapabilities,
    pub(super) client_info: Implementation,
    pub(super) script: Script,
    pub(super) max_rounds: u32,
    pub(super) timeout: Duration,
    pub(super) check: Validator,
    pub(super) echo: Option<Echo>,
}

impl<H> TestClientBuilder<H> {
    /// The name and version the client gives as its `clientInfo`, in `initialize`
    /// (2025-11-25) and in every request's `_meta` (2026-07-28), to pose as a named host, for
    /// a [client policy](crate::ClientPolicy) (default: `rondo-test-client`, version `0`).
    pub fn client_info(mut self, info: Implementation) -> Self {
        self.client_info = info;
        self
    }
    /// The capabilities the client declares (default: none).
    pub fn capabilities(mut self, caps: ClientCapabilities) -> Self {
        self.capabilities = caps;
        self
    }
    /// The scripted answers.
    pub fn script(mut self, script: Script) -> Self {
        self.script = script;
        self
    }
    /// How many rounds the client follows before giving up (default 8).
    pub fn max_rounds(mut self, rounds: u32) -> Self {
        self.max_rounds = rounds;
        self
    }
    /// How long a request waits for its answer before the test fails (default 10 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
    /// Shows every line sent and received to `echo` as it goes, in the order of the wire (a
    /// server's line as it is read; the client's before it is written): for a test or a demo
    /// that prints its conversation. [`Frame`]'s `Display` is a short form for a reader.
    ///
    /// ```
    /// # use rondo_mcp::prelude::*;
    /// # struct Empty;
    /// # impl Handler for Empty { fn info(&self) -> ServerInfo { ServerInfo::new("empty", "1").with_tools() } }
    /// # #[tokio::main(flavor = "current_thread")] async fn main() {
    /// use rondo_mcp::testing::TestClient;
    /// let client = TestClient::modern(Server::new(Empty))
    ///     .echo(|frame| println!("  {frame}")) // `  client -> {"id":1,...}`, cut at 200 characters
    ///     .connect()
    ///     .await
    ///     .unwrap();
    /// client.list_tools().await.unwrap();
    /// # }
    /// ```
    pub fn echo(mut self, echo: impl Fn(&Frame) + Send + Sync + 'static) -> Self {
        self.echo = Some(Arc::new(echo));
        self
    }
    /// Skips the schema check against the definition `def` (`"CallToolRequest"`,
    /// `"JSONRPCMessage"`, ...) for a test that breaks it on purpose; `reason` says why.
    ///
    /// # Panics
    ///
    /// When the schema of the client's revision has no definition `def`, or `reason` is blank.
    #[track_caller]
    pub fn skip_validation_of(mut self, def: &str, reason: &str) -> Self {
        self.check = self.check.skip_validation_of(def, reason);
        self
    }
    /// A client that reports schema violations and unanswered requests instead of panicking:
    /// the sweep's, which collects them ([`TestClient::take_violations`]) and bounds each call
    /// itself.
    pub(crate) fn lenient(mut self) -> TestClientBuilder<()> {
        self.lenient = true;
        self.erase()
    }
    /// The same builder, for any handler.
    pub(crate) fn erase(self) -> TestClientBuilder<()> {
        TestClientBuilder {
            start: self.start,
            handler: PhantomData,
            lenient: self.lenient,
            revision: self.revision,
            capabilities: self.capabilities,
            script: self.script,
            max_rounds: self.max_rounds,
            timeout: self.timeout,
            check: self.check,
            client_info: self.client_info,
            echo: self.echo,
        }
    }
    /// Starts the server on an in-memory pipe (or takes the peer's pipe) and, at a handshake
    /// revision (2025-11-25 and before), performs the handshake: it fails when the server
    /// answers another protocol version than the client's.
    pub async fn connect(self) -> Result<TestClient, Error> {
        let pipe = (self.start)();
        let shared = Arc::new(Shared {
            writer: tokio::sync::Mutex::new(Some(pipe.writer)),
            echo: self.echo,
            transcript: Mutex::new(Vec::new()),
            check: Mutex::new(self.check),
            pending: Mutex::new(HashMap::new()),
            script: Mutex::new(self.script),
        });
        let reading = tokio::spawn(read_loop(BufReader::new(pipe.reader), shared.clone()));
        let mut client = TestClient {
            peer: Some(pipe.peer),
            reading: Some(reading),
            initialized: None,
            shared,
            revision: self.revision,
            capabilities: self.capabilities,
            client_info: self.client_info,
            next_id: AtomicI64::new(1),
            max_rounds: self.max_rounds,
            timeout: self.timeout,
            lenient: self.lenient,
        };
        if !client.revision.is_modern() {
            let params = json!({
                "protocolVersion": client.revision.as_str(),
                "capabilities": in_revision_words(&client.capabilities, client.revision),
                "clientInfo": client.client_info,
            });
            let result = client.raw_request("initialize", params).await?;
            // As the official clients do: a version other than the one asked for ends it.
            let agreed = result.get("protocolVersion").and_then(Value::as_str);
            if agreed != Some(client.revision.as_str()) {
                return Err(Error::internal(format!(
                    "the server answered protocolVersion {}; this client speaks {}",
                    agreed.unwrap_or("(none)"),
                    client.revision
                )));
            }
            client.initialized = Some(result);
            client.notify("notifications/initialized", json!({})).await;
        }
        Ok(client)
    }
}

impl TestClient {
    /// A 2026-07-28 client.
    pub fn modern<H: Handler>(server: Server<H>) -> TestClientBuilder<H> {
        Self::builder(server, Revision::V2026_07_28)
    }
    /// A 2025-11-25 client.
    pub fn legacy<H: Handler>(server: Server<H>) -> TestClientBuilder<H> {
        Self::builder(server, Revision::V2025_11_25)
    }
    /// A client of `revision`.
    pub fn builder<H: Handler>(server: Server<H>, revision: Revision) -> TestClientBuilder<H> {
        let start: Start = Box::new(move || {
            let (client_io, server_io) = tokio::io::duplex(1 << 16);
            let (server_r, server_w) = tokio::io::split(server_io);
            let serving = tokio::spawn(async move {
                let served = server.serve_io(server_r, server_w).await;
                if let Err(e) = &served {
                    tracing::warn!(error = %e, "test server ended with an error");
                }
                served
            });
            let (client_r, client_w) = tokio::io::split(client_io);
            Pipe {
                reader: Box::pin(client_r),
                writer: Box::pin(client_w),
                peer: Peer::Task(serving),
            }
        });
        Self::starting(start, revision)
    }

    /// A client of `revision` for any peer that speaks newline-delimited JSON-RPC on a pipe:
    /// `output` is what the peer writes, `input` what it reads (a socket, say, or a
    /// hand-written fake of a misbehaving server; for a child process, [`TestClient::spawn`]).
    /// Everything else is as for a client of a [`Server`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() {
    /// use rondo_mcp::protocol::Revision;
    /// use rondo_mcp::testing::TestClient;
    /// // A peer that answers every request with an empty tool list, by hand.
    /// let (client, mut peer) = tokio::io::duplex(4096);
    /// tokio::spawn(async move {
    ///     use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    ///     let (r, mut w) = tokio::io::split(&mut peer);
    ///     let mut lines = BufReader::new(r).lines();
    ///     while let Ok(Some(line)) = lines.next_line().await {
    ///         let req: serde_json::Value = serde_json::from_str(&line).unwrap();
    ///         let answer = serde_json::json!({"jsonrpc": "2.0", "id": req["id"], "result": {
    ///             "resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "private"}});
    ///         w.write_all(format!("{answer}\n").as_bytes()).await.unwrap();
    ///     }
    /// });
    /// let (output, input) = tokio::io::split(client);
    /// let client = TestClient::over_io(Revision::V2026_07_28, output, input)
    ///     .connect()
    ///     .await
    ///     .unwrap();
    /// assert!(client.list_tools().await.unwrap().is_empty());
    /// # }
    /// ```
    pub fn over_io(
        revision: Revision,
        output: impl AsyncRead + Send + 'static,
        input: impl AsyncWrite + Send + 'static,
    ) -> TestClientBuilder<()> {
        let start: Start = Box::new(move || Pipe {
            reader: Box::pin(output) as Reader,
            writer: Box::pin(input) as Writer,
            peer: Peer::Other,
        });
        Self::starting(start, revision)
    }

    pub(super) fn starting<H>(start: Start, revision: Revision) -> TestClientBuilder<H> {
        TestClientBuilder {
            start,
            handler: PhantomData,
            lenient: false,
            revision,
            capabilities: ClientCapabilities::default(),
            client_info: Implementation::new("rondo-test-client", "0"),
            script: Script::new(),
            max_rounds: 8,
            timeout: Duration::from_secs(10),
            check: Validator::new(revision),
            echo: None,
        }
    }
}

/// The capabilities as a client of `revision` declares them: only what its revision has (no
/// elicitation before 2025-06-18, no URL mode, sampling tools, `tasks` or `extensions` before
/// 2025-11-25), and 2025-06-18's form elicitation as `elicitation: {}`, its only mode.
fn in_revision_words(caps: &ClientCapabilities, revision: Revision) -> ClientCapabilities {
    if revision >= Revision::V2025_11_25 {
        return caps.clone();
    }
    let form = caps.elicitation_form();
    let mut caps = caps.clone().read_at(revision);
    if let Some(e) = &mut caps.elicitation {
        *e = Default::default();
    }
    if !form {
        caps.elicitation = None;
    }
    caps
}
