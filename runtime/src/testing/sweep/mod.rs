//! [`Sweep`]: every tool, prompt and resource of a server, driven under every combination of
//! the client capabilities a question can need, at every revision, with clients that accept,
//! decline, cancel, answer garbage and never answer; and what the spec requires checked of
//! every message.
//!
//! The plan is here (the sweep's settings, its clients, running them); `drive.rs` is one
//! client's run (listing, calling, following rounds and tasks), `check.rs` what is wrong with
//! one call, `plan.rs` what a run is given (how it connects) and gathers, `report.rs` what the
//! sweep reports.

mod check;
mod drive;
mod plan;
mod report;

pub use report::{Client, Finding, Outcomes, Report};

// What the files of this folder use of the test client, named once here.
use super::answers::{Answering, expand_template, prompt_arguments, value_for};
use super::capability_set::CapabilitySet;
use super::{Call, Direction, Frame, MAX_PAGES, Script, TestClient, TestClientBuilder};
use crate::handler::Handler;
use crate::protocol::{Implementation, Revision};
use crate::server::Server;
use drive::run_one;
use plan::{Dial, Plan, Run, merge};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::task::JoinSet;

/// Makes one connection's client builder, for a revision, with the 2025-11-25 answer timeout
/// a server of the sweep's own gets.
type Connect = Arc<dyn Fn(Revision, Duration) -> TestClientBuilder<()> + Send + Sync>;

/// The capability sweep: a server's every tool, prompt and resource, called by clients of every
/// revision that declare each combination of the capabilities a question can need that their
/// revision has ([`CapabilitySet::all`]: elicitation form and URL, sampling with and without
/// tools, roots, none; [`CapabilitySet::declarable_at`]: 24 at 2026-07-28 and 2025-11-25, 8 at
/// 2025-06-18, which has no URL mode and no sampling with tools, 4 at 2025-03-26 and
/// 2024-11-05, which have no elicitation), each in its revision's words
/// ([`CapabilitySet::capabilities_at`]), and that answer each question in each way
/// ([`Answering::ALL`]: accept, decline, cancel, garbage, silence). That is 320 clients, each on
/// its own connection, 8 at a time.
///
/// It fails ([`Sweep::run`] panics with a [`Report`]) when the server, for any call:
///
/// - puts a question to a client that did not declare what it needs (down to the elicitation
///   mode, `sampling.tools` and `sampling.context`), or sends it any other request but `ping`;
/// - asks, at 2026-07-28, a question whose key the listing of the tool, prompt or resource
///   (`tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`) does not
///   advertise under [`ASKS_META_KEY`](crate::ASKS_META_KEY), or of another kind (when the
///   listing advertises any);
/// - answers a tool call with a JSON-RPC error other than `-32021` (a failure the model should
///   read is an `isError` result), or `-32021` naming a capability the client did declare
///   (unless it says the server's [client policy](crate::ClientPolicy) removed it);
///   answers a prompt or a resource with such an error when the client accepted every
///   question (an error is how a prompt or a resource says no to a user who declined);
/// - gives no answer within the [call timeout](Sweep::call_timeout);
/// - sends or provokes a message that breaks the official JSON Schema of the revision.
///
/// Each failure names the target, the revision, the capabilities, the way of answering and the
/// call's transcript. A tool is called with the arguments [`Sweep::arguments`] gives, else with
/// ones made from its input schema (every required property: its default, first choice, a
/// well-formed value of its format, a number within its bounds); a prompt with `"sweep"` for
/// every required argument unless [`Sweep::prompt_arguments`] gives its own; every listed
/// resource is read, and every resource template with `sweep` for each of its variables
/// unless [`Sweep::resource_uri`] gives a URI.
///
/// A tool that runs only as a task (`#[tool(task = required)]`) answers a client that did not
/// declare the tasks extension with `-32021` naming it, which is honest: at 2025-11-25, where
/// the extension does not exist, that is the call's end (`refused`). At 2026-07-28 the client
/// calls it again on a second connection that declares the extension besides its
/// capabilities, follows the call's rounds and then its task through `tasks/get`, answers what
/// the task asks (its `inputRequests`) its way through `tasks/update`, at most
/// [`Sweep::max_rounds`] times, and cancels a task it stopped following (`unfinished`). Every
/// question a task puts is checked like the others (declared, advertised), once however often
/// `tasks/get` shows it; the call counts once, under [`Outcomes::tasks`] too.
///
/// The sweep of a [`Server`] shortens its 2025-11-25 answer timeout to
/// [`Sweep::ask_timeout`], and the time it waits for a URL-mode flow nobody finishes (no user
/// visits the page) to the same, so a client that never answers costs little; a 2026-07-28
/// client is told to come back for a flow after 100 ms, and to poll a task every 20 ms.
///
/// ```
/// use rondo_mcp::prelude::*;
/// use rondo_mcp::testing::Sweep;
/// use rondo_mcp::{Answer, Elicit, Form, elicit, tool, tools};
///
/// #[derive(Elicit)]
/// struct Seat {
///     /// A window seat
///     window: bool,
/// }
///
/// /// Asks where to sit; a client that cannot show the form gets -32021.
/// #[elicit(form, fallback = refuse)]
/// fn ask_seat() -> Form<Seat> {
///     Form::new("Where would you like to sit?")
/// }
///
/// /// Books a seat.
/// #[tool(asks = [ask_seat])]
/// async fn book(cx: &Cx) -> String {
///     match cx.ask(ask_seat()).await {
///         Answer::Accept(s) if s.window => "Window seat booked.".into(),
///         Answer::Accept(_) => "Aisle seat booked.".into(),
///         _ => "No seat booked.".into(),
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let report = Sweep::new(|| Server::new(Router::new(ServerInfo::new("seats", "1")).tools(tools![book])))
///     .run()
///     .await;
/// assert_eq!(report.calls(), 320);
/// assert!(report.asked("book", "ask_seat") > 0);
/// // The clients that cannot show forms: half of those of 2026-07-28, 2025-11-25 and
/// // 2025-06-18 (60 + 60 + 20), and every client of 2025-03-26 and 2024-11-05 (20 + 20).
/// assert_eq!(report.outcomes("book").unwrap().refused, 180);
/// # }
/// ```
#[must_use = "a sweep does nothing until it is run"]
pub struct Sweep {
    connect: Connect,
    tool_arguments: HashMap<String, Value>,
    prompt_arguments: HashMap<String, Value>,
    resource_uris: HashMap<String, String>,
    skip: HashSet<String>,
    revisions: Vec<Revision>,
    declared: Vec<CapabilitySet>,
    answering: Vec<Answering>,
    call_timeout: Duration,
    ask_timeout: Duration,
    max_rounds: u32,
    parallel: usize,
    client_info: Option<Implementation>,
}

