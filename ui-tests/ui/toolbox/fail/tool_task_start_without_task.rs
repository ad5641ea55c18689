use rondo_mcp::prelude::*;

struct Jobs;

#[rondo_mcp::toolbox]
impl Jobs {
    /// Runs a long job.
    #[tool(task = optional)]
    async fn job(&self) -> String {
        String::new()
    }

    /// Runs a longer job.
    #[tool(task_start = explicit)]
    async fn longer(&self) -> String {
        String::new()
    }
}

fn main() {
    let _ = Router::new(ServerInfo::new("jobs", "1.0.0")).tools(Jobs);
}
