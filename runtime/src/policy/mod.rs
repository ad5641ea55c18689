//! [`ClientPolicy`]: rules that treat named clients as lacking capabilities they declare, so a
//! question's fallback runs at once for a host that declares elicitation or sampling and never
//! delivers it.
//!
//! The engine applies the policy where it builds a request's client facts
//! (`dispatch::ClientFacts`), for both revisions, before any question is decided; the
//! capabilities a handler sees ([`Cx::client_capabilities`](crate::Cx::client_capabilities))
//! and every check of a question are the narrowed ones. A rule only removes: nothing a client
//! did not declare is ever added.

mod capability;
mod rule;

pub(crate) use capability::CapSet;
pub use capability::Capability;
use capability::narrow;
pub use rule::ClientRule;

use crate::protocol::{ClientCapabilities, Implementation};
use semver::VersionReq;
use serde::{Deserialize, Deserializer};
use std::ffi::OsStr;
use std::fmt;
use std::io::Read;
use std::path::Path;
use std::str::FromStr;

/// Why a policy or a rule could not be built or loaded; the message says what and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyError(String);

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PolicyError {}

impl PolicyError {
    fn context(self, what: impl fmt::Display) -> PolicyError {
        PolicyError(format!("{what}: {}", self.0))
    }
}

/// Which clients are treated as lacking which capabilities: a list of [`ClientRule`]s, for
/// hosts that declare a capability and never deliver it (an elicitation form never shown, a
/// sampling request always rejected). For a client a rule matches, the questions that need a
/// removed capability take their fallback at once instead of keeping the user waiting.
///
/// Every rule that matches applies (they only remove, so their order does not change the
/// result). Rules only narrow what the client declared: removing URL mode from a client that
/// declared forms changes nothing, and removing form mode from `elicitation: {}` (which means
/// forms only) removes elicitation. The handler sees the narrowed capabilities in
/// [`Cx::client_capabilities`](crate::Cx::client_capabilities). Each match is logged at
/// `debug` (target `rondo_mcp::policy`) with the client's name and version, the rule's index
/// and pattern, and what it removed. An empty policy (the default) costs a request nothing.
///
/// In code, with [`ClientPolicy::rule`]; from JSON with [`ClientPolicy::from_json`],
/// [`ClientPolicy::from_file`] or [`ClientPolicy::from_env`]:
///
/// ```json
/// {"rules": [
///   {"client": "Some Host", "versions": "<1.4", "remove": ["elicitation.form", "sampling"]},
///   {"client": "Acme*", "remove": ["sampling.tools"]}
/// ]}
/// ```
///
/// A host that declares forms and never shows them gets the question's fallback at once:
///
/// ```
/// use rondo_mcp::prelude::*;
/// use rondo_mcp::protocol::Implementation;
/// use rondo_mcp::testing::TestClient;
/// use rondo_mcp::{Answer, Capability, ClientPolicy, ClientRule, Elicit, Form, elicit, tool, tools};
///
/// #[derive(Elicit)]
/// struct Name {
///     /// Your name
///     name: String,
/// }
///
/// /// Asks for a name; without forms, greets a guest.
/// #[elicit(form, fallback = guest)]
/// fn ask_name() -> Form<Name> {
///     Form::new("Who are you?")
/// }
///
/// fn guest() -> Answer<Name> {
///     Answer::Accept(Name { name: "guest".into() })
/// }
///
/// /// Greets the user.
/// #[tool(asks = [ask_name])]
/// async fn greet(cx: &Cx) -> String {
///     match cx.ask(ask_name()).await {
///         Answer::Accept(n) => format!("Hello, {}!", n.name),
///         _ => "Hello!".into(),
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let policy = ClientPolicy::new().rule(
///     ClientRule::named("Some Host")
///         .versions("<1.4")?
///         .remove(Capability::ElicitationForm),
/// );
/// // The same policy as JSON, as a file or `RONDO_CLIENT_POLICY` would hold it.
/// let same = ClientPolicy::from_json(
///     r#"{"rules": [{"client": "Some Host", "versions": "<1.4", "remove": ["elicitation.form"]}]}"#,
/// )?;
/// assert_eq!(policy, same);
///
/// let router = Router::new(ServerInfo::new("greeter", "1.0.0")).tools(tools![greet]);
/// let server = Server::new(router).client_policy(policy);
/// let client = TestClient::modern(server)
///     .client_info(Implementation::new("Some Host", "1.3.2"))
///     .capabilities(ClientCapabilities::with_elicitation_form())
///     .connect()
///     .await?;
/// let call = client.call_tool("greet", serde_json::json!({})).await?;
/// assert_eq!((call.text().as_str(), call.rounds), ("Hello, guest!", 1));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientPolicy {
    rules: Vec<ClientRule>,
}

