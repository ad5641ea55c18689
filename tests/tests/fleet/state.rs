//! A fleet behaves as one server (design §19.1): two instances that share a key ring and one
//! Redis (`Server::shared_state(Redis::connect(url))`) refuse a round replayed on the other, and
//! an effect done with `Cx::once` happens once across them even where no replay guard holds;
//! `Cx::once` on its own (the default ledger in memory, failures, a run that never recorded);
//! Redis unreachable at start or gone later costs a clear error, never an accept; a server
//! given a key ring with its state in memory says so once when it starts.

use rondo_mcp::prelude::*;
use rondo_mcp::state::KeyRing;
use rondo_mcp::testing::{Script, TestClient};
use rondo_mcp::{Elicit, elicit, toolbox};
use rondo_tests::logs::Events;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const FROZEN: &str = "Invalid or expired requestState";

/// A yes or no to an order.
#[derive(Debug, Elicit)]
struct Confirm {
    /// Order?
    approve: bool,
}

#[elicit(form, fallback = refuse)]
fn confirm() -> Form<Confirm> {
    Form::new("Order one book?")
}

/// What the tools let a test observe: orders placed, across every instance.
#[derive(Clone, Default)]
struct Shop {
    placed: Arc<AtomicUsize>,
    /// How long placing takes.
    slow: Option<Duration>,
    /// Placing fails (and does nothing) while this is set.
    failing: Arc<std::sync::atomic::AtomicBool>,
}

#[toolbox]
impl Shop {
    /// Orders a book once the user confirms; the decision is recorded once per flow.
    #[tool(asks = [confirm])]
    async fn order(&self, cx: &Cx) -> Result<String, String> {
        let answer = cx.ask(confirm()).await;
        let outcome = cx
            .once("order", async {
                match answer {
                    Answer::Accept(c) if c.approve => {
                        if let Some(d) = self.slow {
                            tokio::time::sleep(d).await;
                        }
                        if self.failing.load(Ordering::SeqCst) {
                            return Err("the warehouse is closed; nothing was ordered".to_owned());
                        }
                        let n = self.placed.fetch_add(1, Ordering::SeqCst) + 1;
                        Ok(format!("ordered #{n}"))
                    }
                    _ => Ok("declined".to_owned()),
                }
            })
            .await?;
        Ok(outcome)
    }
}

fn server(shop: &Shop) -> Server<Router> {
    Server::new(Router::new(ServerInfo::new("shop", "1")).tools(shop.clone()))
}

async fn client(server: Server<Router>) -> TestClient {
    TestClient::modern(server)
        .capabilities(ClientCapabilities::with_elicitation_form())
        .script(Script::new())
        .connect()
        .await
        .expect("connects")
}

/// The `requestState` of the order's first round.
async fn first_round(c: &TestClient) -> Value {
    let r = c
        .request("tools/call", json!({"name": "order", "arguments": {}}))
        .await
        .unwrap();
    assert_eq!(r["resultType"], "input_required", "{r:#}");
    r["requestState"].clone()
}

async fn answer(c: &TestClient, state: &Value, approve: Option<bool>) -> Result<Value, Error> {
    let reply = match approve {
        Some(a) => json!({"action": "accept", "content": {"approve": a}}),
        None => json!({"action": "decline"}),
    };
    let params = json!({"name": "order", "arguments": {}, "requestState": state,
                        "inputResponses": {"confirm": reply}});
    c.request("tools/call", params).await
}

fn text(r: &Value) -> &str {
    r["content"][0]["text"].as_str().unwrap_or_default()
}

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

#[tokio::test]
async fn a_redis_that_cannot_be_reached_at_start_is_an_error_naming_the_url_without_its_password() {
    let e = rondo_mcp::shared::Redis::connect("redis://app:s3cret@127.0.0.1:1/0")
        .await
        .unwrap_err();
    let shown = e.to_string();
    assert!(
        shown.starts_with("cannot reach Redis at redis://***:***@127.0.0.1:1/0: "),
        "{shown}"
    );
    assert!(!shown.contains("s3cret"), "{shown}");
    // A password with an unencoded `/` does not parse as the URL it was meant to be: not shown.
    let e = rondo_mcp::shared::Redis::connect("redis://:sl/ashS3cret@127.0.0.1:1/0")
        .await
        .unwrap_err();
    assert!(
        e.to_string().starts_with(
            "cannot reach Redis at (a URL that does not parse, not shown: it may hold a password): "
        ) && !e.to_string().contains("ash"),
        "{e}"
    );
}

