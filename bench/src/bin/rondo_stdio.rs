//! The Rondo benchmark server (`add`, `delete_file` and `wait`) over stdin/stdout.

#[tokio::main]
async fn main() -> std::io::Result<()> {
    rondo_bench::rondo_server::stdio_server()
        .serve_stdio()
        .await
}
