//! A request's `params`, parsed once when the message is read (design §23): the transports and
//! the engine see typed values, never a loose object read by string key, and what the client
//! sent is moved into them, never copied.
//!
//! A param that is wrong is kept as its error, answered when the engine reaches the method: the
//! order of the checks (era, capability, then params) stays what each revision says, and the
//! error is answered on the request's id.

use super::members::{Members, TargetMembers};
use super::{CompleteRequest, Cursor, Error, JsonObject, Meta, Method, echo};
use serde_json::Value;

/// The `params` of one request.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Params {
    /// `_meta`: each revision reads its own fields from it.
    pub meta: Option<Meta>,
    /// What the method's own params are.
    pub body: Body,
}

/// The method's own params, by the kind of method.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Body {
    /// `tools/call`, `prompts/get` and `resources/read`: the methods that may ask for input.
    Target(Result<TargetParams, Error>),
    /// The list methods: the cursor, if one was sent.
    List(Result<Option<Cursor>, Error>),
    /// `completion/complete`.
    Complete(Result<CompleteRequest, Error>),
    /// `tasks/get`, `tasks/update` and `tasks/cancel`.
    Task(Result<TaskParams, Error>),
    /// Any other method: the params object without `_meta` (`None` when none was sent).
    Other(Option<JsonObject>),
}

impl Default for Body {
    fn default() -> Self {
        Body::Other(None)
    }
}

/// The params of a method that may ask for input.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TargetParams {
    /// `name` (a tool or a prompt) or `uri` (a resource).
    pub target: String,
    /// `arguments`: `{}` when absent or `null`, and always `{}` for `resources/read`.
    pub arguments: JsonObject,
    /// `requestState`, as sent (the state codec says whether it opens).
    pub request_state: Option<Value>,
    /// `inputResponses`: an object whose values are objects.
    pub input_responses: Option<JsonObject>,
}

/// The params of the tasks extension's methods.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TaskParams {
    /// `taskId`, as sent (the store says whether it names a task).
    pub task_id: String,
    /// `inputResponses` of `tasks/update` (required there; `None` for the other two).
    pub input_responses: Option<JsonObject>,
}

impl TaskParams {
    /// Reads them from `obj`: `taskId` a string, and for `tasks/update` `inputResponses` an
    /// object (the tasks extension's typed params read them so too).
    pub(crate) fn read(method: &Method, mut obj: JsonObject) -> Result<TaskParams, Error> {
        let task_id = match obj.remove("taskId") {
            Some(Value::String(s)) => s,
            _ => return Err(Error::invalid_params("`taskId` must be a string")),
        };
        let input_responses = match obj.remove("inputResponses") {
            _ if *method != Method::TasksUpdate => None,
            Some(Value::Object(responses)) => Some(responses),
            _ => return Err(Error::invalid_params("`inputResponses` must be an object")),
        };
        Ok(TaskParams {
            task_id,
            input_responses,
        })
    }
}

impl Params {
    /// Parses `params` (absent: `None`) for `method`, moving its members.
    pub(crate) fn parse(method: &Method, params: Option<JsonObject>) -> Params {
        let Some(mut obj) = params else {
            return Params {
                meta: None,
                body: Body::of(method, None),
            };
        };
        let meta = obj.remove("_meta").map(Meta::from_value);
        Params {
            meta,
            body: Body::of(method, Some(obj)),
        }
    }

    /// Reads `params` from its members (absent: `None`). The methods that may ask read only
    /// their own members, each built from its text; any other method's object is built whole
    /// and read by [`Params::parse`]. An error is a member's text that is JSON no `Value`
    /// holds (a number beyond `f64`): the message is then a parse error, as it was when the
    /// whole message was built as a `Value`.
    pub(crate) fn from_members(
        method: &Method,
        params: Option<Members<'_>>,
    ) -> Result<Params, serde_json::Error> {
        let Some(obj) = params else {
            return Ok(Params::parse(method, None));
        };
        if !matches!(
            method,
            Method::ToolsCall | Method::PromptsGet | Method::ResourcesRead
        ) {
            return Ok(Params::parse(method, Some(obj.into_object()?)));
        }
        Params::from_target(method, TargetMembers::of(method, &obj)?)
    }

