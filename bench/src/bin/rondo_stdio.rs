//! The Rondo benchmark server (`add` and `delete_file`) over stdin/stdout.

#[tokio::main]
async fn main() -> std::io::Result<()> {
    rondo_bench::rondo_server::server().serve_stdio().await
}
