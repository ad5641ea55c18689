//! What a list entry may name: a tool defined in a block, tools reached through `self::`,
//! `super::` and `crate::`, two tools whose functions share a name in different modules, and
//! hand-written handler types, a generic one included.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::JsonObject;
use rondo_mcp::{BoxFuture, ToolHandler};

mod a {
    /// Searches the a index.
    #[rondo_mcp::tool(name = "a_search")]
    pub fn search(query: String) -> String {
        query
    }
}

mod b {
    /// Searches the b index.
    #[rondo_mcp::tool(name = "b_search")]
    pub fn search(query: String) -> String {
        query
    }

    pub fn set() -> rondo_mcp::ToolSet {
        rondo_mcp::tools![self::search, super::a::search, crate::Ping]
    }
}

/// A hand-written tool.
struct Ping;

impl ToolHandler for Ping {
    const NAME: &'static str = "ping";
    fn definition() -> Tool {
        Tool::new("ping", "Answers pong", Tool::no_arguments())
    }
    fn call<'a>(
        _cx: &'a Cx,
        _args: &'a JsonObject,
    ) -> BoxFuture<'a, Result<CallToolResult, Error>> {
        Box::pin(async { Ok(CallToolResult::text("pong")) })
    }
}

/// A hand-written tool generic over its answer.
struct Echo<T>(T);

impl<T: Default + std::fmt::Display + 'static> ToolHandler for Echo<T> {
    const NAME: &'static str = "echo";
    fn definition() -> Tool {
        Tool::new("echo", "Answers a default value", Tool::no_arguments())
    }
    fn call<'a>(
        _cx: &'a Cx,
        _args: &'a JsonObject,
    ) -> BoxFuture<'a, Result<CallToolResult, Error>> {
        Box::pin(async { Ok(CallToolResult::text(T::default().to_string())) })
    }
}

fn main() {
    /// Counts, in a block.
    #[rondo_mcp::tool]
    fn count() -> u32 {
        3
    }

    let _ = b::set();
    let _ = rondo_mcp::tools![count, a::search, b::search, Ping, Echo<u8>];
    let _ = rondo_mcp::tools![Echo::<u8>];
    let _ = Echo(0_u8).0;
}