impl Sweep {
    /// A sweep of the server `make` builds, a fresh one for each client.
    pub fn new<H: Handler>(make: impl Fn() -> Server<H> + Send + Sync + 'static) -> Sweep {
        let connect: Connect = Arc::new(move |revision, ask_timeout| {
            let server = make()
                .ask_timeout(ask_timeout)
                .flow_wait(Duration::from_millis(100))
                .flow_budget(ask_timeout.max(Duration::from_millis(100)))
                .task_poll_interval(Duration::from_millis(20));
            TestClient::builder(server, revision).erase()
        });
        Sweep::connecting(connect)
    }

    /// A sweep of any peer that speaks newline-delimited JSON-RPC: `connect` opens one
    /// connection and gives its ends (what the peer writes, what it reads), once per client.
    /// The peer's own timeouts stand; give it a [call timeout](Sweep::call_timeout) longer
    /// than its answer timeout.
    pub fn over_io<R, W>(connect: impl Fn() -> (R, W) + Send + Sync + 'static) -> Sweep
    where
        R: AsyncRead + Send + 'static,
        W: AsyncWrite + Send + 'static,
    {
        let connect: Connect = Arc::new(move |revision, _| {
            let (output, input) = connect();
            TestClient::over_io(revision, output, input)
        });
        Sweep::connecting(connect)
    }

    fn connecting(connect: Connect) -> Sweep {
        Sweep {
            connect,
            tool_arguments: HashMap::new(),
            prompt_arguments: HashMap::new(),
            resource_uris: HashMap::new(),
            skip: HashSet::new(),
            revisions: Revision::ALL.into_iter().rev().collect(),
            declared: CapabilitySet::all(),
            answering: Answering::ALL.to_vec(),
            call_timeout: Duration::from_secs(10),
            ask_timeout: Duration::from_millis(500),
            max_rounds: 6,
            parallel: 8,
            client_info: None,
        }
    }
}

/// Setters.
impl Sweep {
    /// Calls `tool` with these arguments instead of ones made from its input schema.
    pub fn arguments(mut self, tool: &str, arguments: Value) -> Sweep {
        self.tool_arguments.insert(tool.to_owned(), arguments);
        self
    }
    /// Gets `prompt` with these arguments instead of `"sweep"` for each required one.
    pub fn prompt_arguments(mut self, prompt: &str, arguments: Value) -> Sweep {
        self.prompt_arguments.insert(prompt.to_owned(), arguments);
        self
    }
    /// Reads `uri` for the resource template `template` (its `uriTemplate` as listed) instead
    /// of the template with `sweep` for each variable.
    pub fn resource_uri(mut self, template: &str, uri: &str) -> Sweep {
        self.resource_uris
            .insert(template.to_owned(), uri.to_owned());
        self
    }
    /// Leaves out the tool, prompt or resource (by URI, or a template by its `uriTemplate`)
    /// with this name.
    pub fn skip(mut self, name: &str) -> Sweep {
        self.skip.insert(name.to_owned());
        self
    }
    /// Only these revisions (default: every one, newest first).
    pub fn revisions(mut self, revisions: impl IntoIterator<Item = Revision>) -> Sweep {
        self.revisions = revisions.into_iter().collect();
        self
    }
    /// Only these combinations of capabilities (default: [`CapabilitySet::all`]).
    pub fn declared(mut self, declared: impl IntoIterator<Item = CapabilitySet>) -> Sweep {
        self.declared = declared.into_iter().collect();
        self
    }
    /// Only these ways of answering (default: [`Answering::ALL`]).
    pub fn answering(mut self, answering: impl IntoIterator<Item = Answering>) -> Sweep {
        self.answering = answering.into_iter().collect();
        self
    }
    /// How long one call may take, all its rounds together, before it counts as a hang
    /// (default 10 s).
    pub fn call_timeout(mut self, timeout: Duration) -> Sweep {
        self.call_timeout = timeout;
        self
    }
    /// The 2025-11-25 answer timeout of a server the sweep builds (default 500 ms): how long a
    /// client that never answers keeps a call waiting.
    pub fn ask_timeout(mut self, timeout: Duration) -> Sweep {
        self.ask_timeout = timeout;
        self
    }
    /// How many rounds a 2026-07-28 client follows before it gives up, and how many
    /// `tasks/update`s it sends one task (default 6).
    pub fn max_rounds(mut self, rounds: u32) -> Sweep {
        self.max_rounds = rounds;
        self
    }
    /// The `clientInfo` every client gives (default: `rondo-test-client`, version `0`): to
    /// sweep as a named host, the one a [client policy](crate::ClientPolicy) matches, say.
    pub fn client_info(mut self, info: Implementation) -> Sweep {
        self.client_info = Some(info);
        self
    }
    /// How many clients run at once (default 8).
    pub fn parallel(mut self, clients: usize) -> Sweep {
        self.parallel = clients.max(1);
        self
    }
}

impl Sweep {
    /// Runs the sweep and returns its report.
    ///
    /// # Panics
    ///
    /// When it found anything wrong: the message is the [`Report`], every finding with its
    /// transcript.
    pub async fn run(self) -> Report {
        let report = self.collect().await;
        assert!(report.findings.is_empty(), "{report}");
        report
    }