#[tokio::test]
async fn a_server_with_a_key_ring_and_its_state_in_memory_warns_once_at_start() {
    let events = Events::record();
    let keys = KeyRing::parse(&KeyRing::generate_spec(1)).unwrap();
    let shop = Shop::default();
    // Connected and served a request: the server has started.
    let client = async |s: Server<Router>| {
        let c = client(s).await;
        c.list_tools().await.expect("lists");
        c
    };
    let warned = |events: &Events| {
        events
            .take()
            .into_iter()
            .filter(|e| e.target == "rondo::fleet")
            .collect::<Vec<_>>()
    };
    // A random key: one process, nothing to warn about.
    let _c = client(server(&shop)).await;
    assert!(warned(&events).is_empty());
    // A key ring given, the guard in memory: warned once, however often it serves.
    let s = server(&shop).state_keys(keys.clone());
    let (_a, _b) = (client(s.clone()).await, client(s).await);
    let w = warned(&events);
    assert_eq!(w.len(), 1, "{w:?}");
    let m = &w[0].message;
    assert!(
        m.contains(
            "its replay guard and its effect ledger (Cx::once) are in this process's memory"
        ) && m.contains("a round replayed on another instance, or after a restart, is not refused")
            && m.contains("Server::shared_state(rondo_mcp::shared::Redis::connect(url).await?)")
            && m.contains("--redis URL or RONDO_REDIS_URL"),
        "{m}"
    );
    // A shared guard, but the ledger still in memory: named alone.
    let s = server(&shop)
        .state_keys(keys.clone())
        .replay_guard(NeverSeen);
    let _c = client(s).await;
    let w = warned(&events);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].message
            .contains("but its effect ledger (Cx::once) is in"),
        "{w:?}"
    );
    // Both shared: no warning.
    let s = server(&shop)
        .state_keys(keys)
        .shared_state(rondo_mcp::shared::SharedState::new(
            NeverSeen,
            rondo_mcp::tasks::MemoryTaskStore::default(),
            Ledger::default(),
        ));
    let _c = client(s).await;
    assert!(warned(&events).is_empty());
}

/// A guard of the application's own (the test's: it never refuses).
#[derive(Default)]
struct NeverSeen;

impl rondo_mcp::state::ReplayGuard for NeverSeen {
    async fn take(
        &self,
        _: &str,
        _: &str,
        _: std::time::SystemTime,
        _: std::time::SystemTime,
    ) -> Result<rondo_mcp::state::RoundUse, rondo_mcp::state::GuardError> {
        Ok(rondo_mcp::state::RoundUse::First)
    }
}

/// A ledger of the application's own: the memory one behind a new type, so the server cannot
/// tell it is local.
#[derive(Default)]
struct Ledger(rondo_mcp::state::MemoryLedger);

impl rondo_mcp::state::Ledger for Ledger {
    async fn claim(
        &self,
        key: &str,
        claimant: &str,
        expires_at: std::time::SystemTime,
        now: std::time::SystemTime,
    ) -> Result<rondo_mcp::state::Claim, rondo_mcp::state::LedgerError> {
        self.0.claim(key, claimant, expires_at, now).await
    }
    async fn record(
        &self,
        key: &str,
        claimant: &str,
        outcome: &str,
    ) -> Result<(), rondo_mcp::state::LedgerError> {
        self.0.record(key, claimant, outcome).await
    }
    async fn release(
        &self,
        key: &str,
        claimant: &str,
    ) -> Result<(), rondo_mcp::state::LedgerError> {
        self.0.release(key, claimant).await
    }
    async fn extend(
        &self,
        key: &str,
        until: std::time::SystemTime,
    ) -> Result<(), rondo_mcp::state::LedgerError> {
        self.0.extend(key, until).await
    }
}

