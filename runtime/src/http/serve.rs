//! A ready HTTP/1.1 server for the endpoint, with graceful shutdown. [`serve`] is the one
//! convenience that starts from a [`Server`], so this file sits above `server.rs`.

use super::body::{self, McpBody};
use super::config::HttpConfig;
use super::rewake::Rewake;
use super::service::McpService;
use crate::handler::Handler;
use crate::server::Server;
use futures_util::FutureExt;
use futures_util::future::Either;
use http::{Request, StatusCode};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::{HttpService, service_fn};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

/// A client that sends no complete request head in this long is disconnected.
const HEADER_TIMEOUT: Duration = Duration::from_secs(30);

/// Binds `addr` and serves `server` at `/mcp` with the default [`HttpConfig`] until `shutdown`
/// resolves, then drains (see [`serve_listener`]). Bind a loopback address
/// (`127.0.0.1:PORT`) for a local server (2026-07-28 § Streamable HTTP, Security: "servers
/// SHOULD bind only to localhost"); the default config also refuses non-local `Host`s.
///
/// # Runtime
///
/// `serve` starts no runtime or thread of its own: each connection is a task on the caller's
/// runtime, which under `#[tokio::main]` has one worker per core. On a small machine whose
/// cores its clients also use (a 2-core VM beside its load generator or its host), every
/// worker with work runs beside them. A runtime with fewer workers
/// (`#[tokio::main(worker_threads = 1)]`, or `TOKIO_WORKER_THREADS=1` in the environment)
/// leaves them their cores, and the kernel places that worker where a core is free. On a
/// 2-core VM with wrk on one core (the repository's `BENCHMARKS.md`, "Any client"), one
/// worker answered 74k-86k requests/s at 8 and 50 connections where two answered 59k-70k. On a
/// machine with cores to spare, keep the default.
pub async fn serve<H: Handler>(
    server: Server<H>,
    addr: impl ToSocketAddrs,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let listener = TcpListener::bind(addr).await?;
    serve_listener(server.into_http(HttpConfig::default()), listener, shutdown).await
}

/// Serves `service` on `listener` at its configured path, and at its metadata paths when it
/// is protected (other paths get 404), until
/// `shutdown` resolves. Then it stops accepting, calls [`McpService::shutdown`] (listen and GET
/// streams end), lets requests in flight finish for the drain timeout, and cancels what is
/// left (dropping a modern request's stream cancels it).
pub async fn serve_listener<H: Handler>(
    service: McpService<H>,
    listener: TcpListener,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let graceful = GracefulShutdown::new();
    let mut conns = JoinSet::new();
    let mut shutdown = pin!(shutdown);
    // One permit per open connection: at the limit, nothing is accepted until one closes.
    let open = Arc::new(Semaphore::new(service.config().max_connections));
    tracing::info!(addr = ?listener.local_addr().ok(), "serving MCP over HTTP");
    loop {
        let (permit, accepted) = tokio::select! {
            _ = &mut shutdown => break,
            a = accept(&listener, &open) => a,
        };
        while conns.try_join_next().is_some() {}
        match accepted {
            Ok((stream, peer)) => {
                let close = CancellationToken::new();
                let conn = connection(service.clone(), stream, peer, close.clone());
                let conn = Rewake::new(graceful.watch(conn));
                conns.spawn(async move {
                    tokio::select! {
                        ended = conn => if let Err(e) = ended {
                            tracing::debug!(error = %e, "connection ended with an error");
                        },
                        // An HTTP+SSE client that stopped reading: hyper would wait for it
                        // to take the end of its stream for ever, holding the connection.
                        _ = close.cancelled() => tracing::debug!("connection closed: its client stopped reading"),
                    }
                    drop(permit);
                });
            }
            Err(e) => {
                // Out of file descriptors and the like: back off instead of spinning.
                tracing::warn!(error = %e, "accept failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    drop(listener);
    tracing::info!(
        open = graceful.count(),
        "shutting down: draining requests in flight"
    );
    service.shutdown();
    let drain = service.config().drain;
    if tokio::time::timeout(drain, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("drain timeout: cancelling the requests still in flight");
    }
    conns.shutdown().await;
    Ok(())
}

/// Resolves when the process is asked to stop: `SIGTERM` (what a process manager, a
/// container runtime or Kubernetes sends first) or `SIGINT` (ctrl-c). Pass it as the shutdown
/// future of [`serve`] or [`serve_listener`] so a stopping instance drains its requests in
/// flight instead of dropping them. Where `SIGTERM` cannot be watched (not Unix, or the
/// handler cannot be installed) it waits for ctrl-c alone.
pub async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => tracing::info!("SIGTERM: shutting down"),
                    _ = tokio::signal::ctrl_c() => tracing::info!("SIGINT: shutting down"),
                }
                return;
            }
            Err(e) => tracing::warn!(error = %e, "cannot watch SIGTERM; ctrl-c only"),
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// Waits for a free connection place, then for a connection.
async fn accept(
    listener: &TcpListener,
    open: &Arc<Semaphore>,
) -> (OwnedSemaphorePermit, io::Result<(TcpStream, SocketAddr)>) {
    let permit = open
        .clone()
        .acquire_owned()
        .await
        .expect("the semaphore is never closed");
    (permit, listener.accept().await)
}

/// The connection from `peer`, serving the endpoint at its path (other paths get 404). The
/// service is a closure, so hyper holds each request's future where it holds a request in
/// flight, with no allocation of its own per request; the peer's address goes straight to
/// the endpoint (sessions are counted per client by it), and so does `close`, which ends the
/// connection (an HTTP+SSE stream whose client stopped reading).
fn connection<H: Handler>(
    service: McpService<H>,
    stream: TcpStream,
    peer: SocketAddr,
    close: CancellationToken,
) -> http1::Connection<
    TokioIo<TcpStream>,
    impl HttpService<Incoming, ResBody = McpBody, Error = Infallible, Future: Send> + Send,
> {
    let serve = service_fn(move |req: Request<Incoming>| {
        let answer = if service.serves(req.uri().path()) {
            Either::Left(service.handle_from(req, Some(peer), Some(&close)))
        } else {
            Either::Right(std::future::ready(body::status(StatusCode::NOT_FOUND)))
        };
        answer.map(Ok::<_, Infallible>)
    });
    http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .serve_connection(TokioIo::new(stream), serve)
}
