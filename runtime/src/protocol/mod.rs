//! The MCP wire model: revision 2026-07-28, and the handshake revisions 2025-11-25,
//! 2025-06-18, 2025-03-26 and 2024-11-05 (what each has: `revision.rs`).

mod batch;
mod capabilities;
mod content;
mod enveloped;
mod error;
mod header_params;
mod input;
mod jsonrpc;
mod members;
mod message;
mod method;
mod page;
mod params;
#[cfg(test)]
mod parse_oracle;
mod prompts;
mod results;
mod revision;
mod shape;
mod skills;
#[cfg(feature = "otel")]
mod trace_meta;
mod unique;

pub use batch::MAX_BATCH_ENTRIES;
#[cfg(feature = "http")]
pub(crate) use batch::is_batch_bytes;
pub(crate) use batch::{answer as batch_answer, entries as batch_entries, is_batch};
pub use capabilities::*;
pub use content::*;
pub(crate) use enveloped::Enveloped;
pub use error::*;
pub use header_params::HeaderParam;
pub use input::*;
pub use jsonrpc::*;
#[cfg(feature = "testing")]
pub(crate) use message::error_response;
pub(crate) use message::{Message, Written, notification, request, write};
pub use method::*;
pub use page::{Cursor, Page};
pub(crate) use params::{Body, Params, TargetParams, TaskParams, cursor};
pub use prompts::*;
pub use results::*;
pub(crate) use revision::MODERN_VERSIONS;
pub use revision::{Revision, UnknownRevision};
pub(crate) use shape::Shape;
pub(crate) use skills::legacy_extensions;
pub use skills::{
    DIRECTORY_MIME_TYPE, GetSkillResult, SKILLS_EXTENSION, Skill, SkillResource, SkillResources,
};
#[cfg(feature = "otel")]
pub(crate) use trace_meta::TraceMeta;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// A JSON object, the type of every `params`, `arguments` and `_meta` on the wire.
pub type JsonObject = Map<String, Value>;

/// The longest resource URI a listener may follow, in bytes.
pub const MAX_URI_BYTES: usize = 8 * 1024;

/// Reserved `_meta` keys.
pub(crate) mod meta {
    /// Request: the protocol version (required on 2026-07-28).
    pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    /// Request: the client's capabilities (required on 2026-07-28).
    pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    /// Request: the client's name and version.
    pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
    /// Request: opt-in to `notifications/message` at this level.
    pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
    /// Result: the server's name and version (written by a serde rename in `results.rs`, which
    /// needs the literal; its tests read it here).
    #[cfg_attr(not(test), allow(dead_code))]
    pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
    /// Notification on a listen stream: the subscription it belongs to.
    pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
    /// Request: progress notifications opt-in.
    pub const PROGRESS_TOKEN: &str = "progressToken";
}

/// A progress token: a string or an integer.
pub(crate) type ProgressToken = Value;

/// The per-request metadata of a 2026-07-28 request, validated.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RequestMeta {
    /// `io.modelcontextprotocol/protocolVersion`.
    pub protocol_version: String,
    /// `io.modelcontextprotocol/clientCapabilities`.
    pub client_capabilities: ClientCapabilities,
    /// `io.modelcontextprotocol/clientInfo`.
    pub client_info: Option<Implementation>,
    /// `io.modelcontextprotocol/logLevel`.
    pub log_level: Option<LoggingLevel>,
    /// `progressToken`.
    pub progress_token: Option<ProgressToken>,
    /// `traceparent`, `tracestate` and `baggage`, each within its bound.
    #[cfg(feature = "otel")]
    pub trace: Option<Box<TraceMeta>>,
}

/// A request's `_meta`, read when the message is read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Meta {
    /// A 2026-07-28 `_meta` with every field that revision requires, each valid: read once,
    /// straight from its text when it can be (design §23).
    Modern(Box<RequestMeta>),
    /// Any other `_meta` (a 2025-11-25 request's, or one with a field missing or wrong), as
    /// the client wrote it: each reader says what it lacks.
    Value(Value),
}

