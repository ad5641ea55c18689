//! JSON-RPC 2.0 framing: ids, inbound message classification, outbound message builders.

use super::members::{self, Envelope, Members, Shape, Target};
use super::{Error, JsonObject, Method, Params, echo, unique};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
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

    /// Reads an id from a member's text; `None` for anything that is not a string or an
    /// integer.
    fn from_raw(raw: &RawValue) -> Option<RequestId> {
        match members::string(raw) {
            Some(s) => Some(RequestId::String(s.into_owned())),
            None => members::read::<i64>(raw).ok().map(RequestId::Number),
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
    /// A message with an id and no `method` that is no valid response: a malformed `error`,
    /// neither `result` nor `error` or both, a wrong `jsonrpc`, a duplicate key. Nothing is
    /// ever answered to it (it answers the server); a question waiting on its id fails at once.
    BadResponse {
        /// The id it names.
        id: RequestId,
        /// What is wrong with it.
        reason: String,
    },
}

/// A JSON-RPC request.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Request {
    /// The client's id.
    pub id: RequestId,
    /// The method, parsed.
    pub method: Method,
    /// The params, parsed for the method (design §23).
    pub params: Params,
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
    /// Parses one JSON-RPC message from raw bytes. A message that carries answers (a
    /// response, or a request with `inputResponses`) must not repeat a key where the answers
    /// are: a request that does is `-32602`, a response a [`Inbound::BadResponse`].
    ///
    /// The text is checked as JSON once, whole; then only what the server reads is built
    /// from it ([`members`]): no `Value` tree of the message.
    // HTTP bodies and the testing wire read bytes; stdio reads lines as text.
    #[cfg_attr(not(any(feature = "http", feature = "testing")), allow(dead_code))]
    pub fn parse(bytes: &[u8]) -> Result<Inbound, Rejected> {
        let text = std::str::from_utf8(bytes).map_err(Rejected::parse)?;
        Inbound::parse_str(text)
    }

    /// [`Inbound::parse`] of a text already checked as UTF-8 (a stdio line).
    pub fn parse_str(text: &str) -> Result<Inbound, Rejected> {
        let shape = match Shape::parse(text).map_err(Rejected::parse)? {
            // `params` typed for a method the message does not end up naming, or for a
            // notification: read again with every member of `params` kept.
            Shape::Object(env) if !env.target_stands() => {
                Shape::parse_generic(text).map_err(Rejected::parse)?
            }
            shape => shape,
        };
        let env = match shape {
            Shape::Object(env) => env,
            Shape::Array => return Err(Rejected::invalid(None, "batches are not supported")),
            Shape::Scalar => {
                let reason = "a JSON-RPC message must be an object";
                return Err(Rejected::invalid(None, reason));
            }
        };
        Inbound::classify(env)?.unique_answers(text.as_bytes())
    }

    /// The message as classified, unless it carries answers with a repeated key: the check
    /// reads `bytes`, the text it was classified from.
    pub(super) fn unique_answers(self, bytes: &[u8]) -> Result<Inbound, Rejected> {
        match self {
            Inbound::Response { id, .. } if let Some(reason) = unique::in_message(bytes) => {
                Ok(Inbound::BadResponse { id, reason })
            }
            Inbound::Request(req) if req.params.carries_answers() => {
                match unique::in_input_responses(bytes) {
                    Some(reason) => Err(Rejected {
                        id: Some(req.id),
                        error: Error::invalid_params(reason),
                    }),
                    None => Ok(Inbound::Request(req)),
                }
            }
            other => Ok(other),
        }
    }

    /// Classifies the members of a message's object.
    fn classify(env: Envelope<'_>) -> Result<Inbound, Rejected> {
        let id = match env.id {
            None => None,
            Some(raw) if members::is_null(raw) => None,
            Some(raw) => match RequestId::from_raw(raw) {
                Some(id) => Some(id),
                None => {
                    let reason = "`id` must be a string or an integer";
                    return Err(Rejected::invalid(None, reason));
                }
            },
        };
        let version = env
            .jsonrpc
            .is_some_and(|v| members::string(v).as_deref() == Some("2.0"));
        match env.method {
            Some(_) if !version => Err(Rejected::invalid(id, "`jsonrpc` must be \"2.0\"")),
            Some(method) => {
                let has_id = env.id.is_some();
                match (env.target, id) {
                    (Some(target), Some(id)) => Inbound::target(target, id),
                    (target, id) => {
                        // Typed params stand only with an id (`Envelope::target_stands`).
                        debug_assert!(target.is_none(), "typed params of a message without id");
                        Inbound::call(env.params, method, id, has_id)
                    }
                }
            }
            None => Inbound::response(&env, id, version),
        }
    }

    /// A request (with an id) or a notification (without one).
    fn call(
        params: Option<Shape<Members<'_>>>,
        method: &RawValue,
        id: Option<RequestId>,
        has_id: bool,
    ) -> Result<Inbound, Rejected> {
        let Some(name) = members::string(method) else {
            return Err(Rejected::invalid(id, "`method` must be a string"));
        };
        let method = Method::parse(&name);
        let params = match params {
            None => None,
            Some(Shape::Object(p)) => Some(p),
            Some(_) => return Err(Rejected::invalid(id, "`params` must be an object")),
        };
        match (id, has_id) {
            (Some(id), _) => {
                let params = Params::from_members(&method, params).map_err(Rejected::parse)?;
                Ok(Inbound::Request(Request { id, method, params }))
            }
            (None, true) => Err(Rejected::invalid(None, "a request `id` must not be null")),
            (None, false) => {
                let params = params.map(Members::into_object).transpose();
                let params = params.map_err(Rejected::parse)?;
                Ok(Inbound::Notification { method, params })
            }
        }
    }

    /// A request to a target method whose `params` were read typed (it has an id: see
    /// `Envelope::target_stands`).
    fn target(target: Target<'_>, id: RequestId) -> Result<Inbound, Rejected> {
        let Target { method, params, .. } = target;
        let Shape::Object(params) = params else {
            return Err(Rejected::invalid(Some(id), "`params` must be an object"));
        };
        let params = Params::from_target(&method, params).map_err(Rejected::parse)?;
        Ok(Inbound::Request(Request { id, method, params }))
    }

    /// A response to a request the server sent: a result or an error. With an id, anything
    /// else is a [`Inbound::BadResponse`], which is never answered.
    fn response(
        env: &Envelope<'_>,
        id: Option<RequestId>,
        version: bool,
    ) -> Result<Inbound, Rejected> {
        let Some(id) = id else {
            return Err(Rejected::invalid(None, "a response needs an `id`"));
        };
        let bad = |reason: String| {
            Ok(Inbound::BadResponse {
                id: id.clone(),
                reason,
            })
        };
        if !version {
            return bad("`jsonrpc` must be \"2.0\"".into());
        }
        let value = |raw| members::read::<Value>(raw).map_err(Rejected::parse);
        let outcome = match (env.result, env.error) {
            (Some(result), None) => Ok(value(result)?),
            (None, Some(err)) => match serde_json::from_value::<Error>(value(err)?) {
                Ok(error) => Err(error),
                Err(e) => return bad(format!("malformed `error` object: {}", echo(e))),
            },
            (Some(_), Some(_)) => {
                return bad("a response has both a `result` and an `error`".into());
            }
            (None, None) => return bad("a response needs a `result` or an `error`".into()),
        };
        Ok(Inbound::Response { id, outcome })
    }
}

