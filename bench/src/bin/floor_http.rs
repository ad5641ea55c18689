//! The floor over HTTP (see `rondo_bench::floor`): `floor_http 127.0.0.1:PORT` serves POSTs at
//! `/mcp` with a bare hyper 1 HTTP/1.1 server, one task per connection (no `TCP_NODELAY`, as `rondo_http` and `rmcp_http`), no MCP
//! framework. The
//! body is parsed into typed structs and answered as a JSON body (`application/json`), the
//! same bytes Rondo answers a stateless 2026-07-28 `tools/call` with. Other methods and paths
//! get 405 and 404; a notification gets 202. Runs until killed.

use bytes::Bytes;
use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use rondo_bench::floor::{Reply, WAIT, reply};
use std::convert::Infallible;
use tokio::net::TcpListener;

/// The largest body read.
const MAX_BODY: usize = 1 << 20;

fn status(code: StatusCode) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::new()));
    *r.status_mut() = code;
    r
}

async fn handle(req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    if req.uri().path() != "/mcp" {
        return Ok(status(StatusCode::NOT_FOUND));
    }
    if req.method() != Method::POST {
        return Ok(status(StatusCode::METHOD_NOT_ALLOWED));
    }
    let Ok(body) = Limited::new(req.into_body(), MAX_BODY).collect().await else {
        return Ok(status(StatusCode::BAD_REQUEST));
    };
    let answer = match reply(&body.to_bytes()) {
        Reply::None => return Ok(status(StatusCode::ACCEPTED)),
        Reply::Now(answer) => answer,
        Reply::Later(answer) => {
            tokio::time::sleep(WAIT).await;
            answer
        }
    };
    let mut r = Response::new(Full::new(Bytes::from(answer)));
    r.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    Ok(r)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:3000".into());
    let listener = TcpListener::bind(addr).await?;
    loop {
        let (stream, _) = listener.accept().await?;
        tokio::spawn(async move {
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service_fn(handle))
                .await;
        });
    }
}