impl Meta {
    /// Reads `_meta` from its text. It is [`Meta::Modern`] exactly when
    /// [`RequestMeta::parse`] of its `Value` succeeds, and then holds what that returns; the
    /// error is text no `Value` holds (a number beyond `f64`).
    pub(crate) fn from_raw(raw: &RawValue) -> Result<Meta, serde_json::Error> {
        match RequestMeta::read(raw) {
            Some(m) => Ok(Meta::Modern(Box::new(m))),
            // What the text cannot tell (a key repeated inside a capability, say) the `Value`
            // may still accept.
            None => members::read(raw).map(Meta::from_value),
        }
    }

    /// `_meta` from its `Value`: [`Meta::Modern`] when [`RequestMeta::parse`] accepts it.
    pub(crate) fn from_value(value: Value) -> Meta {
        match RequestMeta::parse(Some(&value)) {
            Ok(m) => Meta::Modern(Box::new(m)),
            Err(_) => Meta::Value(value),
        }
    }

    /// Whether it names a protocol version (the era a request is served in reads this).
    pub(crate) fn names_version(&self) -> bool {
        match self {
            Meta::Modern(_) => true,
            Meta::Value(v) => v.get(meta::PROTOCOL_VERSION).is_some(),
        }
    }

    /// Its `progressToken`, when it is a string or an integer.
    pub(crate) fn progress_token(&self) -> Option<ProgressToken> {
        match self {
            Meta::Modern(m) => m.progress_token.clone(),
            Meta::Value(v) => progress_token(Some(v)),
        }
    }

    /// Its W3C trace context, each value within its bound.
    #[cfg(feature = "otel")]
    pub(crate) fn trace(&self) -> Option<Box<TraceMeta>> {
        match self {
            Meta::Modern(m) => m.trace.clone(),
            Meta::Value(v) => TraceMeta::from_value(Some(v)),
        }
    }
}

impl RequestMeta {
    /// The metadata of a 2026-07-28 request from its `_meta` as read, or why it is refused.
    pub(crate) fn of(meta: Option<Meta>) -> Result<Box<RequestMeta>, Error> {
        match meta {
            Some(Meta::Modern(m)) => Ok(m),
            Some(Meta::Value(v)) => RequestMeta::parse(Some(&v)).map(Box::new),
            None => RequestMeta::parse(None).map(Box::new),
        }
    }

    /// [`RequestMeta::parse`] straight from the text, in one pass, when every field is there
    /// and valid (`None` otherwise: the `Value` reader then says what is wrong, in its own
    /// words). A key written twice is `None` too (the derived reader refuses it), so that the
    /// `Value` reader keeps its last occurrence, as it does for every other member.
    fn read(raw: &RawValue) -> Option<RequestMeta> {
        // A struct is read from a JSON array as well; `_meta` must be an object.
        if !raw.get().starts_with('{') {
            return None;
        }
        let wire: MetaText<'_> = members::read(raw).ok()?;
        let log_level = match wire.log_level {
            None => None,
            Some(v) => Some(members::read(v).ok()?),
        };
        let progress_token = match wire.progress_token {
            None => None,
            Some(v) => {
                let t: Value = members::read(v).ok()?;
                (t.is_string() || t.is_i64() || t.is_u64()).then_some(t)
            }
        };
        Some(RequestMeta {
            protocol_version: wire.protocol_version.into_owned(),
            client_capabilities: wire.client_capabilities,
            client_info: wire.client_info,
            log_level,
            progress_token,
            #[cfg(feature = "otel")]
            trace: TraceMeta::read(raw),
        })
    }

