//! Custom methods and the methods of extensions ([`Extensions`]): what the engine serves after
//! the core methods, at every revision, through the same middleware. Rondo's tasks and skills
//! extensions are served here too (`tasks.rs`, `skills.rs` build them).

use super::drive::{Driven, drive, settle};
use super::{Answered, ClientFacts, Conn, Engine, Parsed};
use crate::cx::AskState;
use crate::extension::Extensions;
use crate::handler::Handler;
use crate::protocol::{self, Body, ClientCapabilities, Error, JsonObject, Method, RequestId};
use serde_json::Value;
use std::sync::Arc;

impl<H: Handler> Engine<H> {
    /// Serves `method` when a custom method or an extension registered it; `-32601`
    /// otherwise. In order: the extension is served at this revision, the client declared it
    /// (when the extension requires it: `-32021`, before the params are read), the params,
    /// then the method itself, driven as any handler (a panic is `-32603`, a cancelled
    /// request answers nothing).
    pub(super) async fn custom(
        &self,
        id: RequestId,
        method: Method,
        body: Body,
        conn: &Conn,
        facts: ClientFacts,
    ) -> Answered {
        let Some(served) = self.extensions.get(method.as_str(), facts.revision) else {
            return Err(Error::method_not_found(method.as_str()));
        };
        if let Some(ext) = served.extension.as_deref()
            && served.client_must_declare
            && !facts.capabilities().declares_extension(ext)
        {
            return Err(Error::missing_capability(
                &ClientCapabilities::with_extension(ext),
            ));
        }
        let params = params_object(body)?;
        let call = served.call.clone();
        let cx = self.cx(Parsed::plain(id, method), conn, facts, AskState::default());
        let mut served = call.call(&cx, params);
        match drive(&cx, served.as_mut()).await {
            Driven::Done(result) => {
                let result = result?;
                // A result with a `resultType` of its own wrote its envelope itself (an
                // extension's own result, as `tasks/get`'s, whose `ttlMs` is the task's).
                if result.get("resultType").is_some() {
                    return protocol::write(&result).map(Some);
                }
                let private = cx.lists_filtered();
                self.complete(&cx.req.method, cx.req.revision, result, private)
            }
            other => settle(other),
        }
    }
}

/// The params object of a request the core does not parse (`{}` when none was sent). The
/// task methods' params were read for the HTTP transport's routing check; they are given
/// back as the object they came from.
fn params_object(body: Body) -> Result<JsonObject, Error> {
    match body {
        Body::Other(params) => Ok(params.unwrap_or_default()),
        Body::Task(params) => {
            let params = params?;
            let mut obj = JsonObject::new();
            obj.insert("taskId".into(), Value::String(params.task_id));
            if let Some(responses) = params.input_responses {
                obj.insert("inputResponses".into(), Value::Object(responses));
            }
            Ok(obj)
        }
        // The core parses the params of its own methods, which never come here.
        _ => Err(Error::internal(
            "a core method's params for a custom method",
        )),
    }
}

/// The extensions every engine registers from what its handler declares: tasks when its info
/// advertises them, skills when it declares the Skills extension. Both go through
/// [`Extensions::add_extension`], the door `Server::extension` opens to users.
pub(super) fn built_in<H: Handler>(
    handler: &Arc<H>,
    info: &mut crate::server_info::ServerInfo,
) -> Extensions {
    let mut extensions = Extensions::default();
    let declared = |id: &str| {
        info.capabilities
            .extensions
            .as_ref()
            .and_then(|e| e.get(id))
            .and_then(Value::as_object)
            .cloned()
    };
    let tasks = declared(crate::protocol::TASKS_EXTENSION).map(super::tasks::extension);
    let skills = declared(crate::protocol::SKILLS_EXTENSION)
        .map(|settings| super::skills::extension(handler.clone(), settings));
    for ext in tasks.into_iter().chain(skills) {
        if let Some(e) = info.capabilities.extensions.as_mut() {
            e.remove(ext.id());
        }
        // The built-in names are the extensions' own, and each is registered once.
        if let Err(e) = extensions.add_extension(ext, &mut info.capabilities) {
            unreachable!("a built-in extension was refused: {e}");
        }
    }
    extensions
}