impl ClientPolicy {
    /// The environment variable [`from_env`](ClientPolicy::from_env) reads.
    pub const ENV_VAR: &'static str = "RONDO_CLIENT_POLICY";

    /// The largest policy file [`from_file`](ClientPolicy::from_file) reads, in bytes.
    pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

    /// A policy with no rules: every client keeps what it declared.
    pub fn new() -> ClientPolicy {
        ClientPolicy::default()
    }

    /// Adds `rule` after the others.
    pub fn rule(mut self, rule: ClientRule) -> ClientPolicy {
        self.rules.push(rule);
        self
    }

    /// The rules, in order.
    pub fn rules(&self) -> &[ClientRule] {
        &self.rules
    }

    /// Whether there is no rule.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// A policy from JSON: `{"rules": [{"client": .., "versions": .., "remove": [..]}, ..]}`,
    /// where `client` is the name pattern, `versions` an optional semver range and `remove` a
    /// non-empty list of dotted capability names. An unknown field, an unknown capability or
    /// a range that does not parse is an error saying where.
    pub fn from_json(json: &str) -> Result<ClientPolicy, PolicyError> {
        let file: PolicyFile = serde_json::from_str(json)
            .map_err(|e| PolicyError(format!("invalid client policy: {e}")))?;
        let mut policy = ClientPolicy::new();
        for (i, r) in file.rules.into_iter().enumerate() {
            if r.remove.is_empty() {
                return Err(PolicyError(format!(
                    "invalid client policy: rule {i} (client `{}`) removes nothing: `remove` lists \
                     at least one capability",
                    r.client.escape_debug()
                )));
            }
            let mut rule = ClientRule::named(r.client);
            rule.versions = r.versions.map(|v| v.0);
            for c in r.remove {
                rule = rule.remove(c.0);
            }
            policy = policy.rule(rule);
        }
        Ok(policy)
    }

    /// A policy from the JSON file at `path` (see [`from_json`](ClientPolicy::from_json)), at
    /// most [`MAX_FILE_BYTES`](ClientPolicy::MAX_FILE_BYTES); the error names the file.
    pub fn from_file(path: impl AsRef<Path>) -> Result<ClientPolicy, PolicyError> {
        let path = path.as_ref();
        let at = format_args!("client policy file `{}`", path.display()).to_string();
        let file = std::fs::File::open(path)
            .map_err(|e| PolicyError(format!("{at}: cannot open it: {e}")))?;
        let mut text = String::new();
        file.take(Self::MAX_FILE_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| PolicyError(format!("{at}: cannot read it as UTF-8 text: {e}")))?;
        if text.len() as u64 > Self::MAX_FILE_BYTES {
            return Err(PolicyError(format!(
                "{at}: larger than {} bytes",
                Self::MAX_FILE_BYTES
            )));
        }
        ClientPolicy::from_json(&text).map_err(|e| e.context(at))
    }

