//! [`Sweep`]: every tool, prompt and resource of a server, driven under every combination of
//! the client capabilities a question can need, at both revisions, with clients that accept,
//! decline, cancel, answer garbage and never answer; and what the spec requires checked of
//! every message.

use super::answers::{Answering, expand_template, prompt_arguments, value_for};
use super::capability_set::CapabilitySet;
use super::{Direction, Frame, MAX_PAGES, Script, TestClient, TestClientBuilder};
use crate::handler::Handler;
use crate::protocol::{ClientCapabilities, Error, Implementation, Revision, Tool, code};
use crate::question::POLICY_SAYS;
use crate::question::advertise::ASKS_META_KEY;
use crate::server::Server;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::task::JoinSet;

/// Makes one connection's client builder, for a revision, with the 2025-11-25 answer timeout
/// a server of the sweep's own gets.
type Connect = Arc<dyn Fn(Revision, Duration) -> TestClientBuilder<()> + Send + Sync>;

/// The capability sweep: a server's every tool, prompt and resource, called by clients of both
/// revisions that declare each combination of the capabilities a question can need
/// ([`CapabilitySet::all`]: elicitation form and URL, sampling with and without tools, roots, none)
/// and that answer each question in each way ([`Answering::ALL`]: accept, decline, cancel,
/// garbage, silence). That is 240 clients, each on its own connection, 8 at a time.
///
/// It fails ([`Sweep::run`] panics with a [`Report`]) when the server, for any call:
///
/// - puts a question to a client that did not declare what it needs (down to the elicitation
///   mode, `sampling.tools` and `sampling.context`), or sends it any other request but `ping`;
/// - asks, at 2026-07-28, a question whose key the tool's `tools/list` entry does not
///   advertise under [`ASKS_META_KEY`], or of another kind (when the entry advertises any);
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
/// unless [`Sweep::resource_uri`] gives a URI. A tool whose task support is `required` is
/// left out.
///
/// The sweep of a [`Server`] shortens its 2025-11-25 answer timeout to
/// [`Sweep::ask_timeout`], and the time it waits for a URL-mode flow nobody finishes (no user
/// visits the page) to the same, so a client that never answers costs little; a 2026-07-28
/// client is told to come back for a flow after 100 ms.
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
/// assert_eq!(report.calls(), 240);
/// assert!(report.asked("book", "ask_seat") > 0);
/// // Half the clients cannot show forms.
/// assert_eq!(report.outcomes("book").unwrap().refused, 120);
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
                .flow_budget(ask_timeout.max(Duration::from_millis(100)));
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
            revisions: vec![Revision::V2026_07_28, Revision::V2025_11_25],
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
    /// Only these revisions (default: both).
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
    /// How many rounds a 2026-07-28 client follows before it gives up (default 6).
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

/// One client of the sweep: a revision, what it declares, how it answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Client {
    /// The revision it speaks.
    pub revision: Revision,
    /// The capabilities it declares.
    pub declared: CapabilitySet,
    /// How it answers.
    pub answering: Answering,
}

impl fmt::Display for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a {} client declaring {} that answers by {}",
            self.revision, self.declared, self.answering
        )
    }
}

/// What a sweep found wrong.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The tool, prompt or resource called (empty when the client could not list them).
    pub target: String,
    /// The client that called it.
    pub client: Client,
    /// What is wrong.
    pub problem: String,
    /// The call's messages, `->` sent and `<-` received (each cut at 400 characters; the last
    /// 24 of a longer call).
    pub transcript: Vec<String>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let target = if self.target.is_empty() {
            "listing"
        } else {
            &self.target
        };
        writeln!(f, "`{target}`, for {}: {}", self.client, self.problem)?;
        for line in &self.transcript {
            writeln!(f, "      {line}")?;
        }
        Ok(())
    }
}

/// How the calls of one target ended, and what they asked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// Calls made.
    pub calls: usize,
    /// Complete results (tools: not `isError`).
    pub results: usize,
    /// Tool results with `isError`.
    pub errors: usize,
    /// `-32021`: a capability the target requires was missing.
    pub refused: usize,
    /// Calls the client stopped following, still asked for input.
    pub unfinished: usize,
    /// Other JSON-RPC errors (a failure for a tool; see [`Sweep`] for prompts and resources).
    pub failed: usize,
    /// How often each question was put, by its key (2025-11-25 requests count under their
    /// method).
    pub asked: BTreeMap<String, usize>,
}

