//! JSON-RPC 2.0 framing: ids, inbound message classification, outbound message builders.

use super::{Error, JsonObject, Method};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::fmt;

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

/// An inbound JSON-RPC message, classified.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Inbound {
    /// A request: has an id and a method.
    Request(Request),
    /// A notification: a method and no id.
    Notification {
        /// The method, parsed.
        method: Method,
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
pub(crate) struct Request {
    /// The client's id.
    pub id: RequestId,
    /// The method, parsed.
    pub method: Method,
    /// The params object, if any.
    pub params: Option<JsonObject>,
}

/// Why an inbound message was rejected, with the id to answer on when one could be read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rejected {
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
            return Err(Rejected::invalid(None, reason));
        };
        let raw_id = obj.remove("id");
        let id = match &raw_id {
            None => None,
            Some(v) => match RequestId::from_value(v) {
                Some(id) => Some(id),
                None if v.is_null() => None,
                None => {
                    let reason = "`id` must be a string or an integer";
                    return Err(Rejected::invalid(None, reason));
                }
            },
        };
        if obj.get("jsonrpc") != Some(&Value::String("2.0".into())) {
            return Err(Rejected::invalid(id, "`jsonrpc` must be \"2.0\""));
        }
        match obj.remove("method") {
            Some(method) => Inbound::call(obj, method, id, raw_id.is_some()),
            None => Inbound::response(obj, id),
        }
    }

    /// A request (with an id) or a notification (without one).
    fn call(
        mut obj: JsonObject,
        method: Value,
        id: Option<RequestId>,
        has_id: bool,
    ) -> Result<Inbound, Rejected> {
        let Value::String(name) = method else {
            return Err(Rejected::invalid(id, "`method` must be a string"));
        };
        let method = Method::parse(&name);
        let params = match obj.remove("params") {
            None => None,
            Some(Value::Object(p)) => Some(p),
            Some(_) => return Err(Rejected::invalid(id, "`params` must be an object")),
        };
        match (id, has_id) {
            (Some(id), _) => Ok(Inbound::Request(Request { id, method, params })),
            (None, true) => Err(Rejected::invalid(None, "a request `id` must not be null")),
            (None, false) => Ok(Inbound::Notification { method, params }),
        }
    }

    /// A response to a request the server sent: a result or an error.
    fn response(mut obj: JsonObject, id: Option<RequestId>) -> Result<Inbound, Rejected> {
        let Some(id) = id else {
            return Err(Rejected::invalid(None, "a response needs an `id`"));
        };
        let outcome = if let Some(err) = obj.remove("error") {
            match serde_json::from_value::<Error>(err) {
                Ok(error) => Err(error),
                Err(_) => return Err(Rejected::invalid(Some(id), "malformed `error` object")),
            }
        } else if let Some(result) = obj.remove("result") {
            Ok(result)
        } else {
            let reason = "a message needs a `method`, a `result` or an `error`";
            return Err(Rejected::invalid(Some(id), reason));
        };
        Ok(Inbound::Response { id, outcome })
    }
}

impl Rejected {
    /// A `-32600` for the message with `id` (if it could be read).
    fn invalid(id: Option<RequestId>, reason: &str) -> Rejected {
        Rejected {
            id,
            error: Error::invalid_request(reason),
        }
    }
}

/// The `requestId` a `notifications/cancelled` names, when it is a valid id.
pub(crate) fn cancelled_request(params: Option<&JsonObject>) -> Option<RequestId> {
    params?.get("requestId").and_then(RequestId::from_value)
}

/// Builds a success response message.
pub(crate) fn response(id: &RequestId, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

/// Builds an error response message; `id` is omitted when it could not be read.
pub(crate) fn error_response(id: Option<&RequestId>, error: &Error) -> Value {
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
pub(crate) fn notification(method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "method": method, "params": params })
}

/// Builds a request message (2025-11-25 back-channel only).
pub(crate) fn request(id: &RequestId, method: &str, params: Option<Value>) -> Value {
    let mut m = JsonObject::new();
    m.insert("jsonrpc".into(), "2.0".into());
    m.insert("id".into(), serde_json::to_value(id).unwrap_or(Value::Null));
    m.insert("method".into(), method.into());
    if let Some(p) = params {
        m.insert("params".into(), p);
    }
    Value::Object(m)
}
