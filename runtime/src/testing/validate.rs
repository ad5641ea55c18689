//! Checking a conversation against the official JSON Schema of its revision, message by
//! message, from the client's side.

use super::Direction;
use super::schema::{ErrorScope, Party, Schema, schema};
use crate::protocol::Revision;
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;

/// Checks every line of one conversation (a connection, a 2025-11-25 session, or one HTTP
/// exchange) against the official JSON Schema of its revision, bundled with the crate.
///
/// Each line must be one JSON-RPC message, checked against its envelope (`JSONRPCRequest`,
/// `JSONRPCNotification`, `JSONRPCResultResponse`, `JSONRPCErrorResponse`) and its specific
/// definition:
///
/// - a request or notification by its method, among those its sender may send (the
///   `ClientRequest`, `ServerRequest`, `ClientNotification` and `ServerNotification` unions;
///   a method outside them is a violation of the union);
/// - a result by the request it answers (`CallToolRequest` is answered by `CallToolResult`, a
///   request without a result type of its own by `EmptyResult`), or `InputRequiredResult` when
///   its `resultType` says so, which only the requests whose params carry `inputResponses` may
///   receive;
/// - an error by the definition of its code where the schema has one (2026-07-28:
///   `ParseError`, `InvalidParamsError`, `MissingRequiredClientCapabilityError`, ...);
/// - a response must answer a request in flight in the other direction (else `JSONRPCResponse`).
///
/// A line that is not JSON, or JSON that is not one message, violates `JSONRPCMessage`.
///
/// Where the generated `schema.json` is narrower than the normative `schema.ts` (elicitation
/// answers' `content` values and 2026-07-28's `JSONValue` lack non-integral numbers, and
/// `JSONValue` lacks `null`), the check follows `schema.ts`.
///
/// ```
/// use rondo_mcp::protocol::Revision;
/// use rondo_mcp::testing::Validator;
/// let mut v = Validator::new(Revision::V2026_07_28);
/// v.sent(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{
///     "io.modelcontextprotocol/protocolVersion":"2026-07-28",
///     "io.modelcontextprotocol/clientCapabilities":{}}}}"#);
/// v.received(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[]}}"#);
/// // `tools/list` results must carry `ttlMs` and `cacheScope` at 2026-07-28.
/// assert_eq!(v.violations()[0].def, "ListToolsResult");
/// # v.take_unreported();
/// ```
#[derive(Debug)]
pub struct Validator {
    revision: Revision,
    schema: &'static Schema,
    skipped: Vec<(String, String)>,
    /// Requests in flight: who sent it and its id (as JSON text) -> its definition, if the
    /// method has one.
    open: HashMap<(Party, String), Option<String>>,
    violations: Vec<Violation>,
    reported: usize,
    checked: usize,
}

/// A message that does not satisfy the definition it must.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Which way the message went.
    pub direction: Direction,
    /// The schema definition it violates (`CallToolResult`, `JSONRPCMessage`, ...).
    pub def: String,
    /// The line as it went over the wire.
    pub line: String,
    /// What is wrong, each with where in the message.
    pub errors: Vec<String>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = match self.direction {
            Direction::Sent => "sent",
            Direction::Received => "received",
        };
        let mut line: String = self.line.chars().take(600).collect();
        if line.len() < self.line.len() {
            line.push('…');
        }
        write!(f, "{who} message violates `{}`: ", self.def)?;
        write!(f, "{}\n    {line}", self.errors.join("; "))
    }
}

impl Validator {
    /// A validator for a conversation at `revision`.
    pub fn new(revision: Revision) -> Self {
        Validator {
            revision,
            schema: schema(revision),
            skipped: Vec::new(),
            open: HashMap::new(),
            violations: Vec::new(),
            reported: 0,
            checked: 0,
        }
    }

