//! The server side of the official MCP conformance suite (`@modelcontextprotocol/conformance`),
//! written with Rondo: the binary `conformance` serves it over HTTP; [`router`] is the server.
//!
//! Every tool, prompt and resource name is fixed by the suite (see `conformance/NOTES.md`).

mod asks;
mod content;
mod prompts;
mod resources;
mod tasks;
mod tools;
mod url;

use rondo_mcp::prelude::*;

/// The conformance server: every tool, prompt and resource the suite calls, the skills of
/// `skills/` (the Skills extension's scenarios read them), with the task
/// settings the suite needs ([`server`]).
pub fn router() -> Router {
    let info = ServerInfo::new("rondo-conformance", env!("CARGO_PKG_VERSION"))
        .instructions("The server side of the MCP conformance suite, written with Rondo.")
        .with_logging()
        .with_tools_list_changed()
        .with_prompts_list_changed()
        .with_resources_list_changed()
        .with_resource_subscriptions();
    Router::new(info)
        .tools(tools::all())
        .tools(asks::tools())
        .tools(url::tools())
        .tools(tasks::tools())
        .prompts(prompts::all())
        .prompts(asks::prompts())
        .resources(resources::all())
        // The Skills extension (SEP-2640): `skills/` checked and embedded at compile time.
        .skills(rondo_mcp::skills!("skills"))
        .completion(|req| async move {
            let values = ["test-value-1", "test-value-2", "test-value-3"];
            let prefix = req.argument.value;
            let values = values
                .iter()
                .filter(|v| v.starts_with(&prefix))
                .map(|v| v.to_string())
                .collect();
            Ok(rondo_mcp::protocol::Completion {
                values,
                total: None,
                has_more: Some(false),
            })
        })
}

/// The server the binary serves: [`router`] with tasks kept 10 minutes and up to 1000 per
/// principal (every task of the suite is the one principal-less caller's, and terminal tasks
/// count until they expire, while the suite may run twice against one server).
pub fn server() -> Server<Router> {
    Server::new(router())
        .task_ttl(std::time::Duration::from_secs(600))
        .max_tasks_per_principal(1000)
}
