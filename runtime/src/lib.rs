#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
#![forbid(unsafe_code)]

extern crate self as rondo_mcp;

#[cfg(feature = "auth")]
pub mod auth;
mod backchannel;
mod batch_reply;
mod canonical;
mod config;
mod cx;
mod dispatch;
mod era;
pub mod guide;
mod handler;
#[cfg(feature = "http")]
pub mod http;
mod identity;
mod lines;
mod notify;
mod observe;
mod policy;
mod prompts;
pub mod protocol;
pub mod question;
mod resources;
mod router;
mod schema;
mod server;
mod server_info;
mod session;
mod sets;
pub mod shared;
#[cfg(feature = "skills")]
pub mod skills;
#[cfg(not(feature = "skills"))]
mod skills;
pub mod state;
mod stdio;
mod sync;
pub mod tasks;
#[cfg(feature = "testing")]
pub mod testing;
mod tools;

#[doc(hidden)]
pub mod __private;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;

pub use cx::{AskError, Cx, OnceError, Principal};
pub use handler::Handler;
pub use identity::{AccessToken, Audience, BearerToken, Scope, ScopeError};
pub use notify::{Change, Notifier};
pub use policy::{Capability, ClientPolicy, ClientRule, PolicyError};
pub use prompts::{IntoPromptResult, PromptHandler, PromptSet};
pub use protocol::{CacheHint, CacheScope, Error};
pub use question::form;
pub use question::{
    ASKS_META_KEY, Answer, AnyQuestion, Asked, Asking, Elicit, ElicitEnum, Fallback, Form,
    FormError, FormField, ModelReply, NotAccepted, Roots, Sample, Url, UrlFlow,
};
pub use resources::{IntoResourceResult, ResourceDef, ResourceHandler, ResourceSet, UriTemplate};
pub use router::Router;
pub use server::Server;
pub use server_info::ServerInfo;
#[cfg(feature = "skills")]
pub use skills::Skills;
pub use tools::{
    BoxFuture, IntoToolResult, Json, TaskMode, TaskStart, TaskSupport, ToolBox, ToolHandler,
    ToolSet,
};

pub use rondo_mcp_macros::Elicit;
#[cfg(feature = "skills")]
pub use rondo_mcp_macros::skills;
pub use rondo_mcp_macros::{
    elicit, prompt, prompts, resource, resources, roots, sample, tool, toolbox, tools,
};

/// The names most servers need.
pub mod prelude {
    pub use crate::cx::{AskError, Cx, OnceError, Principal};
    pub use crate::handler::Handler;
    pub use crate::protocol::{
        CacheHint, CacheScope, CallToolResult, ClientCapabilities, Content, Cursor, Error,
        GetPromptResult, Page, Prompt, PromptMessage, ReadResourceResult, Resource,
        ResourceContents, ResourceTemplate, Tool,
    };
    pub use crate::question::{Answer, Form, Roots, Sample, Url};
    pub use crate::router::Router;
    pub use crate::server::Server;
    pub use crate::server_info::ServerInfo;
    pub use crate::tools::Json;
}
