//! `pay_for_trip` through the test client at both revisions: the payment completed through the
//! page's endpoint while the tool waits, declined and cancelled (nothing paid), a client without
//! URL-mode elicitation (`-32021` naming it, never a form), and the page itself.

use crate::common;

use common::*;
use rondo_example_travel::{Config, web};
use rondo_mcp::protocol::{Revision, code};
use rondo_mcp::testing::{Reply, Script, TestClient};
use serde_json::{Value, json};
use std::time::Duration;

/// The payment page's URL, once the server has asked the client to open it.
async fn page_url(c: &TestClient) -> String {
    for _ in 0..500 {
        let url = asked(c)
            .into_iter()
            .find_map(|(_, p)| p["url"].as_str().map(str::to_owned));
        if let Some(url) = url {
            return url;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the server never asked to open the payment page")
}

#[tokio::test]
async fn the_payment_completes_through_the_page_while_the_tool_waits() {
    for rev in BOTH {
        let (server, travel) = travel(Config::default()).await;
        let c = client(
            server,
            rev,
            caps(json!({"elicitation": {"url": {}}})),
            Script::new().elicit(Reply::Accept(None)),
        )
        .await;
        let pay = async {
            let url = page_url(&c).await;
            // The page's own link: a token of its own, not the booking id.
            let token = url
                .strip_prefix(&format!("{}/pay/", travel.page))
                .unwrap_or_else(|| panic!("{url}"));
            assert!(
                token.len() > 64
                    && token
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
                "{url}"
            );
            // The tool is waiting: nothing is paid until the page says so.
            tokio::time::sleep(Duration::from_millis(300)).await;
            assert_eq!(travel.store.receipt("demo"), None, "{rev}");
            let (status, page) = web::get(&url, 65536).await.unwrap();
            assert_eq!(status, 200);
            assert!(
                page.contains("Pay $3,000")
                    && page.contains(&format!("data-complete=\"/pay/{token}/complete\"")),
                "{page}"
            );
            let (status, body) = web::post_json(&format!("{url}/complete"), "{}", 4096)
                .await
                .unwrap();
            assert_eq!(status, 200);
            serde_json::from_str::<Value>(&body).unwrap()
        };
        let (call, paid) = tokio::join!(
            c.call_tool("pay_for_trip", json!({"booking_id": "demo"})),
            pay
        );
        let call = call.unwrap();
        assert_eq!(
            paid,
            json!({"booking_id": "demo", "paid": true, "receipt": "R-DEMO-3000"})
        );
        assert_eq!(
            call.text(),
            "Paid $3,000 for booking demo: receipt R-DEMO-3000.",
            "{rev}"
        );
        let (method, params) = &asked(&c)[0];
        assert_eq!(
            (method.as_str(), params["mode"].as_str()),
            ("elicitation/create", Some("url"))
        );
        assert_eq!(
            params["message"],
            "Pay $3,000 for booking demo on the travel server's payment page"
        );
        if !rev.is_modern() {
            let done = c
                .transcript()
                .into_iter()
                .any(|f| f.message["method"] == "notifications/elicitation/complete");
            assert!(done, "2025-11-25: the client hears that the flow finished");
        }
        // Paying again finds the receipt and asks nothing.
        let call = c
            .call_tool("pay_for_trip", json!({"booking_id": "demo"}))
            .await
            .unwrap();
        assert_eq!(
            call.text(),
            "Booking demo is already paid (receipt R-DEMO-3000)."
        );
    }
}

#[tokio::test]
async fn declining_or_cancelling_pays_nothing() {
    for rev in BOTH {
        for (reply, want) in [
            (
                Reply::Decline,
                "The traveller declined to open the payment page; nothing was paid for booking demo.",
            ),
            (
                Reply::Cancel,
                "The traveller dismissed the payment page; nothing was paid for booking demo.",
            ),
        ] {
            let (server, travel) = travel(Config::default()).await;
            let c = client(server, rev, everything(), Script::new().elicit(reply)).await;
            let call = c
                .call_tool("pay_for_trip", json!({"booking_id": "demo"}))
                .await
                .unwrap();
            assert_eq!(call.text(), want, "{rev}");
            assert!(!call.is_error());
            assert_eq!(travel.store.receipt("demo"), None);
        }
    }
}

#[tokio::test]
async fn without_url_mode_the_payment_is_refused_naming_it() {
    for rev in BOTH {
        for declared in [
            nothing(),
            caps(json!({"elicitation": {"form": {}}, "sampling": {"tools": {}}, "roots": {}})),
        ] {
            let (server, _) = travel(Config::default()).await;
            let c = client(server, rev, declared, Script::new()).await;
            let err = c
                .call_tool("pay_for_trip", json!({"booking_id": "demo"}))
                .await
                .unwrap_err();
            assert_eq!(err.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY, "{rev}");
            assert_eq!(
                err.data.unwrap()["requiredCapabilities"],
                json!({"elicitation": {"url": {}}})
            );
            assert!(asked(&c).is_empty(), "{rev}: no form instead");
        }
    }
}

#[tokio::test]
async fn a_booking_made_by_book_trip_is_paid_for_on_its_page() {
    let (server, travel) = travel(Config::default()).await;
    let details = json!({"passenger_name": "Ada", "date_of_birth": "1985-12-10",
        "emergency_contact_name": "Charles", "emergency_contact_phone": "+44 20 7946 0958"});
    let script = Script::new()
        .elicit(Reply::accept(json!({"approve": true})))
        .elicit(Reply::accept(details))
        .elicit(Reply::Accept(None));
    let c = client(server, Revision::V2026_07_28, everything(), script).await;
    let booked = c
        .call_tool("book_trip", json!({"package_id": "barcelona"}))
        .await
        .unwrap();
    assert!(
        booked.text().contains("booking trip-1"),
        "{}",
        booked.text()
    );
    let pay = async {
        let url = page_url(&c).await;
        web::post_json(&format!("{url}/complete"), "{}", 4096)
            .await
            .unwrap()
    };
    let (call, (status, _)) = tokio::join!(
        c.call_tool("pay_for_trip", json!({"booking_id": "trip-1"})),
        pay
    );
    assert_eq!(status, 200);
    assert_eq!(
        call.unwrap().text(),
        "Paid $3,000 for booking trip-1: receipt R-TRIP-1-3000."
    );
    assert_eq!(
        travel.store.receipt("trip-1").as_deref(),
        Some("R-TRIP-1-3000")
    );
}

#[tokio::test]
async fn an_unknown_booking_is_a_tool_error() {
    for rev in BOTH {
        let (server, _) = travel(Config::default()).await;
        let c = client(server, rev, everything(), Script::new()).await;
        let call = c
            .call_tool("pay_for_trip", json!({"booking_id": "nope"}))
            .await
            .unwrap();
        assert!(call.is_error(), "{rev}");
        assert!(
            call.text().starts_with("No booking \"nope\""),
            "{}",
            call.text()
        );
    }
}

#[tokio::test]
async fn the_page_completes_only_on_a_json_post_from_its_own_origin() {
    let (_, travel) = travel(Config::default()).await;
    let (status, _) = web::get(&format!("{}/pay/nope", travel.page), 4096)
        .await
        .unwrap();
    assert_eq!(status, 404);
    let (status, _) = web::get(&format!("{}/pay/demo/complete", travel.page), 4096)
        .await
        .unwrap();
    assert_eq!(status, 405, "a GET completes nothing");
    let (status, _) = web::post_json(&format!("{}/pay/nope/complete", travel.page), "{}", 4096)
        .await
        .unwrap();
    assert_eq!(status, 404);
    assert_eq!(travel.store.receipt("demo"), None);
}

#[tokio::test]
async fn paying_before_the_client_retries_still_reads_as_paid() {
    // 2026-07-28: the user pays on the page before the client sends its answer; the retry runs
    // the tool from the top and must not see "already paid".
    let (server, travel) = travel(Config::default()).await;
    let c = client(server, Revision::V2026_07_28, everything(), Script::new()).await;
    let call = json!({"name": "pay_for_trip", "arguments": {"booking_id": "demo"}});
    let first = c.request("tools/call", call.clone()).await.unwrap();
    assert_eq!(first["resultType"], "input_required");
    let url = first["inputRequests"]["pay_on_page"]["params"]["url"]
        .as_str()
        .unwrap();
    let (status, _) = web::post_json(&format!("{url}/complete"), "{}", 4096)
        .await
        .unwrap();
    assert_eq!(status, 200);
    let mut retry = call;
    retry["inputResponses"] = json!({"pay_on_page": {"action": "accept"}});
    retry["requestState"] = first["requestState"].clone();
    let done = c.request("tools/call", retry).await.unwrap();
    assert_eq!(
        done["content"][0]["text"],
        "Paid $3,000 for booking demo: receipt R-DEMO-3000."
    );
    assert!(travel.store.receipt("demo").is_some());
}

#[tokio::test]
async fn a_foreign_page_or_a_plain_form_post_cannot_complete_the_payment() {
    let (server, travel) = travel(Config::default()).await;
    let c = client(server, Revision::V2026_07_28, everything(), Script::new()).await;
    let complete = format!("{}/complete", link_for(&c, "demo").await);
    let form = [("content-type", "application/x-www-form-urlencoded")];
    let (status, _) = web::post(&complete, &form, "pay=1", 4096).await.unwrap();
    assert_eq!(
        status, 403,
        "a plain form post, which any web page can send"
    );
    let foreign = [
        ("content-type", "application/json"),
        ("origin", "http://evil.example"),
    ];
    let (status, _) = web::post(&complete, &foreign, "{}", 4096).await.unwrap();
    assert_eq!(status, 403, "another origin");
    assert_eq!(travel.store.receipt("demo"), None);
    let own = [
        ("content-type", "application/json"),
        ("origin", travel.page.as_str()),
    ];
    let (status, _) = web::post(&complete, &own, "{}", 4096).await.unwrap();
    assert_eq!(status, 200, "the page's own button");
    assert!(travel.store.receipt("demo").is_some());
}
