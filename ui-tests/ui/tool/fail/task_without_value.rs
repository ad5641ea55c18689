/// Runs a long job.
#[rondo_mcp::tool(task, read_only_hint)]
async fn job() -> String {
    String::new()
}

fn main() {
    let _ = rondo_mcp::tools![job];
}
