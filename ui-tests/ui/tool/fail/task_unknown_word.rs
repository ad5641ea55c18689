/// Runs a long job.
#[rondo_mcp::tool(task = always, task_start = explicit)]
async fn job() -> String {
    String::new()
}

fn main() {
    let _ = rondo_mcp::tools![job];
}
