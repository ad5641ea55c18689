//! The payment links: the URL `pay_for_trip` sends the user to carries a token that is the same
//! on every round of one call and new for each call, names neither the booking nor the
//! passenger, pays once (one of two concurrent completions), expires, pays only its own
//! booking, is refused by another instance sharing the key ring, and, on a page with a user
//! login, only for the user who asked. Every refusal is a page with its status and a sentence;
//! odd requests get clean answers.

use crate::common;

use bytes::Bytes;
use common::*;
use http_body_util::{BodyExt, Full};
use rondo_example_travel::links::{LINK_TTL, PageLogin};
use rondo_example_travel::payment::NO_SCRIPT;
use rondo_example_travel::{Config, Travel, web};
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use rondo_mcp::state::KeyRing;
use rondo_mcp::testing::{ManualClock, Reply, Script, TestClient};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const MODERN: Revision = Revision::V2026_07_28;

/// A modern client that declares everything and answers nothing by itself.
async fn modern(server: Server<Router>) -> TestClient {
    client(server, MODERN, everything(), Script::new()).await
}

/// The page (or the completion's JSON) refuses: `status`, and a page, not JSON or a trace,
/// whose heading is `title`.
async fn refused_page(url: &str, status: u16, title: &str) {
    let (got, body) = web::get(url, 65536).await.unwrap();
    assert_eq!(got, status, "{url}: {body}");
    assert!(
        body.starts_with("<!doctype html>") && body.contains(&format!("<h1>{title}</h1>")),
        "{url}: {body}"
    );
    assert!(
        !body.contains("panicked") && !body.contains("<button"),
        "{body}"
    );
}

