//! The rmcp benchmark server (`add`, `delete_file`, `delete_file_mrtr` and `wait`) over stdin/stdout.

use rmcp::ServiceExt;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = rondo_bench::rmcp_server::Bench::with_wait()
        .serve(rmcp::transport::stdio())
        .await?;
    running.waiting().await?;
    Ok(())
}
