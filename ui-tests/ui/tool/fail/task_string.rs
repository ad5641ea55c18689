/// Runs a long job.
#[rondo_mcp::tool(task = "optional")]
async fn job() -> String {
    String::new()
}

fn main() {
    let _ = rondo_mcp::tools![job];
}