#[cfg(feature = "redis")]
mod on_redis {
    use super::*;
    use crate::support::redis_server::RedisServer;
    use rondo_mcp::shared::Redis;

    /// Two instances of one fleet: the same key ring and the same Redis, each on its own
    /// connection, one shop behind both (the orders they place, counted together).
    async fn fleet(url: &str, shop: &Shop, guard: bool) -> [TestClient; 2] {
        let keys = KeyRing::parse(&KeyRing::generate_spec(7)).unwrap();
        let mut out = Vec::new();
        for _ in 0..2 {
            let redis = Redis::connect(url).await.expect("connects");
            let s = server(shop).state_keys(keys.clone());
            let s = if guard {
                s.shared_state(redis)
            } else {
                // The guard forgot (TTL, a restart, another shard): only the ledger holds.
                s.without_replay_guard().ledger(redis.ledger())
            };
            out.push(client(s).await);
        }
        out.try_into().ok().unwrap()
    }

    #[tokio::test]
    async fn a_final_round_sent_again_on_the_other_instance_gets_its_outcome_and_orders_nothing() {
        let Some(redis) = RedisServer::start() else {
            return;
        };
        let shop = Shop::default();
        let [a, b] = fleet(&redis.url(), &shop, true).await;
        let state = first_round(&a).await;
        let r = answer(&a, &state, Some(true)).await.unwrap();
        assert_eq!(text(&r), "ordered #1");
        for c in [&b, &a, &b] {
            // Unchanged: the same round, served again, the recorded outcome.
            let r = answer(c, &state, Some(true)).await.unwrap();
            assert_eq!(text(&r), "ordered #1");
            // Changed: refused before the tool runs.
            let e = answer(c, &state, None).await.unwrap_err();
            assert_eq!((e.code, e.message.as_str()), (-32602, FROZEN));
        }
        // Asked on one, answered on the other: the fleet serves any retry once.
        let state = first_round(&a).await;
        let r = answer(&b, &state, Some(true)).await.unwrap();
        assert_eq!(text(&r), "ordered #2");
        let e = answer(&a, &state, Some(false)).await.unwrap_err();
        assert_eq!(e.code, -32602);
        assert_eq!(shop.placed.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn declined_on_one_instance_then_accepted_on_the_other_is_refused() {
        let Some(redis) = RedisServer::start() else {
            return;
        };
        let shop = Shop::default();
        let [a, b] = fleet(&redis.url(), &shop, true).await;
        let state = first_round(&a).await;
        assert_eq!(text(&answer(&a, &state, None).await.unwrap()), "declined");
        let e = answer(&b, &state, Some(true)).await.unwrap_err();
        assert_eq!((e.code, e.message.as_str()), (-32602, FROZEN));
        assert_eq!(shop.placed.load(Ordering::SeqCst), 0);
    }

    #[tokio::test]
    async fn where_no_guard_holds_the_shared_ledger_still_orders_once() {
        let Some(redis) = RedisServer::start() else {
            return;
        };
        let shop = Shop::default();
        let [a, b] = fleet(&redis.url(), &shop, false).await;
        let state = first_round(&a).await;
        assert_eq!(
            text(&answer(&a, &state, Some(true)).await.unwrap()),
            "ordered #1"
        );
        for c in [&b, &a, &b] {
            let r = answer(c, &state, Some(true)).await.unwrap();
            assert_eq!(
                text(&r),
                "ordered #1",
                "the recorded outcome, nothing placed"
            );
        }
        let state = first_round(&b).await;
        assert_eq!(text(&answer(&b, &state, None).await.unwrap()), "declined");
        let r = answer(&a, &state, Some(true)).await.unwrap();
        assert_eq!(
            text(&r),
            "declined",
            "consent is not replayed across instances"
        );
        assert_eq!(shop.placed.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_redis_gone_away_refuses_the_round_or_does_nothing_never_accepts() {
        let Some(redis) = RedisServer::start() else {
            return;
        };
        let shop = Shop::default();
        let [a, _] = fleet(&redis.url(), &shop, true).await;
        let [c, _] = fleet(&redis.url(), &shop, false).await;
        let (guarded, unguarded) = (first_round(&a).await, first_round(&c).await);
        drop(redis);
        // The guard cannot tell: the round is refused with -32603, and nothing ran.
        let e = tokio::time::timeout(Duration::from_secs(10), answer(&a, &guarded, Some(true)))
            .await
            .expect("answers within the client's timeouts")
            .unwrap_err();
        assert_eq!(e.code, -32603, "{e:?}");
        assert!(
            e.message
                .starts_with("Redis, the server's shared state, did not answer"),
            "{e:?}"
        );
        // Without a guard the ledger cannot tell: the effect is not done.
        let r = answer(&c, &unguarded, Some(true)).await.unwrap();
        assert_eq!(r["isError"], true, "{r:#}");
        assert!(
            text(&r)
                .starts_with("Nothing was done: Redis, the server's shared state, did not answer"),
            "{r:#}"
        );
        assert_eq!(shop.placed.load(Ordering::SeqCst), 0);
    }

    /// Sends one command to the Redis at `url` (`redis://127.0.0.1:PORT/`); its first reply
    /// line.
    fn command(url: &str, args: &[&str]) -> String {
        use std::io::{BufRead, Write};
        let addr = url.trim_start_matches("redis://").trim_end_matches('/');
        let mut s = std::net::TcpStream::connect(addr).expect("connects");
        let mut out = format!("*{}\r\n", args.len());
        for a in args {
            out.push_str(&format!("${}\r\n{a}\r\n", a.len()));
        }
        s.write_all(out.as_bytes()).expect("writes");
        let mut line = String::new();
        std::io::BufReader::new(s)
            .read_line(&mut line)
            .expect("reads");
        line.trim_end().to_owned()
    }

    #[tokio::test]
    async fn a_full_redis_is_named_full_and_nothing_is_done() {
        let Some(redis) = RedisServer::start() else {
            return;
        };
        let shop = Shop::default();
        let [a, _] = fleet(&redis.url(), &shop, true).await;
        let [c, _] = fleet(&redis.url(), &shop, false).await;
        let (guarded, unguarded) = (first_round(&a).await, first_round(&c).await);
        assert_eq!(
            command(&redis.url(), &["CONFIG", "SET", "maxmemory", "1"]),
            "+OK"
        );
        let e = answer(&a, &guarded, Some(true)).await.unwrap_err();
        assert_eq!(e.code, -32603, "{e:?}");
        assert_eq!(
            e.message,
            "Redis, the server's shared state, is full (maxmemory) and refused to record this; try again later"
        );
        let r = answer(&c, &unguarded, Some(true)).await.unwrap();
        assert!(
            text(&r).starts_with("Nothing was done: Redis, the server's shared state, is full"),
            "{r:#}"
        );
        assert_eq!(shop.placed.load(Ordering::SeqCst), 0);
        // Room again: the same rounds, sent again as they were told, complete once.
        assert_eq!(
            command(&redis.url(), &["CONFIG", "SET", "maxmemory", "0"]),
            "+OK"
        );
        let r = answer(&a, &guarded, Some(true)).await.unwrap();
        assert_eq!(text(&r), "ordered #1", "{r:#}");
        let r = answer(&c, &unguarded, Some(true)).await.unwrap();
        assert_eq!(text(&r), "ordered #2", "{r:#}");
    }

    #[tokio::test]
    async fn while_redis_is_gone_every_round_is_refused_promptly() {
        // Each refusal within about a second, not after the connection's reconnect attempts
        // (six, with growing pauses, by default: a round waited 6 to 9 s on them).
        let Some(redis) = RedisServer::start() else {
            return;
        };
        let shop = Shop::default();
        let [a, _] = fleet(&redis.url(), &shop, true).await;
        let mut states = Vec::new();
        for _ in 0..4 {
            states.push(first_round(&a).await);
        }
        drop(redis);
        for state in &states {
            let started = std::time::Instant::now();
            let e = answer(&a, state, Some(true)).await.unwrap_err();
            let took = started.elapsed();
            assert_eq!(e.code, -32603, "{e:?}");
            assert!(took < Duration::from_secs(3), "refused after {took:?}");
        }
        assert_eq!(shop.placed.load(Ordering::SeqCst), 0);
    }
}
