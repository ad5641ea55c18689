//! The payment page in a real browser: the travel server serves MCP over HTTP, a 2026-07-28
//! client books a trip and calls `pay_for_trip`, a headless Chromium (Debian's `chromium`,
//! driven by `browser/pay.mjs` through playwright-core) opens the URL the question sent and the
//! user presses Pay, and the tool's next round completes with the receipt. The page runs
//! without a console error, an uncaught exception or a failed request; the same link opened
//! again is the "used" page (410), a tampered or foreign one the "not valid" page (404).
//!
//! Ignored: it needs Chromium and the pinned Node packages (`npm ci` in `browser/`).
//! `scripts/test-all.sh` installs both and runs it:
//! `cargo test -p rondo-example-travel --test browser -- --ignored`.
//! `RONDO_NODE` names the Node.js binary (default `node`), `CHROMIUM` the browser (default
//! `/usr/bin/chromium`).

use crate::common;

use common::travel;
use rondo_example_travel::{Config, web};
use rondo_mcp::http::{HttpConfig, serve_listener};
use serde_json::{Value, json};
use std::path::Path;
use std::time::Duration;

/// The browser's whole run (start, every page, close) gets this long.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(90);

/// One round of a 2026-07-28 `tools/call` over HTTP: its result.
async fn round(
    mcp: &str,
    name: &str,
    arguments: &Value,
    answers: Option<(&Value, Value)>,
) -> Value {
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}, "url": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "browser-test", "version": "1"}
    });
    let mut params = json!({"name": name, "arguments": arguments, "_meta": meta});
    if let Some((previous, responses)) = answers {
        params["requestState"] = previous["requestState"].clone();
        params["inputResponses"] = responses;
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let headers = [
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", name),
    ];
    let (status, text) = web::post(mcp, &headers, &body.to_string(), 1 << 20)
        .await
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(status, 200, "{name}: {text}");
    // JSON, or one SSE event carrying it.
    let json = text
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .next_back()
        .unwrap_or(&text)
        .trim();
    let msg: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert!(msg.get("error").is_none(), "{name}: {msg}");
    msg["result"].clone()
}

/// The text of a finished call.
fn text_of(result: &Value) -> &str {
    assert_ne!(result["resultType"], "input_required", "{result}");
    assert_ne!(result["isError"], true, "{result}");
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {result}"))
}

/// Books the Barcelona package over HTTP, answering both forms: the booking's id.
async fn book(mcp: &str) -> String {
    let args = json!({"package_id": "barcelona"});
    let mut result = round(mcp, "book_trip", &args, None).await;
    for _ in 0..4 {
        if result["resultType"] != "input_required" {
            break;
        }
        let mut responses = json!({});
        for (key, req) in result["inputRequests"].as_object().unwrap() {
            assert_eq!(req["params"]["mode"], "form", "{req}");
            let content = match key.as_str() {
                "approve_trip" => json!({"approve": true, "seat": "window", "room_type": "double"}),
                "traveller_details" => json!({"passenger_name": "Ada Lovelace",
                    "date_of_birth": "1985-12-10", "emergency_contact_name": "Charles Babbage",
                    "emergency_contact_phone": "+44 20 7946 0958"}),
                other => panic!("book_trip asked {other}: {req}"),
            };
            responses[key] = json!({"action": "accept", "content": content});
        }
        result = round(mcp, "book_trip", &args, Some((&result, responses))).await;
    }
    let text = text_of(&result);
    assert!(text.starts_with("Booked Barcelona"), "{text}");
    let id = text
        .rsplit("booking_id: \"")
        .next()
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no booking id in {text}"));
    assert!(id.starts_with("trip-"), "{text}");
    id.to_owned()
}