impl Rejected {
    /// A `-32700`: the text is no JSON (no id can be read from it).
    fn parse(e: impl fmt::Display) -> Rejected {
        Rejected {
            id: None,
            error: Error::parse_error(e),
        }
    }

    /// A `-32600` for the message with `id` (if it could be read).
    fn invalid(id: Option<RequestId>, reason: &str) -> Rejected {
        Rejected {
            id,
            error: Error::invalid_request(reason),
        }
    }
}

/// What the start of a message over the size limit tells: the top-level `id` and whether a
/// `method` came before the cut (a request) or not (perhaps a response). serde_json's own
/// tokenizer reads the members in order and skips their values without building them, until
/// the text ends where it was cut: an `id` written after a large member (a response's
/// `result`, as some clients order it) is not found.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Head {
    /// The `id`, when one was read.
    pub id: Option<RequestId>,
    /// Whether a `method` member was read.
    pub method: bool,
}

/// Reads [`Head`] from the first bytes of a message.
pub(crate) fn head_of(prefix: &[u8]) -> Head {
    use serde::de::{Deserializer as _, IgnoredAny, MapAccess, Visitor};
    use std::cell::RefCell;

    struct Members<'a>(&'a RefCell<Head>);
    impl<'de> Visitor<'de> for Members<'_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON-RPC message")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                match key.as_str() {
                    "id" => {
                        let id = map.next_value::<Value>()?;
                        self.0.borrow_mut().id = RequestId::from_value(&id);
                    }
                    "method" => {
                        map.next_value::<IgnoredAny>()?;
                        self.0.borrow_mut().method = true;
                    }
                    _ => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            Ok(())
        }
    }

    let head = RefCell::new(Head::default());
    // The text is cut, so this ends in an error; what was read before it is kept.
    let _ = serde_json::Deserializer::from_slice(prefix).deserialize_map(Members(&head));
    head.into_inner()
}

/// The `requestId` a `notifications/cancelled` names, when it is a valid id.
pub(crate) fn cancelled_request(params: Option<&JsonObject>) -> Option<RequestId> {
    params?.get("requestId").and_then(RequestId::from_value)
}

/// A success response message as a value (the test client's answers to the server).
#[cfg(feature = "testing")]
pub(crate) fn response(id: &RequestId, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

/// A notification message as a value (the test client's).
pub(crate) fn notification_value(method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "method": method, "params": params })
}

/// A request message as a value (the test client's).
pub(crate) fn request_value(id: &RequestId, method: &str, params: Option<Value>) -> Value {
    let mut m = JsonObject::new();
    m.insert("jsonrpc".into(), "2.0".into());
    m.insert("id".into(), serde_json::to_value(id).unwrap_or(Value::Null));
    m.insert("method".into(), method.into());
    if let Some(p) = params {
        m.insert("params".into(), p);
    }
    Value::Object(m)
}