/// The completion endpoint refuses: `status`, and JSON whose `error` starts with `title`.
async fn refused_completion(url: &str, status: u16, title: &str) {
    let (got, body) = web::post_json(&format!("{url}/complete"), "{}", 4096)
        .await
        .unwrap();
    assert_eq!(got, status, "{url}: {body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["paid"], false, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.starts_with(title), "{error}");
}

/// Pays through the link, as the page's button does.
async fn pay(url: &str) -> Value {
    let (status, body) = web::post_json(&format!("{url}/complete"), "{}", 4096)
        .await
        .unwrap();
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// Books the Barcelona package for `passenger` through `book_trip`; the booking's id.
async fn book(travel: &Travel, server: Server<Router>, passenger: &str) -> String {
    let details = json!({"passenger_name": passenger, "date_of_birth": "1906-12-09",
        "emergency_contact_name": "Vincent", "emergency_contact_phone": "+1 212 555 0100"});
    let script = Script::new()
        .elicit(Reply::accept(json!({"approve": true})))
        .elicit(Reply::accept(details));
    let c = client(server, MODERN, everything(), script).await;
    let before = travel.store.booked();
    c.call_tool("book_trip", json!({"package_id": "barcelona"}))
        .await
        .unwrap();
    assert_eq!(travel.store.booked(), before + 1);
    format!("trip-{}", before + 1)
}

#[tokio::test]
async fn the_link_is_the_same_on_every_round_of_a_call_and_new_for_each_call() {
    let (server, travel) = travel(Config::default()).await;
    let c = modern(server).await;
    let call = json!({"name": "pay_for_trip", "arguments": {"booking_id": "demo"}});
    let first = first_round(&c, "demo").await;
    let link = link_in(&first);
    // A retry that answers nothing is asked again: the same link.
    let mut retry = call.clone();
    retry["requestState"] = first["requestState"].clone();
    retry["inputResponses"] = json!({});
    let second = c.request("tools/call", retry).await.unwrap();
    assert_eq!(
        link_in(&second),
        link,
        "the second round renders the same link"
    );
    // Another call: another link.
    let other = link_for(&c, "demo").await;
    assert_ne!(other, link);
    // The answer to the second round's rendering counts (a changed link would be a new
    // question, asked again): the user pays, and the retry reads the payment.
    pay(&link).await;
    let mut done = call;
    done["requestState"] = second["requestState"].clone();
    done["inputResponses"] = json!({"pay_on_page": {"action": "accept"}});
    let done = c.request("tools/call", done).await.unwrap();
    assert_eq!(
        done["content"][0]["text"], "Paid $3,000 for booking demo: receipt R-DEMO-3000.",
        "{done}"
    );
    assert!(travel.store.receipt("demo").is_some());

    // 2025-11-25: one request per call, a link per call.
    let (server, _) = travel_server().await;
    let script = Script::new().elicit(Reply::Decline).elicit(Reply::Decline);
    let c = client(server, Revision::V2025_11_25, everything(), script).await;
    for _ in 0..2 {
        c.call_tool("pay_for_trip", json!({"booking_id": "demo"}))
            .await
            .unwrap();
    }
    let links: Vec<String> = asked(&c)
        .into_iter()
        .filter_map(|(_, p)| p["url"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(links.len(), 2);
    assert_ne!(links[0], links[1]);
}

async fn travel_server() -> (Server<Router>, Travel) {
    travel(Config::default()).await
}

#[tokio::test]
async fn the_link_names_neither_the_booking_nor_the_passenger() {
    let (server, travel) = travel_server().await;
    let booking = book(&travel, server.clone(), "Grace Hopper").await;
    let c = modern(server).await;
    let link = link_for(&c, &booking).await;
    let token = link
        .strip_prefix(&format!("{}/pay/", travel.page))
        .unwrap_or_else(|| panic!("{link}"));
    assert!(
        token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
        "{token}"
    );
    for secret in [booking.as_str(), "Grace", "Hopper", "1906"] {
        assert!(!link.contains(secret), "{secret} in {link}");
    }
    // The page shows the booking and its total, not who travels: the link proves no identity.
    let (status, page) = web::get(&link, 65536).await.unwrap();
    assert_eq!(status, 200);
    assert!(
        page.contains(&format!("Pay for booking {booking}")),
        "{page}"
    );
    assert!(!page.contains("Grace Hopper"), "{page}");
    // Without script the button does nothing, so the page says why.
    assert!(
        page.contains(&format!("<noscript><p>{NO_SCRIPT}</p></noscript>")),
        "{page}"
    );
}

#[tokio::test]
async fn a_guessed_booking_url_is_an_unknown_link() {
    let (server, travel) = travel_server().await;
    let booking = book(&travel, server, "Grace Hopper").await;
    for guess in ["demo", booking.as_str(), "trip-2", "1"] {
        let url = format!("{}/pay/{guess}", travel.page);
        refused_page(&url, 404, "This payment link is not valid").await;
        refused_completion(&url, 404, "This payment link is not valid").await;
    }
    assert_eq!(travel.store.receipt("demo"), None);
    assert_eq!(travel.store.receipt(&booking), None);
}

#[tokio::test]
async fn an_unknown_forged_or_foreign_token_is_refused() {
    let (server, travel) = travel_server().await;
    let c = modern(server).await;
    let link = link_for(&c, "demo").await;
    let token = link.rsplit('/').next().unwrap().to_owned();
    // One character changed: the seal no longer holds.
    let flipped: String = {
        let mut t = token.clone().into_bytes();
        let i = t.len() / 2;
        t[i] = if t[i] == b'A' { b'B' } else { b'A' };
        String::from_utf8(t).unwrap()
    };
    // Made by another travel server (another key ring): not one of ours.
    let (elsewhere, _) = travel_server().await;
    let foreign = link_for(&modern(elsewhere).await, "demo").await;
    let foreign = foreign.rsplit('/').next().unwrap().to_owned();
    let unknown = [
        "A".repeat(token.len()),
        flipped,
        foreign,
        token[..token.len() - 4].to_owned(),
        format!("{token}A"),
        "not-a-token".to_owned(),
    ];
    for t in &unknown {
        let url = format!("{}/pay/{t}", travel.page);
        refused_page(&url, 404, "This payment link is not valid").await;
        refused_completion(&url, 404, "This payment link is not valid").await;
    }
    assert_eq!(travel.store.receipt("demo"), None);
    // The real link still pays.
    pay(&link).await;
}

#[tokio::test]
async fn a_used_link_is_refused_on_the_page_and_at_completion() {
    let (server, travel) = travel_server().await;
    let c = modern(server).await;
    let link = link_for(&c, "demo").await;
    let paid = pay(&link).await;
    assert_eq!(paid["receipt"], "R-DEMO-3000");
    refused_page(&link, 410, "This payment link has been used").await;
    refused_completion(&link, 410, "This payment link has been used").await;
    assert_eq!(travel.store.receipt("demo").as_deref(), Some("R-DEMO-3000"));
}

#[tokio::test]
async fn concurrent_completions_of_one_link_pay_once() {
    let (server, travel) = travel_server().await;
    let c = modern(server).await;
    let link = link_for(&c, "demo").await;
    let mut all = tokio::task::JoinSet::new();
    for _ in 0..8 {
        let complete = format!("{link}/complete");
        all.spawn(async move { web::post_json(&complete, "{}", 4096).await.unwrap() });
    }
    let mut statuses = Vec::new();
    while let Some(done) = all.join_next().await {
        let (status, body) = done.unwrap();
        if status != 200 {
            let body: Value = serde_json::from_str(&body).unwrap();
            assert!(
                body["error"]
                    .as_str()
                    .unwrap()
                    .starts_with("This payment link has been used"),
                "{body}"
            );
        }
        statuses.push(status);
    }
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 410, 410, 410, 410, 410, 410, 410]);
    assert_eq!(travel.store.receipt("demo").as_deref(), Some("R-DEMO-3000"));
}

#[tokio::test]
async fn an_expired_link_is_refused_and_pays_nothing() {
    let clock = ManualClock::new(1_800_000_000_000);
    let config = Config {
        clock: clock.clone(),
        ..Config::default()
    };
    let (server, travel) = travel(config).await;
    let c = modern(server).await;
    let link = link_for(&c, "demo").await;
    clock.advance(LINK_TTL - Duration::from_secs(1));
    let (status, _) = web::get(&link, 65536).await.unwrap();
    assert_eq!(status, 200, "still within its lifetime");
    clock.advance(Duration::from_secs(2));
    refused_page(&link, 410, "This payment link has expired").await;
    refused_completion(&link, 410, "This payment link has expired").await;
    assert_eq!(travel.store.receipt("demo"), None);
}

#[tokio::test]
async fn a_link_pays_only_its_own_booking_and_another_calls_link_finds_it_paid() {
    let (server, travel) = travel_server().await;
    let first = book(&travel, server.clone(), "Grace Hopper").await;
    let second = book(&travel, server.clone(), "Alan Turing").await;
    let c = modern(server).await;
    let for_first = link_for(&c, &first).await;
    let for_second = link_for(&c, &second).await;
    let paid = pay(&for_second).await;
    assert_eq!(paid["booking_id"], second.as_str());
    assert_eq!(travel.store.receipt(&first), None, "the other booking");
    // Two calls for one booking: two links; the one not used finds the booking paid.
    let again = link_for(&c, &first).await;
    assert_ne!(again, for_first);
    pay(&again).await;
    refused_page(&for_first, 409, "This booking is already paid").await;
    refused_completion(&for_first, 409, "This booking is already paid").await;
    refused_page(&again, 410, "This payment link has been used").await;
    assert_eq!(
        travel.store.receipt(&first).as_deref(),
        Some(format!("R-{}-3000", first.to_uppercase()).as_str())
    );
}

#[tokio::test]
async fn a_link_made_by_another_instance_sharing_the_key_ring_is_refused() {
    // A fleet shares the ring, but each process holds its own bookings: a link names the
    // store it was made for, so another instance refuses it instead of paying its own
    // booking of the same name.
    let ring = KeyRing::new(7, [7; 32]);
    let shared = || Config {
        state_keys: Some(ring.clone()),
        ..Config::default()
    };
    let (a, travel_a) = travel(shared()).await;
    let (_, travel_b) = travel(shared()).await;
    let link = link_for(&modern(a).await, "demo").await;
    let token = link.rsplit('/').next().unwrap();
    let on_b = format!("{}/pay/{token}", travel_b.page);
    refused_page(&on_b, 404, "This payment link is not valid").await;
    refused_completion(&on_b, 404, "This payment link is not valid").await;
    assert_eq!(travel_b.store.receipt("demo"), None);
    pay(&link).await;
    assert!(travel_a.store.receipt("demo").is_some());
}

/// A stand-in for a login on the page: the session cookie `session=NAME` signs NAME in.
fn cookie_login() -> PageLogin {
    Arc::new(|headers| {
        let cookie = headers.get("cookie")?.to_str().ok()?;
        let name = cookie.strip_prefix("session=")?;
        Some(Principal::new(name))
    })
}

/// A payment link from a 2026-07-28 call that `who` makes over HTTP (an authentication layer
/// in front of the endpoint puts the principal into the request).
async fn link_over_http(server: Server<Router>, who: Principal) -> String {
    let mcp = server.into_http(HttpConfig::default());
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"url": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "links-test", "version": "1"}
    });
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "pay_for_trip", "arguments": {"booking_id": "demo"}, "_meta": meta}});
    let req = hyper::Request::post("/mcp")
        .header("host", "127.0.0.1:3000")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "pay_for_trip")
        .extension(who)
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap();
    let res = tokio::time::timeout(Duration::from_secs(10), mcp.handle(req))
        .await
        .expect("an answer");
    assert_eq!(res.status(), 200);
    let bytes = tokio::time::timeout(Duration::from_secs(10), res.into_body().collect())
        .await
        .expect("a body")
        .unwrap()
        .to_bytes();
    let text = String::from_utf8_lossy(&bytes);
    // JSON, or one SSE event carrying it.
    let json = text
        .lines()
        .find_map(|l| l.strip_prefix("data:"))
        .unwrap_or(&text)
        .trim();
    let msg: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {text}"));
    link_in(&msg["result"])
}

