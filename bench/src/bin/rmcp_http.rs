//! The rmcp benchmark server (`add`, `delete_file`, `delete_file_mrtr`) over rmcp's Streamable
//! HTTP transport: `rmcp_http 127.0.0.1:PORT` serves `http://127.0.0.1:PORT/mcp` until killed.
//!
//! `StreamableHttpService` with `legacy_session_mode: false` (no sessions: every request is
//! served statelessly, as rmcp always does for 2026-07-28 requests) and `json_response: true`
//! (an `application/json` body rather than an SSE stream for a plain call), behind a bare hyper
//! 1 HTTP/1.1 server, one task per connection, as `rondo_http` serves. The service factory
//! clones one `Bench` (its tool router is built once).

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::sync::Arc;
use tokio::net::TcpListener;
use tower_service::Service;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:3000".into());
    let bench = rondo_bench::rmcp_server::Bench::new();
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true);
    let service = StreamableHttpService::new(
        move || Ok(bench.clone()),
        Arc::new(NeverSessionManager::default()),
        config,
    );
    let listener = TcpListener::bind(addr).await?;
    loop {
        let (stream, _) = listener.accept().await?;
        let service = service.clone();
        tokio::spawn(async move {
            let serve = service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                let mut service = service.clone();
                async move {
                    if req.uri().path() == "/mcp" {
                        service.call(req).await
                    } else {
                        Ok(hyper::Response::builder()
                            .status(404)
                            .body(Default::default())
                            .expect("a 404"))
                    }
                }
            });
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), serve)
                .await;
        });
    }
}
