#![doc = include_str!("../../README.md")]
#![warn(missing_docs)]

extern crate self as rondo_mcp;

mod backchannel;
pub mod canonical;
mod cx;
mod dispatch;
mod handler;
#[cfg(feature = "http")]
pub mod http;
mod listen;
pub mod protocol;
mod question;
mod resources;
mod router;
mod server;
pub mod state;
mod stdio;
#[cfg(feature = "testing")]
pub mod testing;
mod tools;

#[doc(hidden)]
pub mod __private;

pub use cx::{AskError, Cx, Principal, form_schema, parse_as};
pub use handler::{CacheHint, CacheScope, Handler, ServerInfo};
pub use listen::{Change, Notifier};
pub use protocol::Error;
pub use question::form;
pub use question::{Elicit, ElicitEnum, FormError, FormField};
pub use resources::{
    IntoPromptResult, IntoResourceResult, PromptHandler, PromptSet, ResourceDef, ResourceHandler,
    ResourceSet, UriTemplate,
};
pub use router::Router;
pub use server::Server;
pub use tools::{BoxFuture, IntoToolResult, Json, ToolBox, ToolHandler, ToolSet};

pub use rondo_mcp_macros::Elicit;
pub use rondo_mcp_macros::{prompt, prompts, resource, resources, tool, toolbox, tools};

/// The names most servers need.
pub mod prelude {
    pub use crate::cx::{AskError, Cx, Principal};
    pub use crate::handler::{CacheHint, CacheScope, Handler, ServerInfo};
    pub use crate::protocol::{
        CallToolResult, ClientCapabilities, Content, Error, GetPromptResult, Prompt, PromptMessage,
        ReadResourceResult, Resource, ResourceContents, ResourceTemplate, Tool,
    };
    pub use crate::router::Router;
    pub use crate::server::Server;
    pub use crate::tools::Json;
}
