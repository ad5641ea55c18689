/// Runs a long job.
#[rondo_mcp::tool(task = optional, task_start = later)]
async fn job() -> String {
    String::new()
}

fn main() {
    let _ = rondo_mcp::tools![job];
}
