//! Which protocol revision serves a message, decided here once for stdio and HTTP alike, and
//! the one check of a 2026-07-28 request's `_meta`.
//!
//! MCP 2026-07-28 § Versioning, Backward Compatibility ("a dual-era server selects its behavior
//! from how the client opens"): a request whose `params._meta` names a protocol version is
//! modern, whatever its method (so an `initialize` carrying modern `_meta` is an unknown
//! method); an `initialize` without it opens a 2025-11-25 session; any other message belongs to
//! the session of its connection (stdio) or the session it names (HTTP `Mcp-Session-Id`) when
//! there is one, and is otherwise a modern request missing its `_meta` (`-32602`). On HTTP an
//! `MCP-Protocol-Version` header naming anything but a 2025-era version makes the message
//! modern, and a 2025-era header without a session is refused.

use crate::protocol::{Error, Inbound, MODERN_VERSIONS, Meta, Method, Request, RequestMeta};

/// The `MCP-Protocol-Version` header of an HTTP message; stdio has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    not(feature = "http"),
    allow(dead_code, reason = "only HTTP has the header")
)]
pub(crate) enum VersionHeader {
    /// No header (stdio, or an HTTP client that sent none).
    Absent,
    /// A version of the `initialize` era (`YYYY-MM-DD` up to 2025-11-25).
    Legacy,
    /// Anything else, a malformed or repeated header included.
    Modern,
}

#[cfg_attr(
    not(feature = "http"),
    allow(dead_code, reason = "only HTTP has the header")
)]
impl VersionHeader {
    /// Classifies a header read as `Ok(None)` (absent), `Ok(Some(value))` or `Err` (malformed).
    pub(crate) fn of<E>(header: Result<Option<&str>, E>) -> VersionHeader {
        match header {
            Ok(None) => VersionHeader::Absent,
            Ok(Some(v)) if legacy_version(v) => VersionHeader::Legacy,
            _ => VersionHeader::Modern,
        }
    }
}

/// `YYYY-MM-DD` up to 2025-11-25: a version of the `initialize` era.
#[cfg_attr(
    not(feature = "http"),
    allow(dead_code, reason = "only HTTP has the header")
)]
fn legacy_version(version: &str) -> bool {
    let b = version.as_bytes();
    let date = b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    date && version <= "2025-11-25"
}

/// What a transport knows about a message when its era is chosen.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Signals {
    /// A request whose `params._meta` names a protocol version.
    pub modern_meta: bool,
    /// An `initialize` request.
    pub initialize: bool,
    /// The HTTP version header.
    pub version_header: VersionHeader,
    /// The connection has a 2025-11-25 session (stdio), or the message names one (HTTP).
    pub session: bool,
}

impl Signals {
    /// The signals `msg` carries itself, before the transport adds its header and session.
    pub(crate) fn of(msg: &Inbound) -> Signals {
        match msg {
            Inbound::Request(req) => Signals::of_request(req),
            _ => Signals {
                modern_meta: false,
                initialize: false,
                version_header: VersionHeader::Absent,
                session: false,
            },
        }
    }

    /// [`Signals::of`] a request.
    pub(crate) fn of_request(req: &Request) -> Signals {
        Signals {
            modern_meta: req.params.meta.as_ref().is_some_and(Meta::names_version),
            initialize: req.method == Method::Initialize,
            version_header: VersionHeader::Absent,
            session: false,
        }
    }
}

/// How a message is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Era {
    /// Stateless 2026-07-28.
    Modern,
    /// `initialize`: opens a 2025-11-25 session.
    Initialize,
    /// A message of the connection's (or the named) 2025-11-25 session.
    Session,
    /// A 2025-era version header without a session: refused (HTTP only).
    NoSession,
}

/// Chooses the era of a message (see the module docs).
pub(crate) fn select(s: Signals) -> Era {
    if s.modern_meta || s.version_header == VersionHeader::Modern {
        return Era::Modern;
    }
    if s.initialize {
        return Era::Initialize;
    }
    match (s.session, s.version_header) {
        (true, _) => Era::Session,
        (false, VersionHeader::Legacy) => Era::NoSession,
        (false, _) => Era::Modern,
    }
}

/// The `_meta` of a 2026-07-28 request: complete, and naming a version this server serves.
/// The transport checks it once per request and hands it to the dispatcher. Boxed: it is
/// large, and it travels by value from the transport into the request's task.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ModernMeta(Box<RequestMeta>);

impl ModernMeta {
    /// Parses and checks a request's `_meta` (`-32602` incomplete, `-32022` unsupported).
    pub(crate) fn check(meta: Option<Meta>) -> Result<ModernMeta, Error> {
        ModernMeta::served(RequestMeta::of(meta)?)
    }

    /// Checks that an already parsed `_meta` names a served version (`-32022` otherwise).
    pub(crate) fn served(meta: Box<RequestMeta>) -> Result<ModernMeta, Error> {
        if MODERN_VERSIONS.contains(&meta.protocol_version.as_str()) {
            Ok(ModernMeta(meta))
        } else {
            Err(Error::unsupported_version(
                MODERN_VERSIONS,
                &meta.protocol_version,
            ))
        }
    }

    /// The checked metadata, by value.
    pub(crate) fn into_inner(self) -> RequestMeta {
        *self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn signals(v: serde_json::Value, header: VersionHeader, session: bool) -> Signals {
        let msg = Inbound::parse(v.to_string().as_bytes()).unwrap();
        Signals {
            version_header: header,
            session,
            ..Signals::of(&msg)
        }
    }

    #[test]
    fn eras() {
        use VersionHeader::{Absent, Legacy, Modern};
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                          "params": {"protocolVersion": "2025-11-25"}});
        let modern_init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
        let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        let era = |v: &serde_json::Value, h, s| select(signals(v.clone(), h, s));
        assert_eq!(era(&init, Absent, false), Era::Initialize);
        assert_eq!(era(&init, Legacy, true), Era::Initialize);
        assert_eq!(era(&modern_init, Legacy, false), Era::Modern);
        assert_eq!(era(&init, Modern, false), Era::Modern);
        assert_eq!(era(&list, Absent, true), Era::Session);
        assert_eq!(era(&list, Legacy, false), Era::NoSession);
        assert_eq!(era(&list, Absent, false), Era::Modern);
        assert!(legacy_version("2025-03-26") && !legacy_version("2026-07-28"));
        assert_eq!(VersionHeader::of::<()>(Ok(Some("v1"))), Modern);
        assert_eq!(VersionHeader::of(Err(())), Modern);
    }
}
