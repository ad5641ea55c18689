//! JSON-RPC 2.0 framing: ids, inbound message classification, error objects.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::fmt;

/// A JSON object, the type of every `params`, `arguments` and `_meta` on the wire.
pub type JsonObject = Map<String, Value>;

/// A JSON-RPC request id: a string or an integer (never `null` for a request).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RequestId {
    /// An integer id.
    Number(i64),
    /// A string id.
    String(String),
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::String(s) => write!(f, "{s:?}"),
        }
    }
}

impl RequestId {
    /// Reads an id from a JSON value; `None` for anything that is not a string or an integer.
    pub fn from_value(v: &Value) -> Option<RequestId> {
        match v {
            Value::String(s) => Some(RequestId::String(s.clone())),
            Value::Number(n) => n.as_i64().map(RequestId::Number),
            _ => None,
        }
    }
}

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
            format!("Method not found: {method}"),
        )
    }
    /// `-32602` with a message.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Error::new(code::INVALID_PARAMS, message)
    }
    /// `-32602`, the spec's message for an unknown tool.
    pub fn unknown_tool(name: &str) -> Self {
        Error::invalid_params(format!("Unknown tool: {name}"))
    }
    /// `-32602`, the spec's shape for an unknown resource (`data.uri`).
    pub fn resource_not_found(uri: &str) -> Self {
        Error::invalid_params("Resource not found").with_data(json!({ "uri": uri }))
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
    pub fn missing_capability(required: &super::ClientCapabilities) -> Self {
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
    /// `-32022` with `data.supported` and `data.requested`.
    pub fn unsupported_version(supported: &[&str], requested: &str) -> Self {
        Error::new(
            code::UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
        )
        .with_data(json!({ "supported": supported, "requested": requested }))
    }
}

/// An inbound JSON-RPC message, classified.
#[derive(Debug, Clone, PartialEq)]
pub enum Inbound {
    /// A request: has an id and a method.
    Request(Request),
    /// A notification: a method and no id.
    Notification {
        /// The method.
        method: String,
        /// The params, if an object was given.
        params: Option<JsonObject>,
    },
    /// A response to a request the server sent (2025-11-25 back-channel).
    Response {
        /// The id the server chose.
        id: RequestId,
        /// The result or the error the client answered.
        outcome: Result<Value, Error>,
    },
}

/// A JSON-RPC request.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The client's id.
    pub id: RequestId,
    /// The method name.
    pub method: String,
    /// The params object, if any.
    pub params: Option<JsonObject>,
}

/// Why an inbound message was rejected, with the id to answer on when one could be read.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejected {
    /// The request id, when it could be read.
    pub id: Option<RequestId>,
    /// The error to answer with.
    pub error: Error,
}

impl Inbound {
    /// Parses one JSON-RPC message from raw bytes.
    pub fn parse(bytes: &[u8]) -> Result<Inbound, Rejected> {
        let value: Value = serde_json::from_slice(bytes).map_err(|e| Rejected {
            id: None,
            error: Error::parse_error(e),
        })?;
        Inbound::from_value(value)
    }

    /// Classifies a JSON value as a JSON-RPC message.
    pub fn from_value(value: Value) -> Result<Inbound, Rejected> {
        let Value::Object(mut obj) = value else {
            let reason = if value.is_array() {
                "batches are not supported"
            } else {
                "a JSON-RPC message must be an object"
            };
            return Err(Rejected {
                id: None,
                error: Error::invalid_request(reason),
            });
        };
        let raw_id = obj.remove("id");
        let id = match &raw_id {
            None => None,
            Some(v) => match RequestId::from_value(v) {
                Some(id) => Some(id),
                None if v.is_null() => None,
                None => {
                    return Err(Rejected {
                        id: None,
                        error: Error::invalid_request("`id` must be a string or an integer"),
                    });
                }
            },
        };
        let err_id = id.clone();
        let reject = |reason: &str| Rejected {
            id: err_id.clone(),
            error: Error::invalid_request(reason),
        };
        if obj.get("jsonrpc") != Some(&Value::String("2.0".into())) {
            return Err(reject("`jsonrpc` must be \"2.0\""));
        }
        if let Some(method) = obj.remove("method") {
            let Value::String(method) = method else {
                return Err(reject("`method` must be a string"));
            };
            let params = match obj.remove("params") {
                None => None,
                Some(Value::Object(p)) => Some(p),
                Some(_) => return Err(reject("`params` must be an object")),
            };
            return Ok(match (id, raw_id) {
                (Some(id), _) => Inbound::Request(Request { id, method, params }),
                (None, Some(_)) => return Err(reject("a request `id` must not be null")),
                (None, None) => Inbound::Notification { method, params },
            });
        }
        let Some(id) = id else {
            return Err(reject("a response needs an `id`"));
        };
        if let Some(err) = obj.remove("error") {
            let error: Error =
                serde_json::from_value(err).map_err(|_| reject("malformed `error` object"))?;
            return Ok(Inbound::Response {
                id,
                outcome: Err(error),
            });
        }
        match obj.remove("result") {
            Some(result) => Ok(Inbound::Response {
                id,
                outcome: Ok(result),
            }),
            None => Err(reject(
                "a message needs a `method`, a `result` or an `error`",
            )),
        }
    }
}

/// Builds a success response message.
pub fn response(id: &RequestId, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

/// Builds an error response message; `id` is omitted when it could not be read.
pub fn error_response(id: Option<&RequestId>, error: &Error) -> Value {
    let mut m = JsonObject::new();
    m.insert("jsonrpc".into(), "2.0".into());
    if let Some(id) = id {
        m.insert("id".into(), serde_json::to_value(id).unwrap_or(Value::Null));
    }
    m.insert(
        "error".into(),
        serde_json::to_value(error).unwrap_or(Value::Null),
    );
    Value::Object(m)
}

/// Builds a notification message.
pub fn notification(method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "method": method, "params": params })
}

/// Builds a request message (2025-11-25 back-channel only).
pub fn request(id: &RequestId, method: &str, params: Option<Value>) -> Value {
    let mut m = JsonObject::new();
    m.insert("jsonrpc".into(), "2.0".into());
    m.insert("id".into(), serde_json::to_value(id).unwrap_or(Value::Null));
    m.insert("method".into(), method.into());
    if let Some(p) = params {
        m.insert("params".into(), p);
    }
    Value::Object(m)
}