/// Runs `browser/pay.mjs` with `steps` (`pay URL`, `open URL`): one report per step.
async fn browser(steps: &[(&str, &str)]) -> Vec<Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("browser");
    assert!(
        dir.join("node_modules/playwright-core").is_dir(),
        "playwright-core is not installed: run `npm ci` in {}",
        dir.display()
    );
    let node = std::env::var("RONDO_NODE").unwrap_or_else(|_| "node".into());
    let mut cmd = tokio::process::Command::new(&node);
    cmd.current_dir(&dir).arg("pay.mjs").kill_on_drop(true);
    for (kind, url) in steps {
        cmd.arg(kind).arg(url);
    }
    let out = tokio::time::timeout(BROWSER_TIMEOUT, cmd.output())
        .await
        .unwrap_or_else(|_| panic!("the browser did not finish within {BROWSER_TIMEOUT:?}"))
        .unwrap_or_else(|e| panic!("{node}: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "pay.mjs: {}\n{stderr}", out.status);
    let reports: Vec<Value> = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{stderr}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(reports.len(), steps.len(), "{reports:?}");
    reports
}

/// Every step was done; the page logged no error or warning, threw nothing, and every request
/// it made was answered.
fn clean(report: &Value) {
    assert_eq!(report.get("error"), None, "{report:#}");
    for key in ["console", "pageErrors", "failedRequests"] {
        assert_eq!(
            report[key],
            json!([]),
            "{key} of {}: {report:#}",
            report["url"]
        );
    }
}

/// A refusal page: its status, its heading, a sentence, and no button.
fn refused(report: &Value, status: u16, title: &str, says: &str) {
    assert_eq!(report["status"], status, "{report:#}");
    assert_eq!(report["heading"], title, "{report:#}");
    assert_eq!(report["title"], title, "{report:#}");
    let text = report["text"].as_str().unwrap();
    assert!(text.contains(says), "{report:#}");
    assert_eq!(report["buttons"], 0, "{report:#}");
    // Only the page itself was loaded.
    let requests = report["requests"].as_array().unwrap();
    assert_eq!(requests.len(), 1, "{report:#}");
    assert_eq!(requests[0]["status"], status, "{report:#}");
    clean_but_its_status(report);
}

/// As [`clean`], for a page served with an error status: Chromium's console reports that status
/// for the document itself ("Failed to load resource: the server responded with a status of 410
/// (Gone)"), and that line, once, is all it may report.
fn clean_but_its_status(report: &Value) {
    assert_eq!(report.get("error"), None, "{report:#}");
    let console = report["console"].as_array().unwrap();
    let status = report["status"].as_u64().unwrap();
    let own = format!("Failed to load resource: the server responded with a status of {status} (");
    assert!(
        console.len() == 1
            && console[0]["type"] == "error"
            && console[0]["location"] == report["url"]
            && console[0]["text"].as_str().unwrap().starts_with(&own),
        "console of {}: {report:#}",
        report["url"]
    );
    for key in ["pageErrors", "failedRequests"] {
        assert_eq!(
            report[key],
            json!([]),
            "{key} of {}: {report:#}",
            report["url"]
        );
    }
}

#[tokio::test]
#[ignore = "needs Chromium and `npm ci` in examples/travel/browser (scripts/test-all.sh does both)"]
async fn a_user_pays_in_a_real_browser_and_the_tool_completes() {
    let (server, travel) = travel(Config::default()).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let mcp = format!("http://{}/mcp", listener.local_addr().unwrap());
    let service = server.into_http(HttpConfig::default());
    tokio::spawn(serve_listener(service, listener, std::future::pending()));

    let booking = book(&mcp).await;
    let args = json!({"booking_id": booking});
    let first = round(&mcp, "pay_for_trip", &args, None).await;
    assert_eq!(first["resultType"], "input_required", "{first}");
    let asked = &first["inputRequests"]["pay_on_page"]["params"];
    assert_eq!(asked["mode"], "url", "{first}");
    let link = asked["url"].as_str().unwrap().to_owned();
    assert!(link.starts_with(&format!("{}/pay/", travel.page)), "{link}");
    assert_eq!(travel.store.receipt(&booking), None);

    // A token one character off (the seal breaks), and one another travel server made.
    let tampered = {
        let mut t = link.clone().into_bytes();
        let i = t.len() - 5;
        t[i] = if t[i] == b'A' { b'B' } else { b'A' };
        String::from_utf8(t).unwrap()
    };
    let (elsewhere, other) = common::travel(Config::default()).await;
    drop(elsewhere);
    let foreign_token = other
        .links
        .mint("demo", "someone-elses-flow", None)
        .unwrap();
    let foreign = format!("{}/pay/{foreign_token}", travel.page);

    let reports = browser(&[
        ("pay", &link),
        ("open", &link),
        ("open", &tampered),
        ("open", &foreign),
    ])
    .await;

    // The page as the user finds it: the booking, its total, one enabled Pay button.
    let paid = &reports[0];
    assert_eq!(paid.get("error"), None, "{paid:#}");
    assert_eq!(paid["status"], 200, "{paid:#}");
    let title = format!("Pay for booking {booking}");
    assert_eq!(paid["title"], title.as_str(), "{paid:#}");
    assert_eq!(paid["heading"], title.as_str(), "{paid:#}");
    let text = paid["text"].as_str().unwrap();
    assert!(text.contains("Total: $3,000"), "{paid:#}");
    assert!(!text.contains("Ada Lovelace"), "{paid:#}");
    assert_eq!(paid["buttons"], 1, "{paid:#}");
    assert_eq!(paid["buttonLabel"], "Pay $3,000", "{paid:#}");
    assert_eq!(paid["buttonEnabled"], true, "{paid:#}");
    assert_eq!(paid["statusBefore"], "Not paid yet.", "{paid:#}");
    // Pressed: the confirmation, and the button stays disabled.
    let receipt = format!("R-{}-3000", booking.to_uppercase());
    assert_eq!(
        paid["statusAfter"],
        format!("Paid. Receipt {receipt}. You can close this page."),
        "{paid:#}"
    );
    assert_eq!(paid["buttonEnabledAfter"], false, "{paid:#}");
    // The browser's requests: the page, then one completion, answered 200.
    let requests: Vec<(String, String, u64)> = paid["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let url = r["url"].as_str().unwrap();
            let path = url.strip_prefix(&travel.page).unwrap_or(url);
            (
                r["method"].as_str().unwrap().to_owned(),
                path.to_owned(),
                r["status"].as_u64().unwrap(),
            )
        })
        .collect();
    let path = link.strip_prefix(&travel.page).unwrap();
    assert_eq!(
        requests,
        [
            ("GET".to_owned(), path.to_owned(), 200),
            ("POST".to_owned(), format!("{path}/complete"), 200),
        ],
        "{paid:#}"
    );
    clean(paid);
    assert_eq!(
        travel.store.receipt(&booking).as_deref(),
        Some(receipt.as_str())
    );

    // The client accepted the question: its next round finds the payment and completes.
    let responses = json!({"pay_on_page": {"action": "accept"}});
    let done = round(&mcp, "pay_for_trip", &args, Some((&first, responses))).await;
    assert_eq!(
        text_of(&done),
        format!("Paid $3,000 for booking {booking}: receipt {receipt}."),
        "{done}"
    );

    // The same link again: used, and it says nothing more was charged.
    refused(
        &reports[1],
        410,
        "This payment link has been used",
        "Nothing more was charged.",
    );
    // Tampered, or made by another server: not one of this page's links.
    for report in &reports[2..] {
        refused(
            report,
            404,
            "This payment link is not valid",
            "Nothing was paid.",
        );
    }
    // The statuses the browser saw are the page's own.
    for (url, status) in [(&link, 410), (&tampered, 404), (&foreign, 404)] {
        let (got, _) = web::get(url, 65536).await.unwrap();
        assert_eq!(got, status, "{url}");
    }
}