    /// The params of a target method from the members its request reads (read in the
    /// message's one pass, or taken from its members by [`Params::from_members`]).
    pub(crate) fn from_target(
        method: &Method,
        t: TargetMembers<'_>,
    ) -> Result<Params, serde_json::Error> {
        Ok(Params {
            meta: t.meta.map(Meta::from_raw).transpose()?,
            body: Body::Target(TargetParams::check(
                method,
                t.target,
                t.arguments,
                t.input_responses,
                t.request_state,
            )),
        })
    }

    /// Whether the message carries answers (`inputResponses`), whose keys must each appear once.
    pub(crate) fn carries_answers(&self) -> bool {
        match &self.body {
            Body::Target(Ok(t)) => t.input_responses.is_some(),
            Body::Task(Ok(t)) => t.input_responses.is_some(),
            Body::Other(Some(obj)) => obj.contains_key("inputResponses"),
            _ => false,
        }
    }

    /// The target (`name` or `uri`) of a method that may ask, when it was read.
    #[cfg(any(test, feature = "http"))]
    pub(crate) fn target(&self) -> Option<&TargetParams> {
        match &self.body {
            Body::Target(Ok(t)) => Some(t),
            _ => None,
        }
    }

    /// What the HTTP `Mcp-Name` header must equal, when the params name it: the target of a
    /// method that may ask, or the `taskId` of a task method.
    #[cfg(any(test, feature = "http"))]
    pub(crate) fn routing_name(&self) -> Option<&str> {
        match &self.body {
            Body::Target(Ok(t)) => Some(&t.target),
            Body::Task(Ok(t)) => Some(&t.task_id),
            _ => None,
        }
    }

    /// The params object of a method without typed params (`None` when none was sent).
    pub(crate) fn other(&self) -> Option<&JsonObject> {
        match &self.body {
            Body::Other(obj) => obj.as_ref(),
            _ => None,
        }
    }
}

impl Body {
    fn of(method: &Method, obj: Option<JsonObject>) -> Body {
        match method {
            Method::ToolsCall | Method::PromptsGet | Method::ResourcesRead => {
                Body::Target(TargetParams::parse(method, obj.unwrap_or_default()))
            }
            Method::ToolsList
            | Method::PromptsList
            | Method::ResourcesList
            | Method::ResourceTemplatesList => Body::List(cursor(obj)),
            Method::TasksGet | Method::TasksUpdate | Method::TasksCancel => {
                Body::Task(TaskParams::read(method, obj.unwrap_or_default()))
            }
            Method::Complete => Body::Complete(
                serde_json::from_value(Value::Object(obj.unwrap_or_default())).map_err(|e| {
                    Error::invalid_params(format!("Invalid completion request: {}", echo(e)))
                }),
            ),
            _ => Body::Other(obj),
        }
    }
}

impl TargetParams {
    /// Reads them from the params object, moving its members out.
    fn parse(method: &Method, mut obj: JsonObject) -> Result<TargetParams, Error> {
        let key = method.target_param().unwrap_or("name");
        let target = obj.remove(key);
        let arguments = obj.remove("arguments");
        let input_responses = obj.remove("inputResponses");
        let request_state = obj.remove("requestState");
        TargetParams::check(method, target, arguments, input_responses, request_state)
    }

    /// The checks of both readers, in the order the errors are given.
    fn check(
        method: &Method,
        target: Option<Value>,
        arguments: Option<Value>,
        input_responses: Option<Value>,
        request_state: Option<Value>,
    ) -> Result<TargetParams, Error> {
        let key = method.target_param().unwrap_or("name");
        let Some(Value::String(target)) = target else {
            return Err(Error::invalid_params(format!("`{key}` must be a string")));
        };
        let arguments = match arguments {
            _ if *method == Method::ResourcesRead => JsonObject::new(),
            None | Some(Value::Null) => JsonObject::new(),
            Some(Value::Object(args)) => args,
            Some(_) => return Err(Error::invalid_params("`arguments` must be an object")),
        };
        let input_responses = match input_responses {
            None => None,
            Some(Value::Object(responses)) => Some(answers(responses)?),
            Some(_) => return Err(Error::invalid_params("`inputResponses` must be an object")),
        };
        Ok(TargetParams {
            target,
            arguments,
            request_state,
            input_responses,
        })
    }
}