    /// Runs the sweep and returns its report, whatever it found.
    pub async fn collect(self) -> Report {
        let dial = Arc::new(Dial {
            connect: self.connect,
            client_info: self.client_info,
            ask_timeout: self.ask_timeout,
            max_rounds: self.max_rounds,
            call_timeout: self.call_timeout,
        });
        let plan = Arc::new(Plan {
            tool_arguments: self.tool_arguments,
            prompt_arguments: self.prompt_arguments,
            resource_uris: self.resource_uris,
            skip: self.skip,
            call_timeout: self.call_timeout,
        });
        let mut clients = Vec::new();
        for &revision in &self.revisions {
            for &declared in self.declared.iter().filter(|d| d.declarable_at(revision)) {
                for &answering in &self.answering {
                    clients.push(Client {
                        revision,
                        declared,
                        answering,
                    });
                }
            }
        }
        // Merged in the order of the clients, whichever ends first, so a report reads the same
        // on every run.
        let mut runs: Vec<Option<Run>> = Vec::new();
        runs.resize_with(clients.len(), || None);
        let mut report = Report::default();
        let mut running = JoinSet::new();
        let mut queue = clients.iter().copied().enumerate();
        loop {
            while running.len() < self.parallel {
                let Some((i, client)) = queue.next() else {
                    break;
                };
                let (plan, dial) = (plan.clone(), dial.clone());
                running.spawn(async move { (i, run_one(&dial, client, &plan).await) });
            }
            let Some(done) = running.join_next().await else {
                break;
            };
            match done {
                Ok((i, run)) => runs[i] = Some(run),
                Err(e) => report.findings.push(Finding {
                    target: String::new(),
                    client: clients[0],
                    problem: format!("a client of the sweep failed: {e}"),
                    transcript: Vec::new(),
                }),
            }
        }
        for run in runs.into_iter().flatten() {
            merge(&mut report, run);
        }
        report.skipped.sort();
        report.skipped.dedup();
        report
    }
}

/// The script of `client`: every question answered the client's way.
fn script(client: Client) -> Script {
    let Client {
        revision,
        answering,
        ..
    } = client;
    Script::new().otherwise(move |method, params| answering.reply(revision, method, params))
}