/// What a sweep did and found. Its `Display` is a table of every target's outcomes, then the
/// findings.
#[derive(Debug, Clone, Default)]
pub struct Report {
    calls: usize,
    targets: BTreeMap<String, Outcomes>,
    advertised: BTreeMap<String, Vec<Value>>,
    skipped: Vec<String>,
    findings: Vec<Finding>,
}

impl Report {
    /// Calls made, all targets and clients together.
    pub fn calls(&self) -> usize {
        self.calls
    }
    /// What was found wrong; empty for a server that passed.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }
    /// How the calls of `target` ended.
    pub fn outcomes(&self, target: &str) -> Option<&Outcomes> {
        self.targets.get(target)
    }
    /// How often `target` put the question `key`.
    pub fn asked(&self, target: &str, key: &str) -> usize {
        self.targets
            .get(target)
            .and_then(|o| o.asked.get(key))
            .copied()
            .unwrap_or(0)
    }
    /// The questions `tool`'s `tools/list` entry advertises (its [`ASKS_META_KEY`] entries).
    pub fn advertised(&self, tool: &str) -> &[Value] {
        self.advertised.get(tool).map_or(&[], Vec::as_slice)
    }
    /// Advertised questions no client ever got, as `(tool, key)`: a question behind a
    /// condition the sweep's arguments never meet, or one the tool no longer asks.
    pub fn never_asked(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (tool, asks) in &self.advertised {
            for key in asks.iter().filter_map(|a| a["key"].as_str()) {
                if self.asked(tool, key) == 0 {
                    out.push((tool.clone(), key.to_owned()));
                }
            }
        }
        out
    }
    /// Targets left out: skipped by the test, or tools whose task support is `required`.
    pub fn skipped(&self) -> &[String] {
        &self.skipped
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "capability sweep: {} calls", self.calls)?;
        for (target, o) in &self.targets {
            let asked: Vec<String> = o.asked.iter().map(|(k, n)| format!("{k} x{n}")).collect();
            writeln!(
                f,
                "  {target}: {} calls, {} results, {} isError, {} refused, {} unfinished, {} failed; asked {}",
                o.calls,
                o.results,
                o.errors,
                o.refused,
                o.unfinished,
                o.failed,
                if asked.is_empty() {
                    "nothing".to_owned()
                } else {
                    asked.join(", ")
                }
            )?;
        }
        if !self.skipped.is_empty() {
            writeln!(f, "  left out: {}", self.skipped.join(", "))?;
        }
        if !self.findings.is_empty() {
            writeln!(f, "{} findings:", self.findings.len())?;
            for (i, finding) in self.findings.iter().enumerate().take(20) {
                write!(f, "  {}. {finding}", i + 1)?;
            }
            if self.findings.len() > 20 {
                writeln!(f, "  ... and {} more", self.findings.len() - 20)?;
            }
        }
        Ok(())
    }
}

/// What to call: a tool, a prompt or a resource, with what.
#[derive(Debug, Clone)]
enum Target {
    Tool {
        name: String,
        arguments: Value,
        /// The advertised questions, when the entry advertises any.
        asks: Option<Vec<Value>>,
    },
    Prompt {
        name: String,
        arguments: Value,
    },
    Resource {
        /// What the report names it: the URI, or the template it was made from.
        listed: String,
        uri: String,
    },
}

impl Target {
    fn name(&self) -> &str {
        match self {
            Target::Tool { name, .. } | Target::Prompt { name, .. } => name,
            Target::Resource { listed, .. } => listed,
        }
    }
}

/// What one client found.
#[derive(Default)]
struct Run {
    calls: usize,
    targets: BTreeMap<String, Outcomes>,
    advertised: BTreeMap<String, Vec<Value>>,
    skipped: Vec<String>,
    findings: Vec<Finding>,
}