/// `inputResponses` whose values are all objects (`-32602` naming the first that is not).
pub(crate) fn answers(responses: JsonObject) -> Result<JsonObject, Error> {
    match responses.iter().find(|(_, v)| !v.is_object()) {
        Some((key, _)) => Err(Error::invalid_params(format!(
            "`inputResponses.{}` must be an object",
            echo(key)
        ))),
        None => Ok(responses),
    }
}

/// The `cursor` of a list method (or of `resources/directory/read`).
pub(crate) fn cursor(params: Option<JsonObject>) -> Result<Option<Cursor>, Error> {
    match params.and_then(|mut p| p.remove("cursor")) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(Cursor::from_wire(s))),
        Some(_) => Err(Error::invalid_params("`cursor` must be a string")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(method: &str, params: Value) -> Params {
        Params::parse(&Method::parse(method), params.as_object().cloned())
    }

    #[test]
    fn a_call_moves_its_members_into_typed_params() {
        let p = parse(
            "tools/call",
            json!({"name": "add", "arguments": {"a": 1}, "requestState": "s",
                   "inputResponses": {"q": {"action": "accept"}}, "_meta": {"k": 1}}),
        );
        assert_eq!(p.meta, Some(Meta::Value(json!({"k": 1}))));
        let t = p.target().expect("typed");
        assert_eq!(t.target, "add");
        assert_eq!(Value::Object(t.arguments.clone()), json!({"a": 1}));
        assert_eq!(t.request_state, Some(json!("s")));
        assert!(p.carries_answers());
    }

    #[test]
    fn wrong_params_are_kept_as_their_error() {
        for (method, params, message) in [
            ("tools/call", json!({}), "`name` must be a string"),
            ("tools/call", json!({"name": 1}), "`name` must be a string"),
            (
                "resources/read",
                json!({"name": "x"}),
                "`uri` must be a string",
            ),
            (
                "prompts/get",
                json!({"name": "p", "arguments": []}),
                "`arguments` must be an object",
            ),
            (
                "tools/call",
                json!({"name": "t", "inputResponses": 3}),
                "`inputResponses` must be an object",
            ),
            (
                "tools/call",
                json!({"name": "t", "inputResponses": {"q": 1}}),
                "`inputResponses.q` must be an object",
            ),
        ] {
            match parse(method, params).body {
                Body::Target(Err(e)) => assert_eq!(e.message, message),
                other => panic!("{method}: {other:?}"),
            }
        }
        match parse("tools/list", json!({"cursor": 1})).body {
            Body::List(Err(e)) => assert_eq!(e.message, "`cursor` must be a string"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn task_methods_have_typed_params_and_a_routing_name() {
        let p = parse(
            "tasks/update",
            json!({"taskId": "t1", "inputResponses": {"q": {"action": "accept"}}}),
        );
        assert_eq!(p.routing_name(), Some("t1"));
        assert!(p.carries_answers());
        let p = parse("tasks/get", json!({"taskId": "t2", "inputResponses": {}}));
        assert_eq!(p.routing_name(), Some("t2"));
        assert!(!p.carries_answers(), "only tasks/update takes answers");
        for (method, params, message) in [
            ("tasks/get", json!({}), "`taskId` must be a string"),
            (
                "tasks/cancel",
                json!({"taskId": 7}),
                "`taskId` must be a string",
            ),
            (
                "tasks/update",
                json!({"taskId": "t"}),
                "`inputResponses` must be an object",
            ),
            (
                "tasks/update",
                json!({"taskId": "t", "inputResponses": []}),
                "`inputResponses` must be an object",
            ),
        ] {
            let p = parse(method, params);
            assert_eq!(p.routing_name(), None);
            match p.body {
                Body::Task(Err(e)) => assert_eq!(e.message, message),
                other => panic!("{method}: {other:?}"),
            }
        }
        assert_eq!(
            parse("tools/call", json!({"name": "x"})).routing_name(),
            Some("x")
        );
    }

    #[test]
    fn a_resource_read_has_no_arguments_and_others_keep_their_object() {
        let p = parse("resources/read", json!({"uri": "u", "arguments": 5}));
        assert!(p.target().expect("typed").arguments.is_empty());
        let p = parse("initialize", json!({"protocolVersion": "v", "_meta": {}}));
        assert_eq!(
            p.other().map(|o| Value::Object(o.clone())),
            Some(json!({"protocolVersion": "v"}))
        );
        assert_eq!(parse("ping", Value::Null).body, Body::Other(None));
    }
}