    /// Skips checks against the definition `def` in this conversation, for a test that breaks
    /// it on purpose; `reason` says why. There is no way to skip everything.
    ///
    /// # Panics
    ///
    /// When the schema of this revision has no definition `def`, or `reason` is blank.
    pub fn skip_validation_of(mut self, def: &str, reason: &str) -> Self {
        let rev = self.revision;
        assert!(
            self.schema.has(def),
            "skip_validation_of: the {rev} schema has no definition `{def}`"
        );
        assert!(
            !reason.trim().is_empty(),
            "skip_validation_of(\"{def}\", ..): say why the test breaks it"
        );
        self.skipped.push((def.to_owned(), reason.to_owned()));
        self
    }

    /// Checks one value against the definition `def` of the official schema of `revision`
    /// (for example a rendered form inside `ElicitRequestFormParams`); the errors otherwise.
    pub fn check_def(revision: Revision, def: &str, instance: &Value) -> Result<(), String> {
        schema(revision)
            .check(def, instance)
            .map_err(|errors| format!("{def} ({revision}): {}\n{instance:#}", errors.join("; ")))
    }

    /// The revision checked against.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// Checks a line the client sent (without its newline).
    pub fn sent(&mut self, line: impl AsRef<[u8]>) {
        self.line(Direction::Sent, line.as_ref());
    }

    /// Checks a line the client received (without its newline).
    pub fn received(&mut self, line: impl AsRef<[u8]>) {
        self.line(Direction::Received, line.as_ref());
    }

    /// How many lines were checked.
    pub fn checked(&self) -> usize {
        self.checked
    }

    /// Every violation found so far.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// The violations found since the last call (or [`Validator::assert_valid`]).
    pub fn take_unreported(&mut self) -> Vec<Violation> {
        let new = self.violations[self.reported..].to_vec();
        self.reported = self.violations.len();
        new
    }

    /// Fails (panics) when a line checked since the last report violates the schema.
    #[track_caller]
    pub fn assert_valid(&mut self) {
        let new = self.take_unreported();
        if !new.is_empty() {
            panic!("{}", report(self.revision, &new));
        }
    }

    fn line(&mut self, dir: Direction, bytes: &[u8]) {
        self.checked += 1;
        let text = String::from_utf8_lossy(bytes);
        let line = text.trim_end_matches(['\n', '\r']);
        let parsed = match std::str::from_utf8(bytes) {
            Err(_) => Err("not UTF-8".to_owned()),
            Ok(s) => serde_json::from_str::<Value>(s).map_err(|e| format!("not JSON: {e}")),
        };
        match parsed {
            Ok(msg) => self.message(dir, &msg, line),
            Err(why) => self.violate(dir, "JSONRPCMessage", line, vec![why]),
        }
    }

