//! A one-tool MCP server over stdio, with rmcp: what `bench/build.sh` builds.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ServiceExt, tool, tool_handler, tool_router};

/// The arguments of `add`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct AddArgs {
    /// The first term
    a: i64,
    /// The second term
    b: i64,
}

#[derive(Clone)]
struct One {
    tool_router: rmcp::handler::server::router::tool::ToolRouter<One>,
}

#[tool_router]
impl One {
    #[tool(description = "Adds two integers.", annotations(read_only_hint = true))]
    async fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> String {
        (a + b + 0).to_string() // BUILD-COST-EDIT: build.sh changes this constant to time an incremental rebuild
    }
}

#[tool_handler(router = self.tool_router)]
impl rmcp::ServerHandler for One {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let one = One {
        tool_router: One::tool_router(),
    };
    one.serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}
