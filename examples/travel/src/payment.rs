//! The payment page, served by this binary on loopback: `GET /pay/{booking}` is a page with the
//! booking and a "Pay" button; the button posts to `POST /pay/{booking}/complete`, a JSON
//! endpoint that completes the payment. The card details would be typed here, on the server's
//! page, never into a form of the MCP client (MCP forbids asking payment credentials in a form);
//! `pay_for_trip` sends the user here in URL mode and waits until the page reports the payment.

use crate::booking::thousands;
use crate::store::Store;
use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use rondo_mcp::elicit;
use rondo_mcp::prelude::*;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// The most connections the page serves at once.
pub const MAX_PAGE_CONNECTIONS: usize = 64;
/// A client that sends no complete request head in this long is disconnected.
pub const PAGE_HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The user pays on the server's page; the client only opens it. A client without URL-mode
/// elicitation gets `-32021` naming it: payment never falls back to a form or to arguments.
#[elicit(url, fallback = refuse)]
pub fn pay_on_page(booking_id: &str, total_usd: u32, page: &str) -> Url {
    Url::new(
        format!(
            "Pay ${} for booking {booking_id} on the travel server's payment page",
            thousands(total_usd)
        ),
        format!("{page}/pay/{booking_id}"),
    )
}

/// The running page: its base URL (`http://127.0.0.1:PORT`).
#[derive(Debug, Clone)]
pub struct PaymentPage {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
}

impl PaymentPage {
    /// Binds `addr` (a loopback address; port 0 picks one) and serves the page in the
    /// background for as long as the runtime runs.
    pub async fn start(store: Store, addr: SocketAddr) -> std::io::Result<PaymentPage> {
        let listener = TcpListener::bind(addr).await?;
        let local = listener.local_addr()?;
        let base = format!("http://{local}");
        let origin = base.clone();
        let open = Arc::new(Semaphore::new(MAX_PAGE_CONNECTIONS));
        tokio::spawn(async move {
            loop {
                let Ok(permit) = open.clone().acquire_owned().await else {
                    return;
                };
                let stream = match listener.accept().await {
                    Ok((s, _)) => s,
                    Err(e) => {
                        tracing::warn!(error = %e, "payment page: accept failed");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                };
                let (store, origin) = (store.clone(), origin.clone());
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |req| {
                        let (store, origin) = (store.clone(), origin.clone());
                        async move { Ok::<_, Infallible>(route(&store, &origin, &req)) }
                    });
                    let conn = http1::Builder::new()
                        .timer(TokioTimer::new())
                        .header_read_timeout(PAGE_HEADER_TIMEOUT)
                        .serve_connection(TokioIo::new(stream), service);
                    if let Err(e) = conn.await {
                        tracing::debug!(error = %e, "payment page connection ended");
                    }
                    drop(permit);
                });
            }
        });
        Ok(PaymentPage { base })
    }
}

fn route(store: &Store, origin: &str, req: &Request<Incoming>) -> Response<Full<Bytes>> {
    let path = req.uri().path();
    let Some(rest) = path.strip_prefix("/pay/") else {
        return reply(StatusCode::NOT_FOUND, "text/plain", "not found".into());
    };
    match (req.method(), rest.strip_suffix("/complete")) {
        (&Method::GET, None) => page(store, rest),
        (&Method::POST, Some(id)) => complete(store, origin, req, id),
        _ => reply(
            StatusCode::METHOD_NOT_ALLOWED,
            "text/plain",
            "method not allowed".into(),
        ),
    }
}

/// The page: the booking, its total, and a button that posts to the completion endpoint.
fn page(store: &Store, id: &str) -> Response<Full<Bytes>> {
    let Some(b) = store.get(id) else {
        return reply(
            StatusCode::NOT_FOUND,
            "text/plain",
            format!("no booking {id}"),
        );
    };
    let status = match &b.receipt {
        Some(r) => format!("Paid. Receipt {r}."),
        None => "Not paid yet.".into(),
    };
    let html = format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pay for booking {id}</title></head>
<body>
<h1>Pay for booking {id}</h1>
<p>{summary}</p>
<p>Passenger: {passenger}</p>
<p>Total: <strong>${total}</strong></p>
<p id="status">{status}</p>
<button id="pay">Pay ${total}</button>
<script>
document.getElementById("pay").onclick = async () => {{
  const r = await fetch("/pay/{id}/complete", {{method: "POST", headers: {{"content-type": "application/json"}}, body: "{{}}"}});
  const j = await r.json();
  document.getElementById("status").textContent = j.paid ? "Paid. Receipt " + j.receipt + ". You can close this page." : j.error;
}};
</script>
</body></html>"#,
        summary = escape(&b.summary),
        passenger = escape(&b.passenger),
        total = thousands(b.total_usd),
    );
    reply(StatusCode::OK, "text/html; charset=utf-8", html)
}

/// Completes the payment. Only a JSON POST (which a foreign web page cannot send without the
/// server's consent, unlike a plain form post) from this page's own origin, or from a client
/// that sends no `Origin` (the demo, the tests).
fn complete(
    store: &Store,
    origin: &str,
    req: &Request<Incoming>,
    id: &str,
) -> Response<Full<Bytes>> {
    let json_body = req
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let same_origin = req
        .headers()
        .get("origin")
        .is_none_or(|o| o.as_bytes() == origin.as_bytes());
    if !json_body || !same_origin {
        let body = serde_json::json!({"paid": false, "error": "send JSON from the payment page"});
        return reply(StatusCode::FORBIDDEN, "application/json", body.to_string());
    }
    let body = match store.pay(id) {
        Some(receipt) => serde_json::json!({"booking_id": id, "paid": true, "receipt": receipt}),
        None => {
            let body = serde_json::json!({"paid": false, "error": format!("no booking {id}")});
            return reply(StatusCode::NOT_FOUND, "application/json", body.to_string());
        }
    };
    reply(StatusCode::OK, "application/json", body.to_string())
}

fn reply(status: StatusCode, kind: &str, body: String) -> Response<Full<Bytes>> {
    let mut res = Response::new(Full::new(Bytes::from(body)));
    *res.status_mut() = status;
    if let Ok(v) = kind.parse() {
        res.headers_mut().insert("content-type", v);
    }
    res
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