    /// The policy in the environment variable `RONDO_CLIENT_POLICY` ([`ENV_VAR`](ClientPolicy::ENV_VAR)):
    /// the JSON itself (a value starting with `{`) or the path of a JSON file. Unset or blank:
    /// an empty policy. Anything invalid is an error naming the variable and the problem, so a
    /// server can refuse to start with it:
    ///
    /// ```no_run
    /// # use rondo_mcp::prelude::*;
    /// # struct H;
    /// # impl Handler for H { fn info(&self) -> ServerInfo { ServerInfo::new("h", "1") } }
    /// # fn main() -> Result<(), rondo_mcp::PolicyError> {
    /// let server = Server::new(H).client_policy(rondo_mcp::ClientPolicy::from_env()?);
    /// # Ok(()) }
    /// ```
    pub fn from_env() -> Result<ClientPolicy, PolicyError> {
        match std::env::var_os(Self::ENV_VAR) {
            None => Ok(ClientPolicy::new()),
            Some(value) => ClientPolicy::from_env_value(&value),
        }
    }

    /// What [`from_env`](ClientPolicy::from_env) makes of the variable's value.
    fn from_env_value(value: &OsStr) -> Result<ClientPolicy, PolicyError> {
        let named = |e: PolicyError| e.context(Self::ENV_VAR);
        let Some(text) = value.to_str() else {
            return Err(named(PolicyError(
                "not valid UTF-8 (it holds the policy's JSON or the path of its file)".into(),
            )));
        };
        let text = text.trim();
        if text.is_empty() {
            Ok(ClientPolicy::new())
        } else if text.starts_with('{') {
            ClientPolicy::from_json(text).map_err(named)
        } else {
            ClientPolicy::from_file(text).map_err(named)
        }
    }

    /// Narrows `caps`, declared by `client`, by every rule that matches it; returns what was
    /// removed. Nothing is read, cloned or allocated when the policy is empty.
    pub(crate) fn apply(
        &self,
        client: Option<&Implementation>,
        caps: &mut ClientCapabilities,
    ) -> CapSet {
        let Some(client) = client else {
            return CapSet::EMPTY;
        };
        if self.rules.is_empty() {
            return CapSet::EMPTY;
        }
        let mut removed = CapSet::EMPTY;
        for (index, rule) in self.rules.iter().enumerate() {
            if !rule.matches(client) {
                continue;
            }
            let before = CapSet::declared(caps);
            narrow(caps, rule.remove);
            let now = before.minus(CapSet::declared(caps));
            removed = removed.union(now);
            tracing::debug!(
                client = ?client.name,
                version = ?client.version,
                rule = index,
                pattern = ?rule.pattern,
                removed = %now,
                "client policy: a rule matches this client"
            );
        }
        removed
    }
}

/// What a client declared (its capabilities, its name and version), as the server's client
/// policy narrowed it: made once per 2026-07-28 request, once per 2025-11-25 session (whose
/// requests share it).
#[derive(Debug)]
pub(crate) struct ClientSide {
    /// The capabilities left after the policy.
    pub(crate) capabilities: ClientCapabilities,
    /// The client's self-reported name and version.
    pub(crate) info: Option<Implementation>,
    /// What the policy removed from the capabilities the client declared.
    pub(crate) removed_by_policy: CapSet,
}

impl ClientSide {
    /// `capabilities`, declared by `info`, narrowed by `policy` (whose matching rules log).
    pub(crate) fn narrowed(
        mut capabilities: ClientCapabilities,
        info: Option<Implementation>,
        policy: &ClientPolicy,
    ) -> ClientSide {
        let removed_by_policy = policy.apply(info.as_ref(), &mut capabilities);
        ClientSide {
            capabilities,
            info,
            removed_by_policy,
        }
    }
}

/// The JSON form of a policy.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyFile {
    rules: Vec<RuleFile>,
}

/// The JSON form of a rule.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleFile {
    client: String,
    #[serde(default)]
    versions: Option<RangeName>,
    remove: Vec<CapName>,
}

/// A capability by its dotted name.
struct CapName(Capability);

impl<'de> Deserialize<'de> for CapName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Capability::from_str(&s)
            .map(CapName)
            .map_err(|e| serde::de::Error::custom(e.0))
    }
}

/// A version range by its semver text.
struct RangeName(VersionReq);

impl<'de> Deserialize<'de> for RangeName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        rule::parse_range(&s)
            .map(RangeName)
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests;