    fn message(&mut self, dir: Direction, msg: &Value, line: &str) {
        // 2025-03-26 has batches: each entry is checked as a message of its own.
        if let (Some(entries), true) = (msg.as_array(), self.revision == Revision::V2025_03_26) {
            if entries.is_empty() {
                let why = "an empty batch".to_owned();
                return self.violate(dir, "JSONRPCMessage", line, vec![why]);
            }
            for entry in entries {
                match entry.is_array() {
                    true => {
                        let why = "a batch inside a batch".to_owned();
                        self.violate(dir, "JSONRPCMessage", line, vec![why]);
                    }
                    false => self.message(dir, entry, line),
                }
            }
            return;
        }
        let Some(obj) = msg.as_object() else {
            let why = "a message is one JSON object (only 2025-03-26 has batches)".to_owned();
            return self.violate(dir, "JSONRPCMessage", line, vec![why]);
        };
        let from = match dir {
            Direction::Sent => Party::Client,
            Direction::Received => Party::Server,
        };
        if let Some(method) = obj.get("method") {
            let method = method.as_str().unwrap_or_default();
            let id = obj.get("id");
            let (envelope, kind) = match id {
                Some(_) => ("JSONRPCRequest", "Request"),
                None => ("JSONRPCNotification", "Notification"),
            };
            self.against(dir, envelope, msg, line);
            let def = match id {
                Some(_) => self.schema.request(from, method),
                None => self.schema.notification(from, method),
            };
            match def {
                Some(def) => self.against(dir, def, msg, line),
                None => {
                    let union = format!("{}{kind}", from.name());
                    let why = format!("`{method}` is not a {union} of {}", self.revision);
                    self.violate(dir, &union, line, vec![why]);
                }
            }
            if let Some(id) = id {
                self.open
                    .insert((from, id.to_string()), def.map(str::to_owned));
            }
            return;
        }
        let is_error = obj.contains_key("error");
        if !is_error && !obj.contains_key("result") {
            let why = "neither a request, a notification nor a response".to_owned();
            return self.violate(dir, "JSONRPCMessage", line, vec![why]);
        }
        // 2025-11-25 and 2026-07-28 name the two responses so; the revisions before them
        // call them `JSONRPCError` and `JSONRPCResponse`.
        let envelope = match (is_error, self.schema.has("JSONRPCErrorResponse")) {
            (true, true) => "JSONRPCErrorResponse",
            (true, false) => "JSONRPCError",
            (false, true) => "JSONRPCResultResponse",
            (false, false) => "JSONRPCResponse",
        };
        self.against(dir, envelope, msg, line);
        let answered = obj.get("id").filter(|id| !id.is_null()).and_then(|id| {
            let to = match from {
                Party::Client => Party::Server,
                Party::Server => Party::Client,
            };
            let request = self.open.remove(&(to, id.to_string()));
            if request.is_none() {
                let why = format!("answers no request in flight with id {id}");
                self.violate(dir, "JSONRPCResponse", line, vec![why]);
            }
            request.flatten()
        });
        if is_error {
            let code = msg.pointer("/error/code").and_then(Value::as_i64);
            if let Some((def, scope)) = code.and_then(|c| self.schema.error(c)) {
                let instance = match scope {
                    ErrorScope::Response => msg,
                    ErrorScope::ErrorMember => &msg["error"],
                };
                self.against(dir, def, instance, line);
            }
        } else if let Some(request) = answered {
            self.result(dir, &request, &msg["result"], line);
        }
    }

    fn result(&mut self, dir: Direction, request: &str, result: &Value, line: &str) {
        // The tasks extension: a `tools/call` may be answered with a task.
        let task = result.get("resultType").and_then(Value::as_str) == Some("task");
        if task && self.schema.has("CreateTaskResult") {
            let def = match request {
                "CallToolRequest" => "CreateTaskResult",
                _ => {
                    let why = format!("a `{request}` cannot be answered with a task");
                    return self.violate(dir, "CreateTaskResult", line, vec![why]);
                }
            };
            return self.against(dir, def, result, line);
        }
        let input_required = self.schema.has("InputRequiredResult")
            && result.get("resultType").and_then(Value::as_str) == Some("input_required");
        if !input_required {
            let def = self.schema.result_of(request);
            return self.against(dir, &def, result, line);
        }
        if self.schema.may_require_input(request) {
            self.against(dir, "InputRequiredResult", result, line);
        } else {
            let why = format!("a `{request}` cannot be answered with input_required");
            self.violate(dir, "InputRequiredResult", line, vec![why]);
        }
    }

    fn against(&mut self, dir: Direction, def: &str, instance: &Value, line: &str) {
        if let Err(errors) = self.schema.check(def, instance) {
            self.violate(dir, def, line, errors);
        }
    }

    fn violate(&mut self, direction: Direction, def: &str, line: &str, errors: Vec<String>) {
        if self.skipped.iter().any(|(d, _)| d == def) {
            return;
        }
        self.violations.push(Violation {
            direction,
            def: def.to_owned(),
            line: line.to_owned(),
            errors,
        });
    }
}

/// The failure message for `violations`.
pub(super) fn report(revision: Revision, violations: &[Violation]) -> String {
    let mut out = format!(
        "{} message(s) break the official {revision} schema:\n",
        violations.len()
    );
    for v in violations {
        out.push_str(&format!("  - {v}\n"));
    }
    let def = &violations[0].def;
    out.push_str(&format!(
        "A test that breaks the schema on purpose says so: `.skip_validation_of(\"{def}\", \"why\")`."
    ));
    out
}