/// GET or POST the link with the session cookie of `user` (none for `None`).
async fn as_user(link: &str, user: Option<&str>, complete: bool) -> (u16, String) {
    let cookie = user.map(|u| format!("session={u}"));
    let mut headers = vec![("content-type", "application/json")];
    if let Some(c) = &cookie {
        headers.push(("cookie", c.as_str()));
    }
    if complete {
        web::post(&format!("{link}/complete"), &headers, "{}", 4096)
            .await
            .unwrap()
    } else {
        web::get_with(link, &headers, 65536).await.unwrap()
    }
}

#[tokio::test]
async fn with_a_login_on_the_page_only_the_user_who_asked_can_pay() {
    let config = Config {
        page_login: Some(cookie_login()),
        ..Config::default()
    };
    let (server, travel) = travel(config).await;
    let link = link_over_http(server.clone(), Principal::new("alice")).await;
    assert!(!link.contains("alice"), "{link}");

    let (status, page) = as_user(&link, None, false).await;
    assert_eq!(status, 403, "{page}");
    assert!(page.contains("<h1>Sign in to pay</h1>"), "{page}");
    let (status, page) = as_user(&link, Some("bob"), false).await;
    assert_eq!(status, 403, "{page}");
    assert!(
        page.contains("<h1>This payment link is for another account</h1>"),
        "{page}"
    );
    let (status, body) = as_user(&link, Some("bob"), true).await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("another account"), "{body}");
    assert_eq!(travel.store.receipt("demo"), None);

    let (status, page) = as_user(&link, Some("alice"), false).await;
    assert_eq!(status, 200, "{page}");
    let (status, body) = as_user(&link, Some("alice"), true).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(travel.store.receipt("demo").as_deref(), Some("R-DEMO-3000"));
}

