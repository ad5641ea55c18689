//! An OTLP/HTTP sink for the tracing benchmark: answers every request `200` with an empty
//! body, after reading it whole, and counts the bytes it was sent (printed on stderr when
//! stdin closes).
//!
//! ```text
//! otlp_sink 127.0.0.1:4318
//! ```

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:4318".to_owned());
    let listener = TcpListener::bind(&addr).await?;
    let received = Arc::new(AtomicU64::new(0));
    let counted = received.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let counted = counted.clone();
            tokio::spawn(async move {
                let service = service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                    let counted = counted.clone();
                    async move {
                        let body = req.into_body().collect().await?.to_bytes();
                        counted.fetch_add(body.len() as u64, Ordering::Relaxed);
                        Ok::<_, hyper::Error>(hyper::Response::new(Full::new(Bytes::new())))
                    }
                });
                let conn = hyper::server::conn::http1::Builder::new();
                let _ = conn.serve_connection(TokioIo::new(stream), service).await;
            });
        }
    });
    let mut line = String::new();
    while std::io::stdin().read_line(&mut line)? > 0 {
        line.clear();
    }
    eprintln!(
        "otlp_sink: {} bytes received",
        received.load(Ordering::Relaxed)
    );
    Ok(())
}
