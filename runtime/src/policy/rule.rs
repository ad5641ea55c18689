//! [`ClientRule`]: which clients a rule is for (name pattern, version range) and what it removes.

use super::PolicyError;
use super::capability::{CapSet, Capability};
use crate::protocol::Implementation;
use semver::{Version, VersionReq};

/// The longest `clientInfo.version` a version range is tested against, in bytes; a longer one
/// is unreadable (rules with a range do not match it).
const MAX_VERSION_BYTES: usize = 128;

/// One rule of a [`ClientPolicy`](super::ClientPolicy): the clients it matches, by `clientInfo.name` and optionally
/// a version range, and the capabilities it removes from them.
///
/// The name pattern is exact and case-sensitive; a trailing `*` makes it a prefix (`"Acme*"`
/// matches `"Acme Desktop"`; `"*"` matches every client that sends its name). No other
/// character is special. A client that sends no `clientInfo` matches no rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientRule {
    pub(super) pattern: String,
    pub(super) versions: Option<VersionReq>,
    pub(super) remove: CapSet,
}

impl ClientRule {
    /// A rule for the clients whose `clientInfo.name` is `pattern` (a trailing `*`: starts
    /// with it), at any version, removing nothing until [`remove`](ClientRule::remove) says.
    pub fn named(pattern: impl Into<String>) -> ClientRule {
        ClientRule {
            pattern: pattern.into(),
            versions: None,
            remove: CapSet::EMPTY,
        }
    }

    /// Only the versions in `range`, a semver requirement as Cargo writes it (`"<1.4"`,
    /// `">=1, <2"`, `"=2.0.3"`); an error when it does not parse.
    ///
    /// The client's `clientInfo.version` is read leniently: `"1.2"` as 1.2.0, `"v1"` as
    /// 1.0.0; a version that still does not read as semver matches no rule with a range. A
    /// pre-release (`"1.4.0-beta.2"`) matches only a range that names a pre-release of the same
    /// version (`">=1.4.0-0, <1.4.0"`), as Cargo's requirements do.
    pub fn versions(self, range: &str) -> Result<ClientRule, PolicyError> {
        let req = parse_range(range).map_err(PolicyError)?;
        Ok(self.version_req(req))
    }

    /// Only the versions `req` matches (see [`versions`](ClientRule::versions)).
    pub fn version_req(mut self, req: VersionReq) -> ClientRule {
        self.versions = Some(req);
        self
    }

    /// Removes `capability` from the clients this rule matches (call it once per capability).
    pub fn remove(mut self, capability: Capability) -> ClientRule {
        self.remove = self.remove.with(capability);
        self
    }

    /// The name pattern.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// Whether the client that describes itself as `client` is one this rule is for.
    pub fn matches(&self, client: &Implementation) -> bool {
        let named = match self.pattern.strip_suffix('*') {
            Some(prefix) => client.name.starts_with(prefix),
            None => client.name == self.pattern,
        };
        named
            && match &self.versions {
                None => true,
                Some(req) => lenient_version(&client.version).is_some_and(|v| req.matches(&v)),
            }
    }
}

pub(super) fn parse_range(range: &str) -> Result<VersionReq, String> {
    VersionReq::parse(range).map_err(|e| {
        format!(
            "`{}` is not a version range: {e} (write a semver requirement such as \"<1.4\" or \">=1, <2\")",
            range.escape_debug()
        )
    })
}

/// A client's version as semver: strictly, else with up to three numeric components padded
/// (`"1.2"` is 1.2.0, `"v1.2-beta"` is 1.2.0-beta); `None` when it still does not read.
pub(super) fn lenient_version(v: &str) -> Option<Version> {
    if v.len() > MAX_VERSION_BYTES {
        return None;
    }
    if let Ok(v) = Version::parse(v) {
        return Some(v);
    }
    let t = v.trim();
    let t = t.strip_prefix(['v', 'V']).unwrap_or(t);
    let (core, rest) = t.split_at(t.find(['-', '+']).unwrap_or(t.len()));
    let mut numbers = [0u64; 3];
    for (i, part) in core.split('.').enumerate() {
        let slot = numbers.get_mut(i)?;
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *slot = part.parse().ok()?;
    }
    let [major, minor, patch] = numbers;
    if rest.is_empty() {
        return Some(Version::new(major, minor, patch));
    }
    Version::parse(&format!("{major}.{minor}.{patch}{rest}")).ok()
}
