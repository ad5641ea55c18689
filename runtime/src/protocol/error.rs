//! The protocol-level error: JSON-RPC error objects and the codes the server emits.

use super::{ClientCapabilities, Revision};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::fmt;

/// The JSON-RPC error codes the server emits (MCP 2026-07-28 § Error Codes).
pub mod code {
    /// Invalid JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// Not a valid JSON-RPC request object.
    pub const INVALID_REQUEST: i64 = -32600;
    /// Unknown method, or a method behind a capability the server does not advertise.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Invalid parameters: missing `_meta` fields, unknown tool, bad `requestState`, ...
    pub const INVALID_PARAMS: i64 = -32602;
    /// Internal error.
    pub const INTERNAL_ERROR: i64 = -32603;
    /// HTTP headers missing, malformed or different from the body.
    pub const HEADER_MISMATCH: i64 = -32020;
    /// The request needs a client capability that the client did not declare.
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
    /// The requested protocol version is not served.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
}

/// The most characters of a client's text that an error message quotes.
pub(crate) const ECHO_CHARS: usize = 100;

/// A client's text (a key, a name, a method, or an error displayed from its input) as an error
/// message may quote it: its first [`ECHO_CHARS`] characters, then `…` when there was more. The
/// text is written into a bounded buffer, so quoting a 1 MB key costs 100 characters, not 1 MB.
pub(crate) fn echo(text: impl fmt::Display) -> String {
    struct Bounded {
        out: String,
        left: usize,
        cut: bool,
    }
    impl fmt::Write for Bounded {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            for c in s.chars() {
                if self.left == 0 {
                    self.cut = true;
                    return Err(fmt::Error);
                }
                self.out.push(c);
                self.left -= 1;
            }
            Ok(())
        }
    }
    let mut b = Bounded {
        out: String::new(),
        left: ECHO_CHARS,
        cut: false,
    };
    // The only error is the buffer being full.
    let _ = fmt::write(&mut b, format_args!("{text}"));
    if b.cut {
        b.out.push('…');
    }
    b.out
}

/// A JSON-RPC error object, and the protocol-level error type of the whole crate.
///
/// Tool *execution* errors are not `Error`s: they are `CallToolResult`s with `isError: true`, so
/// the model can read them and correct itself. An `Error` is for requests the server could not
/// serve at all (unknown tool, malformed params, missing capability, ...).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Error {
    /// The error code (see [`code`]).
    pub code: i64,
    /// A concise single sentence.
    pub message: String,
    /// Structured details.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for Error {}

impl Error {
    /// An error with a code and message and no data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
            data: None,
        }
    }
    /// Attaches `data`.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
    /// `-32700`.
    pub fn parse_error(detail: impl fmt::Display) -> Self {
        Error::new(code::PARSE_ERROR, "Parse error")
            .with_data(json!({ "reason": detail.to_string() }))
    }
    /// `-32600`.
    pub fn invalid_request(reason: impl Into<String>) -> Self {
        Error::new(code::INVALID_REQUEST, "Invalid request")
            .with_data(json!({ "reason": reason.into() }))
    }
    /// `-32601`.
    pub fn method_not_found(method: &str) -> Self {
        Error::new(
            code::METHOD_NOT_FOUND,
            format!("Method not found: {}", echo(method)),
        )
    }
    /// `-32602` with a message.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Error::new(code::INVALID_PARAMS, message)
    }
    /// `-32602`, the spec's message for an unknown tool.
    pub fn unknown_tool(name: &str) -> Self {
        Error::invalid_params(format!("Unknown tool: {}", echo(name)))
    }
    /// `-32602`, the spec's shape for an unknown resource (`data.uri`). The URI is the
    /// client's text: it is quoted as every echo is, its first 100 characters then `…`, so an
    /// unknown 1 MB URI costs 100 characters in the answer, not 1 MB.
    pub fn resource_not_found(uri: &str) -> Self {
        Error::invalid_params("Resource not found").with_data(json!({ "uri": echo(uri) }))
    }
    /// `-32603`.
    pub fn internal(message: impl Into<String>) -> Self {
        Error::new(code::INTERNAL_ERROR, message)
    }
    /// `-32020`.
    pub fn header_mismatch(message: impl Into<String>) -> Self {
        Error::new(code::HEADER_MISMATCH, message)
    }
    /// `-32021` with `data.requiredCapabilities` (an object, as the spec requires).
    pub fn missing_capability(required: &ClientCapabilities) -> Self {
        let names: Vec<&str> = required.names();
        Error::new(
            code::MISSING_REQUIRED_CLIENT_CAPABILITY,
            format!(
                "Server requires the {} capability for this request",
                names.join(", ")
            ),
        )
        .with_data(json!({ "requiredCapabilities": required }))
    }
    /// `-32021` for a session of `revision`: [`Error::missing_capability`], and when that
    /// revision cannot declare what is missing (elicitation before 2025-06-18; URL mode,
    /// `sampling.tools` or an extension before 2025-11-25) the message says so, so that a
    /// client that declared all its revision has is not told to declare more.
    pub(crate) fn missing_capability_at(required: &ClientCapabilities, revision: Revision) -> Self {
        let mut error = Error::missing_capability(required);
        let declarable = required.clone().read_at(revision);
        if declarable == *required {
            return error;
        }
        let note = if declarable.names().len() < required.names().len() {
            format!(", which this client's protocol revision ({revision}) does not have")
        } else {
            format!(
                ", in a form this client's protocol revision ({revision}) does not have \
                 (data.requiredCapabilities says which)"
            )
        };
        error.message.push_str(&note);
        error
    }
    /// `-32022` with `data.supported` and `data.requested`.
    pub fn unsupported_version(supported: &[&str], requested: &str) -> Self {
        Error::new(
            code::UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
        )
        .with_data(json!({ "supported": supported, "requested": requested }))
    }
}
