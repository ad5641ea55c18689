//! `Cx::once` on one instance: the default ledger in memory runs an effect once per flow even
//! without a replay guard, a failed effect is not recorded and runs again, a second run of the
//! same flow waits for the first (a cancelled one finishes its effect), and an effect is kept
//! for the whole flow however long the user stays on a page.

use super::shop::*;
use rondo_mcp::prelude::*;
use rondo_mcp::testing::{Script, TestClient};
use rondo_mcp::{elicit, toolbox};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

#[tokio::test]
async fn the_default_ledger_runs_an_effect_once_per_flow_even_without_a_guard() {
    let shop = Shop::default();
    let c = client(server(&shop).without_replay_guard()).await;
    let state = first_round(&c).await;
    for _ in 0..3 {
        let r = answer(&c, &state, Some(true)).await.unwrap();
        assert_eq!(text(&r), "ordered #1", "{r:#}");
    }
    // Declined, then the same round with accept: the recorded decision stands.
    let state = first_round(&c).await;
    let r = answer(&c, &state, None).await.unwrap();
    assert_eq!(text(&r), "declined");
    let r = answer(&c, &state, Some(true)).await.unwrap();
    assert_eq!(text(&r), "declined", "consent is not replayed");
    assert_eq!(shop.placed.load(Ordering::SeqCst), 1);
    // A new call is a new flow: a second order on purpose is a second order.
    let state = first_round(&c).await;
    let r = answer(&c, &state, Some(true)).await.unwrap();
    assert_eq!(text(&r), "ordered #2");
}

#[tokio::test]
async fn a_failed_effect_is_not_recorded_and_runs_again() {
    let shop = Shop::default();
    let c = client(server(&shop).without_replay_guard()).await;
    let state = first_round(&c).await;
    shop.failing.store(true, Ordering::SeqCst);
    let r = answer(&c, &state, Some(true)).await.unwrap();
    assert_eq!(r["isError"], true, "{r:#}");
    assert_eq!(text(&r), "the warehouse is closed; nothing was ordered");
    shop.failing.store(false, Ordering::SeqCst);
    let r = answer(&c, &state, Some(true)).await.unwrap();
    assert_eq!(text(&r), "ordered #1");
}

#[tokio::test(start_paused = true)]
async fn a_run_of_the_same_flow_waits_for_the_first_and_a_cancelled_one_finishes_its_effect() {
    let shop = Shop {
        slow: Some(Duration::from_secs(2)),
        ..Shop::default()
    };
    let c = Arc::new(client(server(&shop).without_replay_guard()).await);
    let state = first_round(&c).await;
    // Two copies of the final round at once: the second waits for the first's outcome.
    let (a, b) = tokio::join!(
        answer(&c, &state, Some(true)),
        answer(&c, &state, Some(true))
    );
    assert_eq!(
        (text(&a.unwrap()), text(&b.unwrap())),
        ("ordered #1", "ordered #1")
    );

    // A run cancelled while placing (the client gave up on it) is not torn between its
    // effect and its record: it finishes both. Meanwhile the same round, sent again, is told
    // the step is being done; after, it gets the outcome. Placed once.
    let slow = Shop {
        slow: Some(Duration::from_secs(60)),
        ..Shop::default()
    };
    let c = client(server(&slow).without_replay_guard()).await;
    let state = first_round(&c).await;
    let interrupted = tokio::time::timeout(Duration::from_secs(1), answer(&c, &state, Some(true)));
    assert!(interrupted.await.is_err(), "still placing");
    c.notify(
        "notifications/cancelled",
        json!({"requestId": 2, "reason": "gave up"}),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let r = answer(&c, &state, Some(true)).await.unwrap();
    assert_eq!(r["isError"], true, "{r:#}");
    assert!(
        text(&r).starts_with("This step is being done by another request of the same call"),
        "{r:#}"
    );
    assert_eq!(slow.placed.load(Ordering::SeqCst), 0, "still placing");
    tokio::time::sleep(Duration::from_secs(60)).await;
    let r = answer(&c, &state, Some(true)).await.unwrap();
    assert_eq!(text(&r), "ordered #1", "{r:#}");
    assert_eq!(slow.placed.load(Ordering::SeqCst), 1, "placed once");
}

/// The user is sent to a page and the tool waits until it is done there.
#[elicit(url, fallback = refuse)]
fn pay_page() -> Url {
    Url::new("Pay on the page", "https://pay.example/p/1")
}

/// Books once, then waits on the payment page (each wait a round that reseals the state).
#[derive(Clone, Default)]
struct Trip {
    booked: Arc<AtomicUsize>,
    paid: Arc<std::sync::atomic::AtomicBool>,
}

#[toolbox]
impl Trip {
    /// Books the trip, then sends the user to pay.
    #[tool(asks = [pay_page])]
    async fn book_and_pay(&self, cx: &Cx) -> Result<String, String> {
        let booked = cx
            .once("book", async {
                Ok::<_, String>(self.booked.fetch_add(1, Ordering::SeqCst) + 1)
            })
            .await?;
        let Answer::Accept(page) = cx.ask(pay_page()).await else {
            return Ok(format!("booking #{booked}, unpaid"));
        };
        let paid = self.paid.clone();
        page.finished(cx, || {
            let paid = paid.load(Ordering::SeqCst);
            async move { paid.then_some(()) }
        })
        .await;
        Ok(format!("booking #{booked}, paid"))
    }
}

#[tokio::test(start_paused = true)]
async fn an_effect_is_kept_for_the_whole_flow_however_long_the_user_stays_on_a_page() {
    // The state lives 60 s; the user spends 5 minutes on the page, in waits of 50 s each. The
    // booking's record was claimed at the start: it must outlive every round, not 60 s + 30 s.
    let clock = rondo_mcp::testing::ManualClock::new(1_800_000_000_000);
    let trip = Trip::default();
    let server = Server::new(Router::new(ServerInfo::new("trips", "1")).tools(trip.clone()))
        .clock(clock.clone())
        .state_ttl(Duration::from_secs(60))
        .flow_wait(Duration::from_millis(10));
    let c = TestClient::modern(server)
        .capabilities(ClientCapabilities::with_elicitation_url())
        .script(Script::new())
        .connect()
        .await
        .expect("connects");
    let call = |extra: Value| {
        let mut p = json!({"name": "book_and_pay", "arguments": {}});
        p.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        c.request("tools/call", p)
    };
    let first = call(json!({})).await.unwrap();
    assert_eq!(first["resultType"], "input_required", "{first:#}");
    let key = first["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    let mut state = call(json!({"requestState": first["requestState"],
        "inputResponses": {key: {"action": "accept"}}}))
    .await
    .unwrap();
    for _ in 0..6 {
        assert_eq!(state["resultType"], "input_required", "{state:#}");
        assert!(
            state.get("inputRequests").is_none(),
            "only waiting: {state:#}"
        );
        clock.advance(Duration::from_secs(50));
        state = call(json!({"requestState": state["requestState"]}))
            .await
            .unwrap();
    }
    trip.paid.store(true, Ordering::SeqCst);
    clock.advance(Duration::from_secs(50));
    let done = call(json!({"requestState": state["requestState"]}))
        .await
        .unwrap();
    assert_eq!(text(&done), "booking #1, paid", "{done:#}");
    assert_eq!(
        trip.booked.load(Ordering::SeqCst),
        1,
        "booked once in 350 s"
    );
}
