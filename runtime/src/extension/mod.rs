//! Custom request methods and extensions: what a server serves beyond the core protocol,
//! registered with [`Server::method`](crate::Server::method) and
//! [`Server::extension`](crate::Server::extension). Rondo's own extensions (tasks, skills) are
//! registered through the same two types.
//!
//! A [`CustomMethod`] is a name in the server's own namespace with typed params and a typed
//! result; an [`Extension`] is an id, the settings the server declares under
//! `capabilities.extensions` (in `initialize` and `server/discover`) and its methods. The
//! engine serves them after the core methods, through the server's middleware like any
//! request; their rules are in [`names`].

mod error;
mod names;
mod table;

pub use error::ExtensionError;
pub(crate) use table::Extensions;

use crate::cx::Cx;
use crate::protocol::{Error, JsonObject};
use crate::sync::BoxFuture;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

/// A request method of the server's own: `acme/reindex`, served at every revision with typed
/// params and result.
///
/// The params are read from the request's `params` object (without `_meta`; an absent object
/// reads as `{}`) with serde: params that do not parse answer `-32602` naming the field
/// (`` `limit`: invalid type: string "ten", expected u32 ``). The result is written as the
/// method's result (on 2026-07-28 with the envelope every result carries; a result with a
/// `resultType` of its own, an extension's result type, is written as it is and carries its
/// envelope itself, as the tasks extension's `tasks/get` does). The name must be
/// in a namespace of the server's own, never a core method's or a core namespace's
/// ([`ExtensionError`]); the server refuses it when it is registered.
///
/// ```
/// use rondo_mcp::prelude::*;
/// use rondo_mcp::CustomMethod;
///
/// #[derive(serde::Deserialize)]
/// struct Reindex {
///     shard: u32,
/// }
///
/// #[derive(serde::Serialize)]
/// struct Reindexed {
///     documents: u64,
/// }
///
/// let reindex = CustomMethod::new("acme/reindex", |_cx: &Cx, p: Reindex| {
///     Box::pin(async move { Ok(Reindexed { documents: u64::from(p.shard) * 1_000 }) })
/// });
/// let server = Server::new(Router::new(ServerInfo::new("acme", "1.0.0"))).method(reindex);
/// # let _ = server;
/// ```
#[derive(Clone)]
pub struct CustomMethod {
    pub(crate) name: String,
    pub(crate) call: Arc<dyn Call>,
}

impl fmt::Debug for CustomMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("CustomMethod").field(&self.name).finish()
    }
}

impl CustomMethod {
    /// The method `name`, served by `f` with its params read as `P`. `f` returns a boxed
    /// future (`Box::pin(async move { .. })`) that may borrow the request's context.
    pub fn new<P, R, F>(name: impl Into<String>, f: F) -> CustomMethod
    where
        P: DeserializeOwned + Send + 'static,
        R: Serialize + 'static,
        F: for<'a> Fn(&'a Cx, P) -> BoxFuture<'a, Result<R, Error>> + Send + Sync + 'static,
    {
        CustomMethod {
            name: name.into(),
            call: Arc::new(FromFn(f, PhantomData)),
        }
    }

    /// The method's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// A custom method with its params and result erased: what the engine calls.
pub(crate) trait Call: Send + Sync {
    /// Reads `params` and serves the request; the result as a JSON value.
    fn call<'a>(&'a self, cx: &'a Cx, params: JsonObject) -> BoxFuture<'a, Result<Value, Error>>;
}

struct FromFn<F, P, R>(F, PhantomData<fn(P) -> R>);

