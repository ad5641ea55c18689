//! The Rondo benchmark server (`add` and `delete_file`) over Streamable HTTP:
//! `rondo_http 127.0.0.1:PORT` serves `http://127.0.0.1:PORT/mcp` until SIGTERM or ctrl-c.

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:3000".into());
    let server = rondo_bench::rondo_server::server();
    rondo_mcp::http::serve(server, addr, rondo_mcp::http::shutdown_signal()).await
}