/// Sends raw bytes to the page and returns the status line of its answer (or what ended the
/// connection), within five seconds.
async fn raw(page: &str, request: &[u8]) -> String {
    let addr = page.strip_prefix("http://").unwrap();
    let exchange = async {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        // A server may answer (and close) before it read everything: a failed write is fine.
        let _ = s.write_all(request).await;
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out).await;
        String::from_utf8_lossy(&out).into_owned()
    };
    let answer = tokio::time::timeout(Duration::from_secs(5), exchange)
        .await
        .expect("the page answers within 5 s");
    answer.lines().next().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn odd_requests_get_clean_answers_and_the_page_keeps_serving() {
    let (server, travel) = travel_server().await;
    let c = modern(server).await;
    let link = link_for(&c, "demo").await;
    let close = "Host: x\r\nConnection: close\r\n\r\n";
    let long = format!("GET /pay/{} HTTP/1.1\r\n{close}", "A".repeat(8_000));
    let huge = format!("GET /pay/{} HTTP/1.1\r\n{close}", "A".repeat(1 << 20));
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (long.into_bytes(), "HTTP/1.1 404"),
        (
            format!("GET / HTTP/1.1\r\n{close}").into_bytes(),
            "HTTP/1.1 404",
        ),
        (
            format!("GET /pay/ HTTP/1.1\r\n{close}").into_bytes(),
            "HTTP/1.1 404",
        ),
        (
            format!("GET /pay/%ff%fe HTTP/1.1\r\n{close}").into_bytes(),
            "HTTP/1.1 404",
        ),
        (
            format!("GET /pay/a/b/c HTTP/1.1\r\n{close}").into_bytes(),
            "HTTP/1.1 404",
        ),
        (
            format!("BREW /pay/x HTTP/1.1\r\n{close}").into_bytes(),
            "HTTP/1.1 405",
        ),
        (
            format!("DELETE /pay/x/complete HTTP/1.1\r\n{close}").into_bytes(),
            "HTTP/1.1 405",
        ),
        (
            format!("HEAD /pay/demo HTTP/1.1\r\n{close}").into_bytes(),
            "HTTP/1.1 404",
        ),
        (
            [&b"GET /pay/\xff\xfe HTTP/1.1\r\n"[..], close.as_bytes()].concat(),
            "HTTP/1.1 400",
        ),
        (b"\x00\x01\x02 garbage\r\n\r\n".to_vec(), "HTTP/1.1 400"),
    ];
    for (request, want) in &cases {
        let got = raw(&travel.page, request).await;
        assert!(
            got.starts_with(want),
            "{:?}: {got:?}",
            String::from_utf8_lossy(&request[..request.len().min(40)])
        );
    }
    // A megabyte of path: refused by the HTTP layer (or the connection closed), never served.
    let got = raw(&travel.page, huge.as_bytes()).await;
    assert!(got.is_empty() || got.starts_with("HTTP/1.1 4"), "{got:?}");
    let (status, page) = web::get(&link, 65536).await.unwrap();
    assert_eq!(status, 200, "{page}");
}