impl<P, R, F> Call for FromFn<F, P, R>
where
    P: DeserializeOwned + Send + 'static,
    R: Serialize + 'static,
    F: for<'a> Fn(&'a Cx, P) -> BoxFuture<'a, Result<R, Error>> + Send + Sync + 'static,
{
    fn call<'a>(&'a self, cx: &'a Cx, params: JsonObject) -> BoxFuture<'a, Result<Value, Error>> {
        let params = match read_params::<P>(params) {
            Ok(p) => p,
            Err(e) => return Box::pin(std::future::ready(Err(e))),
        };
        let fut = (self.0)(cx, params);
        Box::pin(async move {
            let result = fut.await?;
            serde_json::to_value(result)
                .map_err(|e| Error::internal(format!("the result could not be written: {e}")))
        })
    }
}

/// Reads typed params from the params object; `-32602` naming the field that did not parse.
fn read_params<P: DeserializeOwned>(params: JsonObject) -> Result<P, Error> {
    serde_path_to_error::deserialize(Value::Object(params)).map_err(|e| {
        let path = e.path().to_string();
        let inner = crate::protocol::echo(e.into_inner());
        Error::invalid_params(if path == "." {
            inner
        } else {
            format!("`{path}`: {inner}")
        })
    })
}

/// An extension: its id (`com.example/search`), the settings the server declares for it under
/// `capabilities.extensions` in `initialize` and `server/discover`, and its methods. Rondo's
/// tasks and skills extensions are built with it.
///
/// ```
/// use rondo_mcp::prelude::*;
/// use rondo_mcp::{CustomMethod, Extension};
///
/// #[derive(serde::Deserialize)]
/// struct Ask {
///     text: String,
/// }
///
/// let echo = CustomMethod::new("acme.echo/say", |_cx: &Cx, p: Ask| {
///     Box::pin(async move { Ok(serde_json::json!({ "said": p.text })) })
/// });
/// let mut settings = serde_json::Map::new();
/// settings.insert("loud".into(), true.into());
/// let extension = Extension::new("com.acme/echo").settings(settings).method(echo);
/// let server = Server::new(Router::new(ServerInfo::new("acme", "1.0.0"))).extension(extension);
/// let declared = server.info().capabilities.extensions.as_ref().unwrap();
/// assert_eq!(declared["com.acme/echo"], serde_json::json!({ "loud": true }));
/// ```
#[derive(Clone)]
pub struct Extension {
    pub(crate) id: String,
    pub(crate) settings: JsonObject,
    pub(crate) methods: Vec<CustomMethod>,
    pub(crate) client_must_declare: bool,
    pub(crate) handshake: bool,
}

impl fmt::Debug for Extension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Extension")
            .field("id", &self.id)
            .field("settings", &self.settings)
            .field("methods", &self.methods)
            .finish_non_exhaustive()
    }
}

impl Extension {
    /// The extension `id`: a prefix and a name (`com.acme/echo`), declared with no settings
    /// (`{}`), served at every revision, to every client.
    pub fn new(id: impl Into<String>) -> Extension {
        Extension {
            id: id.into(),
            settings: JsonObject::new(),
            methods: Vec::new(),
            client_must_declare: false,
            handshake: true,
        }
    }

    /// The settings declared for it (`capabilities.extensions[id]`).
    pub fn settings(mut self, settings: JsonObject) -> Extension {
        self.settings = settings;
        self
    }

    /// Adds a method of the extension.
    pub fn method(mut self, method: CustomMethod) -> Extension {
        self.methods.push(method);
        self
    }

    /// Serves its methods only to a request whose client declared the extension too
    /// (2026-07-28's `_meta` capabilities, a session's `initialize`): any other gets `-32021`
    /// naming it, before its params are read (the tasks extension is served so).
    pub fn client_must_declare(mut self) -> Extension {
        self.client_must_declare = true;
        self
    }

    /// Declares and serves it on 2026-07-28 only: a session of a handshake revision
    /// (2024-11-05 to 2025-11-25) is not told of it and gets `-32601` for its methods (the
    /// tasks extension is so: those revisions have tasks of their own).
    pub fn modern_only(mut self) -> Extension {
        self.handshake = false;
        self
    }

    /// Its id.
    pub fn id(&self) -> &str {
        &self.id
    }
}