    /// Validates the `_meta` of a 2026-07-28 request (a missing required field is `-32602`).
    /// The fields are read from it, borrowed: nothing is copied but what the result keeps.
    pub fn parse(raw: Option<&Value>) -> Result<RequestMeta, Error> {
        use serde::Deserialize as _;
        let missing =
            |what: &str| Error::invalid_params(format!("Missing required `_meta` field {what}"));
        let meta = raw
            .ok_or_else(|| Error::invalid_params("Missing required `params._meta`"))?
            .as_object()
            .ok_or_else(|| Error::invalid_params("`params._meta` must be an object"))?;
        let version = meta
            .get(meta::PROTOCOL_VERSION)
            .ok_or_else(|| missing(meta::PROTOCOL_VERSION))?;
        let protocol_version = version
            .as_str()
            .ok_or_else(|| {
                Error::invalid_params(format!("`{}` must be a string", meta::PROTOCOL_VERSION))
            })?
            .to_owned();
        let caps = meta
            .get(meta::CLIENT_CAPABILITIES)
            .ok_or_else(|| missing(meta::CLIENT_CAPABILITIES))?;
        let client_capabilities = ClientCapabilities::deserialize(caps).map_err(|e| {
            Error::invalid_params(format!(
                "Invalid `{}`: {}",
                meta::CLIENT_CAPABILITIES,
                echo(e)
            ))
        })?;
        let client_info = match meta.get(meta::CLIENT_INFO) {
            None | Some(Value::Null) => None,
            Some(v) => Some(Implementation::deserialize(v).map_err(|e| {
                Error::invalid_params(format!("Invalid `{}`: {}", meta::CLIENT_INFO, echo(e)))
            })?),
        };
        let log_level = match meta.get(meta::LOG_LEVEL) {
            None => None,
            Some(v) => Some(
                LoggingLevel::deserialize(v)
                    .map_err(|_| Error::invalid_params(format!("Invalid `{}`", meta::LOG_LEVEL)))?,
            ),
        };
        Ok(RequestMeta {
            protocol_version,
            client_capabilities,
            client_info,
            log_level,
            progress_token: progress_token(raw),
            #[cfg(feature = "otel")]
            trace: if trace_meta::wanted() {
                TraceMeta::from_value(raw)
            } else {
                None
            },
        })
    }
}

/// The fields of a 2026-07-28 `_meta` as [`RequestMeta::read`] takes them from the text: the
/// required ones typed (a missing or ill-typed one fails the read), the optional ones whose
/// `null` is an error in [`RequestMeta::parse`] kept as their text (`Option` would read `null`
/// as absent). Other members are skipped.
#[derive(serde::Deserialize)]
struct MetaText<'a> {
    #[serde(rename = "io.modelcontextprotocol/protocolVersion", borrow)]
    protocol_version: std::borrow::Cow<'a, str>,
    #[serde(rename = "io.modelcontextprotocol/clientCapabilities")]
    client_capabilities: ClientCapabilities,
    #[serde(rename = "io.modelcontextprotocol/clientInfo", default)]
    client_info: Option<Implementation>,
    #[serde(
        rename = "io.modelcontextprotocol/logLevel",
        default,
        borrow,
        deserialize_with = "present"
    )]
    log_level: Option<&'a RawValue>,
    #[serde(
        rename = "progressToken",
        default,
        borrow,
        deserialize_with = "present"
    )]
    progress_token: Option<&'a RawValue>,
    // SEP-414's trace context is read apart (`TraceMeta::read`), only when a subscriber could
    // want it: the same fields here cost every request of an `otel` build (design §33).
}

/// A member that is written, `null` included, as its text.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue as serde::Deserialize>::deserialize(d).map(Some)
}

/// Reads `progressToken` from a request's `_meta` when it is a string or an integer.
pub(crate) fn progress_token(meta: Option<&Value>) -> Option<ProgressToken> {
    let t = meta?.get(meta::PROGRESS_TOKEN)?;
    (t.is_string() || t.is_i64() || t.is_u64()).then(|| t.clone())
}