/// The settings one client's run reads.
struct Plan {
    tool_arguments: HashMap<String, Value>,
    prompt_arguments: HashMap<String, Value>,
    resource_uris: HashMap<String, String>,
    skip: HashSet<String>,
    call_timeout: Duration,
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
        let plan = Arc::new(Plan {
            tool_arguments: self.tool_arguments,
            prompt_arguments: self.prompt_arguments,
            resource_uris: self.resource_uris,
            skip: self.skip,
            call_timeout: self.call_timeout,
        });
        let mut clients = Vec::new();
        for &revision in &self.revisions {
            for &declared in &self.declared {
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
                let mut builder = (self.connect)(client.revision, self.ask_timeout);
                if let Some(info) = &self.client_info {
                    builder = builder.client_info(info.clone());
                }
                let builder = builder
                    .capabilities(client.declared.capabilities())
                    .script(script(client))
                    .max_rounds(self.max_rounds)
                    .timeout(self.call_timeout + Duration::from_secs(5))
                    .lenient();
                let plan = plan.clone();
                running.spawn(async move { (i, run_one(builder, client, &plan).await) });
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

fn merge(report: &mut Report, run: Run) {
    report.calls += run.calls;
    for (target, o) in run.targets {
        let into = report.targets.entry(target).or_default();
        into.calls += o.calls;
        into.results += o.results;
        into.errors += o.errors;
        into.refused += o.refused;
        into.unfinished += o.unfinished;
        into.failed += o.failed;
        for (key, n) in o.asked {
            *into.asked.entry(key).or_default() += n;
        }
    }
    report.advertised.extend(run.advertised);
    report.skipped.extend(run.skipped);
    report.findings.extend(run.findings);
}

/// One client: connect, list, call every target, check every call.
async fn run_one(builder: TestClientBuilder<()>, client: Client, plan: &Plan) -> Run {
    let mut run = Run::default();
    let finding = |target: &str, problem: String, transcript: Vec<String>| Finding {
        target: target.to_owned(),
        client,
        problem,
        transcript,
    };
    let c = match tokio::time::timeout(plan.call_timeout, builder.connect()).await {
        Ok(Ok(c)) => c,
        Ok(Err(e)) => {
            let why = format!("could not connect: {}", e.message);
            run.findings.push(finding("", why, Vec::new()));
            return run;
        }
        Err(_) => {
            let why = format!("no answer to `initialize` within {:?}", plan.call_timeout);
            run.findings.push(finding("", why, Vec::new()));
            return run;
        }
    };
    let targets = match tokio::time::timeout(plan.call_timeout, targets(&c, plan, &mut run)).await {
        Ok(Ok(targets)) => targets,
        Ok(Err(e)) => {
            let why = format!("listing failed: {} ({})", e.message, e.code);
            run.findings
                .push(finding("", why, transcript(&c.transcript())));
            return run;
        }
        Err(_) => {
            let why = format!("listing took longer than {:?}", plan.call_timeout);
            run.findings
                .push(finding("", why, transcript(&c.transcript())));
            return run;
        }
    };
    for violation in c.take_violations() {
        run.findings
            .push(finding("", violation.to_string(), Vec::new()));
    }
    for target in targets {
        let start = c.transcript_len();
        let (method, params) = match &target {
            Target::Tool {
                name, arguments, ..
            } => ("tools/call", json!({"name": name, "arguments": arguments})),
            Target::Prompt { name, arguments } => {
                ("prompts/get", json!({"name": name, "arguments": arguments}))
            }
            Target::Resource { uri, .. } => ("resources/read", json!({ "uri": uri })),
        };
        let call = c.call(method, params);
        let outcome = tokio::time::timeout(plan.call_timeout, call).await;
        let frames = c.transcript_since(start);
        run.calls += 1;
        let name = target.name().to_owned();
        let problems = check(&target, client, &outcome, &frames, &mut run, plan);
        let mut problems = problems;
        problems.extend(c.take_violations().iter().map(ToString::to_string));
        if !problems.is_empty() {
            let lines = transcript(&frames);
            for problem in problems {
                run.findings.push(finding(&name, problem, lines.clone()));
            }
        }
    }
    run
}

/// The targets `c` lists: tools (with paging), prompts, resources; those left out noted.
async fn targets(c: &TestClient, plan: &Plan, run: &mut Run) -> Result<Vec<Target>, Error> {
    let mut out = Vec::new();
    // A server without tools does not have `tools/list`.
    let tools = match c.list_tools().await {
        Err(e) if e.code == code::METHOD_NOT_FOUND => Vec::new(),
        listed => listed?,
    };
    for tool in tools {
        if plan.skip.contains(&tool.name) || task_required(&tool) {
            run.skipped.push(tool.name.clone());
            continue;
        }
        let asks = tool
            .meta
            .as_ref()
            .and_then(|m| m.get(ASKS_META_KEY))
            .and_then(Value::as_array)
            .cloned();
        if let Some(asks) = &asks {
            run.advertised.insert(tool.name.clone(), asks.clone());
        }
        let arguments = plan
            .tool_arguments
            .get(&tool.name)
            .cloned()
            .unwrap_or_else(|| value_for(&Value::Object(tool.input_schema.clone())));
        out.push(Target::Tool {
            name: tool.name,
            arguments,
            asks,
        });
    }
    for prompt in list(c, "prompts/list", "prompts").await? {
        let Some(name) = prompt["name"].as_str().map(str::to_owned) else {
            continue;
        };
        if plan.skip.contains(&name) {
            run.skipped.push(name);
            continue;
        }
        let arguments = plan
            .prompt_arguments
            .get(&name)
            .cloned()
            .unwrap_or_else(|| prompt_arguments(&prompt));
        out.push(Target::Prompt { name, arguments });
    }
    for resource in list(c, "resources/list", "resources").await? {
        let Some(uri) = resource["uri"].as_str().map(str::to_owned) else {
            continue;
        };
        if plan.skip.contains(&uri) {
            run.skipped.push(uri);
            continue;
        }
        out.push(Target::Resource {
            listed: uri.clone(),
            uri,
        });
    }
    for template in list(c, "resources/templates/list", "resourceTemplates").await? {
        let Some(listed) = template["uriTemplate"].as_str().map(str::to_owned) else {
            continue;
        };
        if plan.skip.contains(&listed) {
            run.skipped.push(listed);
            continue;
        }
        let uri = plan
            .resource_uris
            .get(&listed)
            .cloned()
            .unwrap_or_else(|| expand_template(&listed));
        out.push(Target::Resource { listed, uri });
    }
    Ok(out)
}

/// Every entry of a paged list; nothing when the server does not have the method.
async fn list(c: &TestClient, method: &str, field: &str) -> Result<Vec<Value>, Error> {
    let mut items = Vec::new();
    let mut params = json!({});
    for _ in 0..MAX_PAGES {
        let page = match c.request(method, params).await {
            Ok(page) => page,
            Err(e) if e.code == code::METHOD_NOT_FOUND => return Ok(items),
            Err(e) => return Err(e),
        };
        items.extend(page[field].as_array().into_iter().flatten().cloned());
        match page.get("nextCursor") {
            Some(next) => params = json!({ "cursor": next }),
            None => return Ok(items),
        }
    }
    Err(Error::internal(format!(
        "{method} gave more than {MAX_PAGES} pages"
    )))
}

/// A tool that can only run as a task: the sweep does not follow tasks.
fn task_required(tool: &Tool) -> bool {
    let schema = serde_json::to_value(tool).unwrap_or_default();
    schema["execution"]["taskSupport"] == "required"
}

/// What is wrong with one call, its outcome counted in `run`.
fn check(
    target: &Target,
    client: Client,
    outcome: &Result<Result<super::Call, Error>, tokio::time::error::Elapsed>,
    frames: &[Frame],
    run: &mut Run,
    plan: &Plan,
) -> Vec<String> {
    let mut problems = Vec::new();
    let tally = run.targets.entry(target.name().to_owned()).or_default();
    tally.calls += 1;
    let is_tool = matches!(target, Target::Tool { .. });
    match outcome {
        Err(_) => problems.push(format!("no answer within {:?}", plan.call_timeout)),
        Ok(Ok(call)) if call.input_required() => tally.unfinished += 1,
        Ok(Ok(call)) if call.is_error() => tally.errors += 1,
        Ok(Ok(_)) => tally.results += 1,
        Ok(Err(e)) if e.code == code::MISSING_REQUIRED_CLIENT_CAPABILITY => {
            tally.refused += 1;
            if let Some(lie) = claims_missing(e, client.declared) {
                problems.push(lie);
            }
        }
        Ok(Err(e)) => {
            tally.failed += 1;
            let generated = match target {
                Target::Tool { name, .. } => !plan.tool_arguments.contains_key(name),
                Target::Prompt { name, .. } => !plan.prompt_arguments.contains_key(name),
                Target::Resource { .. } => false,
            };
            // A prompt or a resource has no `isError`: an error is how it says no, so it is
            // wrong only when the client accepted every question.
            let wrong = is_tool || client.answering == Answering::Accept;
            if wrong {
                let mut why = format!("answered with error {}: {}", e.code, e.message);
                if e.code == code::INVALID_PARAMS && generated {
                    why.push_str(" (the sweep made the arguments from the schema: give it ones that fit with `.arguments(..)` or `.prompt_arguments(..)`)");
                }
                problems.push(why);
            }
        }
    }
    let asks = match target {
        Target::Tool { asks, .. } => asks.as_deref(),
        _ => None,
    };
    for (key, request) in questions(frames) {
        *tally
            .asked
            .entry(
                key.clone()
                    .unwrap_or_else(|| request["method"].as_str().unwrap_or_default().to_owned()),
            )
            .or_default() += 1;
        if let Err(why) = client.declared.permits(&request) {
            problems.push(why);
        }
        if let (Some(key), Some(asks)) = (&key, asks)
            && let Some(why) = unadvertised(key, &request, asks)
        {
            problems.push(why);
        }
    }
    problems
}

/// Why a `-32021` is wrong: it names a capability the client declared.
fn claims_missing(e: &Error, declared: CapabilitySet) -> Option<String> {
    if e.message.ends_with(POLICY_SAYS) {
        return None;
    }
    let named = e.data.as_ref().map(|d| d["requiredCapabilities"].clone());
    let required: ClientCapabilities = named
        .and_then(|r| serde_json::from_value(r).ok())
        .unwrap_or_default();
    let declared_caps = declared.capabilities();
    match declared_caps.missing(&required) {
        Some(_) => None,
        None if required == ClientCapabilities::default() => Some(format!(
            "-32021 without the capabilities it requires: {}",
            e.data
                .as_ref()
                .map_or("no data".to_owned(), Value::to_string)
        )),
        None => Some(format!(
            "-32021 names capabilities the client declared: {}",
            serde_json::to_string(&required).unwrap_or_default()
        )),
    }
}

/// Why the asked `request` under `key` is not what the tool advertises, if so.
fn unadvertised(key: &str, request: &Value, asks: &[Value]) -> Option<String> {
    let Some(entry) = asks.iter().find(|a| a["key"] == key) else {
        let listed: Vec<&str> = asks.iter().filter_map(|a| a["key"].as_str()).collect();
        return Some(format!(
            "asked `{key}`, which its tools/list entry does not advertise (it lists {listed:?})"
        ));
    };
    let method = request["method"].as_str().unwrap_or_default();
    let (kind, mode) = match method {
        "elicitation/create" => (
            "elicitation",
            request["params"]["mode"].as_str().or(Some("form")),
        ),
        "sampling/createMessage" => ("sampling", None),
        "roots/list" => ("roots", None),
        _ => (method, None),
    };
    let same = entry["kind"] == kind && entry["mode"].as_str() == mode;
    (!same).then(|| {
        format!("asked `{key}` as `{method}` {mode:?}, but tools/list advertises it as {entry}")
    })
}

/// Every question in `frames`: 2026-07-28 input requests (with their key) and 2025-11-25
/// requests from the server (without), each as `{method, params}`.
fn questions(frames: &[Frame]) -> Vec<(Option<String>, Value)> {
    let mut out = Vec::new();
    for f in frames.iter().filter(|f| f.direction == Direction::Received) {
        let m = &f.message;
        if m.get("id").is_some() && m.get("method").is_some() {
            out.push((None, json!({"method": m["method"], "params": m["params"]})));
        }
        let asked = m["result"]["inputRequests"]
            .as_object()
            .into_iter()
            .flatten();
        for (key, req) in asked {
            out.push((Some(key.clone()), req.clone()));
        }
    }
    out
}

/// The last 24 frames, one line each, cut at 400 characters.
fn transcript(frames: &[Frame]) -> Vec<String> {
    let skip = frames.len().saturating_sub(24);
    frames[skip..]
        .iter()
        .map(|f| {
            let arrow = match f.direction {
                Direction::Sent => "->",
                Direction::Received => "<-",
            };
            let mut line: String = f.line.chars().take(400).collect();
            if line.len() < f.line.len() {
                line.push('…');
            }
            format!("{arrow} {line}")
        })
        .collect()
}
