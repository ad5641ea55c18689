//! The payment page, served by this binary on loopback: `GET /pay/{token}` is a page with the
//! booking and a "Pay" button; the button posts to `POST /pay/{token}/complete`, a JSON
//! endpoint that completes the payment. The token is a payment link (see [`crate::links`]):
//! unguessable, single use, expiring, bound to one booking and to the `pay_for_trip` call that
//! made it. A booking id in its place, or any other token this server did not make, is an
//! unknown link. The card details would be typed here, on the server's page, never into a form
//! of the MCP client (MCP forbids asking payment credentials in a form); `pay_for_trip` sends
//! the user here in URL mode and waits until the page reports the payment.
//!
//! A refused link is a page for the person who opened it: the status (404 unknown, 410 expired
//! or used, 409 paid through another link, 403 another user's, 503 unavailable or another
//! press still completing) and a sentence saying what happened and what to do. The completion endpoint answers JSON, the same
//! sentence in `error`, which the page's script shows.

use crate::booking::thousands;
use crate::links::{Link, PayLinks, Refusal};
use crate::store::{Booking, Payment, Store};
use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::{HeaderMap, Method, Request, Response, StatusCode};
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

/// What every page allows itself: nothing from elsewhere, no framing (the Pay button cannot be
/// overlaid by another site), no forms.
const CSP: &str = "default-src 'none'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The user pays on the server's page; the client only opens it. A client without URL-mode
/// elicitation gets `-32021` naming it: payment never falls back to a form or to arguments.
/// `link` is the page's whole URL, made once per call (the rendering must be the same on every
/// round).
#[elicit(url, fallback = refuse)]
pub fn pay_on_page(booking_id: &str, total_usd: u32, link: &str) -> Url {
    Url::new(
        format!(
            "Pay ${} for booking {booking_id} on the travel server's payment page",
            thousands(total_usd)
        ),
        link,
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
    pub async fn start(
        store: Store,
        links: PayLinks,
        addr: SocketAddr,
    ) -> std::io::Result<PaymentPage> {
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
                let (store, links, origin) = (store.clone(), links.clone(), origin.clone());
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |req| {
                        let (store, links, origin) = (store.clone(), links.clone(), origin.clone());
                        async move { Ok::<_, Infallible>(route(&store, &links, &origin, &req).await) }
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

async fn route(
    store: &Store,
    links: &PayLinks,
    origin: &str,
    req: &Request<Incoming>,
) -> Response<Full<Bytes>> {
    let Some(rest) = req.uri().path().strip_prefix("/pay/") else {
        return html(
            StatusCode::NOT_FOUND,
            "There is no page here",
            "Payment pages open from the link your assistant gives you when you ask it to pay.",
        );
    };
    match rest.strip_suffix("/complete") {
        None if matches!(*req.method(), Method::GET | Method::HEAD) => {
            page(store, links, req.headers(), rest)
        }
        Some(token) if req.method() == Method::POST => {
            complete(store, links, origin, req, token).await
        }
        None => not_allowed("GET"),
        Some(_) => not_allowed("POST"),
    }
}

/// The link in `token`, and its booking, if it can still pay: not unknown, expired, another
/// user's, or for a booking already paid.
fn usable(
    store: &Store,
    links: &PayLinks,
    headers: &HeaderMap,
    token: &str,
) -> Result<(Link, Booking), Refusal> {
    let link = links.open(token, headers)?;
    let booking = store.get(&link.booking).ok_or(Refusal::Unknown)?;
    if booking.receipt.is_some() {
        return Err(paid_by(store.paid_by(&booking.id).as_deref(), &link));
    }
    Ok((link, booking))
}

/// Why a link cannot pay a booking that `by` (a flow) paid.
fn paid_by(by: Option<&str>, link: &Link) -> Refusal {
    if by == Some(link.flow.as_str()) {
        Refusal::Used
    } else {
        Refusal::PaidElsewhere
    }
}

/// What the page says in place of its button's work when the browser runs no script: the
/// payment is a JSON POST (the completion endpoint's rule), which a plain form cannot send.
pub const NO_SCRIPT: &str = "Paying needs JavaScript: turn it on for this page and reload it.";

/// The page: the booking, its total, and a button that posts to the completion endpoint. It
/// shows no passenger: whoever holds the link sees it, and the link proves no identity.
fn page(
    store: &Store,
    links: &PayLinks,
    headers: &HeaderMap,
    token: &str,
) -> Response<Full<Bytes>> {
    let (_, b) = match usable(store, links, headers, token) {
        Ok(usable) => usable,
        Err(refused) => return refusal(refused),
    };
    let mut nonce = [0u8; 16];
    if getrandom::fill(&mut nonce).is_err() {
        return refusal(Refusal::Unavailable);
    }
    let nonce = crate::links::hex(&nonce);
    let html = format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>Pay for booking {id}</title></head>
<body>
<h1>Pay for booking {id}</h1>
<p>{summary}</p>
<p>Total: <strong>${total}</strong></p>
<p id="status">Not paid yet.</p>
<button id="pay" type="button" data-complete="/pay/{token}/complete">Pay ${total}</button>
<noscript><p>{NO_SCRIPT}</p></noscript>
<script nonce="{nonce}">
(() => {{
  const button = document.getElementById("pay");
  const shown = document.getElementById("status");
  button.addEventListener("click", async () => {{
    button.disabled = true;
    try {{
      const r = await fetch(button.dataset.complete, {{method: "POST", headers: {{"content-type": "application/json"}}, body: "{{}}"}});
      const j = await r.json();
      shown.textContent = j.paid ? "Paid. Receipt " + j.receipt + ". You can close this page." : j.error;
      if (r.status === 503) button.disabled = false;
    }} catch (e) {{
      shown.textContent = "The payment could not be sent. Check your connection and press Pay again.";
      button.disabled = false;
    }}
  }});
}})();
</script>
</body></html>"#,
        id = escape(&b.id),
        summary = escape(&b.summary),
        total = thousands(b.total_usd),
    );
    let csp = format!("{CSP}; script-src 'nonce-{nonce}'; connect-src 'self'");
    respond(StatusCode::OK, "text/html; charset=utf-8", html, &csp)
}

/// Completes the payment. Only a JSON POST (which a foreign web page cannot send without the
/// server's consent, unlike a plain form post) from this page's own origin, or from a client
/// that sends no `Origin` (the demo, the tests), with a link that can still pay; the link is
/// claimed before paying, so it pays once however many completions arrive.
async fn complete(
    store: &Store,
    links: &PayLinks,
    origin: &str,
    req: &Request<Incoming>,
    token: &str,
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
        return respond(
            StatusCode::FORBIDDEN,
            "application/json",
            body.to_string(),
            CSP,
        );
    }
    let (link, booking) = match usable(store, links, req.headers(), token) {
        Ok(usable) => usable,
        Err(refused) => return refused_json(refused),
    };
    let claimed = match links.claim(&link).await {
        Ok(claimed) => claimed,
        Err(refused) => return refused_json(refused),
    };
    match store.pay(&booking.id, &link.flow) {
        Payment::Paid(receipt) => {
            links.spent(claimed, &receipt).await;
            let body =
                serde_json::json!({"booking_id": booking.id, "paid": true, "receipt": receipt});
            respond(StatusCode::OK, "application/json", body.to_string(), CSP)
        }
        Payment::AlreadyPaid { by } => {
            links.unclaim(claimed).await;
            refused_json(paid_by(Some(&by), &link))
        }
        Payment::NoBooking => {
            links.unclaim(claimed).await;
            refused_json(Refusal::Unknown)
        }
    }
}

/// A refused link, as a page.
fn refusal(why: Refusal) -> Response<Full<Bytes>> {
    let status = StatusCode::from_u16(why.status()).unwrap_or(StatusCode::BAD_REQUEST);
    let mut res = html(status, why.title(), why.text());
    if matches!(why, Refusal::Unavailable | Refusal::InProgress) {
        res.headers_mut()
            .insert("retry-after", hyper::header::HeaderValue::from_static("60"));
    }
    res
}

/// A refused link, for the page's script.
fn refused_json(why: Refusal) -> Response<Full<Bytes>> {
    let status = StatusCode::from_u16(why.status()).unwrap_or(StatusCode::BAD_REQUEST);
    let body = serde_json::json!({"paid": false, "error": why.to_string()});
    respond(status, "application/json", body.to_string(), CSP)
}

/// A request this address does not take.
fn not_allowed(allow: &'static str) -> Response<Full<Bytes>> {
    let mut res = html(
        StatusCode::METHOD_NOT_ALLOWED,
        "This address does not take that request",
        "Open your payment link in a browser; its Pay button sends the payment.",
    );
    res.headers_mut()
        .insert("allow", hyper::header::HeaderValue::from_static(allow));
    res
}

/// A page of a heading and a sentence.
fn html(status: StatusCode, title: &str, text: &str) -> Response<Full<Bytes>> {
    let body = format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>{title}</title></head>
<body>
<h1>{title}</h1>
<p>{text}</p>
</body></html>"#,
        title = escape(title),
        text = escape(text),
    );
    respond(status, "text/html; charset=utf-8", body, CSP)
}

fn respond(status: StatusCode, kind: &str, body: String, csp: &str) -> Response<Full<Bytes>> {
    let mut res = Response::new(Full::new(Bytes::from(body)));
    *res.status_mut() = status;
    let headers = res.headers_mut();
    for (name, value) in [
        ("content-type", kind),
        ("content-security-policy", csp),
        // A link is spent once but still names a booking: keep it out of caches and of the
        // `Referer` of anything the page might lead to.
        ("cache-control", "no-store"),
        ("referrer-policy", "no-referrer"),
        ("x-content-type-options", "nosniff"),
    ] {
        if let Ok(v) = value.parse() {
            headers.insert(name, v);
        }
    }
    res
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
