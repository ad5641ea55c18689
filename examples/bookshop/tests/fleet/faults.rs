//! Faults injected into the fleet's Redis while clients send, time out and send again: Redis
//! frozen (`SIGSTOP`), stalled (`DEBUG SLEEP`, what a slow fsync or a fork does), full
//! (`maxmemory`), killed and started again from its append-only file; then killed and started
//! without it. The checker counts every order on every instance and in the ledger, and holds
//! the fleet to one sentence: every answer a client was told to retry is either applied exactly
//! once or refused with a reason that is true (design §19.2).
//!
//! The clients are of two kinds: impatient ones give up after 500 ms (the server may still
//! finish the round after they left, so they resend a round that may have been applied), and
//! patient ones wait 3 s. Every client resends the same round after no answer, a 502/504, a
//! `-32603` "try again", a tool's "Nothing was done ... Try again later" or "This step is being
//! done by another request" (a claim not yet recorded), bounded. A third of the flows send
//! their final round once more when decided (it must get the same answer) and once with the
//! other answer (it must be refused, `-32602`). A quarter decline.

use crate::client::{self, STATE_REJECTED};
use crate::harness::{Fleet, State};
use rondo_mcp::OnceError;
use rondo_mcp::state::KeyRing;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Flows run at once.
const LANES: usize = 16;
/// How long an impatient and a patient client wait for an answer.
const IMPATIENT: Duration = Duration::from_millis(500);
const PATIENT: Duration = Duration::from_secs(3);
/// How long one request is sent again, at most, before the test fails (the fleet must decide
/// it once Redis answers again).
const DECIDE_WITHIN: Duration = Duration::from_secs(40);
/// What the bookshop answers to a declined confirmation.
const DECLINED: &str = "The user declined; nothing was ordered.";
/// What a server that cannot ask Redis says, as the guard's `-32603` or after "Nothing was
/// done: " in the tool's error.
const REDIS: &str = "Redis, the server's shared state, ";

/// What the clients went through, over every flow.
#[derive(Default)]
struct Tally {
    /// Requests sent, first sends and resends.
    sent: AtomicUsize,
    /// Resends after no answer in the client's patience, a 502/504 or a lost connection.
    no_answer: AtomicUsize,
    /// Resends after `-32603` or "Nothing was done": the client was told to try again.
    told_retry: AtomicUsize,
    /// Resends after the tool said the step was being done by another request.
    running: AtomicUsize,
    /// Decided final rounds sent once more unchanged: the same answer each time.
    same_again: AtomicUsize,
    /// Decided final rounds sent with the other answer: refused (`-32602`) each time.
    changed_refused: AtomicUsize,
}

/// How a flow ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decided {
    Ordered,
    Declined,
}

/// One flow, decided: whether the user accepted, and its final round as sent.
struct Done {
    accepted: bool,
    retry: Value,
}

/// Sends `body` to `to` until it is decided: the first answer that is neither "try again" nor
/// lost. `-32602` is returned too (the caller knows whether it is true).
async fn until_decided(
    to: SocketAddr,
    tag: &str,
    body: &Value,
    patience: Duration,
    t: &Tally,
) -> Value {
    let end = Instant::now() + DECIDE_WITHIN;
    let running = OnceError::<String>::Running.to_string();
    let headers = client::modern_headers(body);
    let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut last = String::new();
    for attempt in 0.. {
        assert!(
            Instant::now() < end,
            "{tag}: not decided in {DECIDE_WITHIN:?}; last: {last}"
        );
        t.sent.fetch_add(1, Ordering::Relaxed);
        let id = format!("{tag}-{attempt}");
        let sent = client::post_within(to, &id, &headers, body, patience).await;
        last = format!("attempt {attempt}: {sent:?}");
        let (pause, counter) = match sent {
            Ok((200, _, m)) => {
                let text = m["result"]["content"][0]["text"].as_str().unwrap_or("");
                let message = m["error"]["message"].as_str().unwrap_or("");
                let tool_error = m["result"]["isError"] == true;
                if m["error"]["code"] == -32603 && message.starts_with(REDIS)
                    || tool_error && text.starts_with(&format!("Nothing was done: {REDIS}"))
                {
                    (100, &t.told_retry)
                } else if tool_error && text == running {
                    (200, &t.running)
                } else if m["result"].is_object() && !tool_error || m["error"]["code"] == -32602 {
                    return m;
                } else {
                    panic!("{tag}: an answer the fleet must never give: {m}");
                }
            }
            Ok((502..=504, _, _)) | Err(_) => (50, &t.no_answer),
            Ok((status, _, m)) => panic!("{tag}: HTTP {status}: {m}"),
        };
        counter.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(pause)).await;
    }
    unreachable!()
}

/// Flow `n`: asked, answered (accepted, or declined for a quarter of them), decided; a third
/// send their final round again unchanged and changed. Panics on anything untrue.
async fn flow(front: SocketAddr, n: usize, t: &Tally) -> Done {
    let patience = if n.is_multiple_of(2) {
        IMPATIENT
    } else {
        PATIENT
    };
    let tag = format!("fault-{n}");
    let (args, ordered) = client::order(n);
    let first = until_decided(
        front,
        &format!("{tag}-1"),
        &client::call(1, &args, json!({})),
        patience,
        t,
    )
    .await;
    let state = client::question(&first, n).unwrap_or_else(|e| panic!("{tag}: {e}"));
    let accepted = n % 4 != 3;
    let delivery = if n.is_multiple_of(2) {
        "express"
    } else {
        "standard"
    };
    let yes = json!({"action": "accept", "content": {"approve": true, "delivery": delivery}});
    let no = json!({"action": "decline"});
    let final_round = |answer: &Value| {
        client::call(
            2,
            &args,
            json!({"requestState": state, "inputResponses": {"confirm_order": answer}}),
        )
    };
    let (answer, other) = if accepted { (&yes, &no) } else { (&no, &yes) };
    let retry = final_round(answer);
    let m = until_decided(front, &format!("{tag}-2"), &retry, patience, t).await;
    let decided = decision(&m, &ordered)
        .unwrap_or_else(|| panic!("{tag}: its own round refused or misread, untrue: {m}"));
    assert_eq!(decided == Decided::Ordered, accepted, "{tag}: {m}");
    if n.is_multiple_of(3) {
        let again = until_decided(front, &format!("{tag}-again"), &retry, patience, t).await;
        assert_eq!(
            again["result"]["content"], m["result"]["content"],
            "{tag} sent again: {again}"
        );
        t.same_again.fetch_add(1, Ordering::Relaxed);
        let changed = until_decided(
            front,
            &format!("{tag}-changed"),
            &final_round(other),
            patience,
            t,
        )
        .await;
        assert_eq!(
            (
                &changed["error"]["code"],
                changed["error"]["message"].as_str()
            ),
            (&json!(-32602), Some(STATE_REJECTED)),
            "{tag}: the other answer to a decided round: {changed}"
        );
        t.changed_refused.fetch_add(1, Ordering::Relaxed);
    }
    Done { accepted, retry }
}

/// How the final round's answer `m` decided the flow whose order reads `ordered`.
fn decision(m: &Value, ordered: &str) -> Option<Decided> {
    match m["result"]["content"][0]["text"].as_str()? {
        t if t == ordered => Some(Decided::Ordered),
        DECLINED => Some(Decided::Declined),
        _ => None,
    }
}

/// Flows, `LANES` at a time, until `stop`; each lane ends its flow in progress.
fn load(
    front: SocketAddr,
    stop: Arc<AtomicBool>,
    t: Arc<Tally>,
) -> tokio::task::JoinSet<Vec<Done>> {
    let next = Arc::new(AtomicUsize::new(0));
    let mut lanes = tokio::task::JoinSet::new();
    for _ in 0..LANES {
        let (stop, t, next) = (stop.clone(), t.clone(), next.clone());
        lanes.spawn(async move {
            let mut done = Vec::new();
            while !stop.load(Ordering::Relaxed) && done.len() < 500 {
                let n = next.fetch_add(1, Ordering::Relaxed);
                done.push(flow(front, n, &t).await);
            }
            done
        });
    }
    lanes
}

/// The faults, one after another, with load between them; what was injected.
async fn inject(fleet: &mut Fleet) -> Vec<String> {
    let mut done = Vec::new();
    let pause = |ms| tokio::time::sleep(Duration::from_millis(ms));
    pause(1_000).await;
    let redis = fleet.redis.as_mut().expect("a fleet on Redis");
    redis.signal("STOP");
    pause(1_500).await;
    redis.signal("CONT");
    done.push("SIGSTOP for 1.5 s".to_owned());
    pause(1_000).await;
    for _ in 0..2 {
        assert_eq!(
            redis.run(&["DEBUG", "SLEEP", "0.8"]).await.as_deref(),
            Ok("+OK")
        );
        done.push("DEBUG SLEEP 0.8".to_owned());
        pause(700).await;
    }
    assert_eq!(
        redis
            .run(&["CONFIG", "SET", "maxmemory", "1"])
            .await
            .as_deref(),
        Ok("+OK")
    );
    pause(1_200).await;
    assert_eq!(
        redis
            .run(&["CONFIG", "SET", "maxmemory", "0"])
            .await
            .as_deref(),
        Ok("+OK")
    );
    done.push("full (maxmemory) for 1.2 s".to_owned());
    pause(1_000).await;
    redis.kill().await;
    pause(300).await;
    redis.restart().await;
    done.push("SIGKILL, started again from its append-only file".to_owned());
    pause(1_500).await;
    done
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
// Needs nginx and redis-server; scripts/test-all.sh installs them and runs these with --ignored.
#[ignore = "needs nginx and redis-server (scripts/test-all.sh installs them and runs these with --ignored)"]
async fn under_redis_faults_every_round_told_to_retry_is_applied_once_or_truly_refused() {
    crate::harness::within(async {
        let keys = KeyRing::generate_spec(1);
        let mut fleet = Fleet::start("faults", [&keys, &keys, &keys], State::Redis).await;
        let started = Instant::now();
        let (stop, tally) = (Arc::new(AtomicBool::new(false)), Arc::new(Tally::default()));
        let mut lanes = load(fleet.front(), stop.clone(), tally.clone());
        let faults = inject(&mut fleet).await;
        stop.store(true, Ordering::Relaxed);
        let mut flows = Vec::new();
        while let Some(lane) = lanes.join_next().await {
            flows.extend(lane.expect("a lane"));
        }
        // A step the fleet does in the background once Redis answers (a claim given back, an
        // outcome recorded late) has had its time.
        tokio::time::sleep(Duration::from_secs(3)).await;

        // Counted: every accepted flow was answered with its order, every declined one said
        // so; the instances placed one order per accepted flow, and the ledger holds one
        // placed order per accepted flow, one "declined" per declined flow, and no claim.
        let accepted = flows.iter().filter(|f| f.accepted).count();
        let declined = flows.len() - accepted;
        let orders = fleet.orders("faults").await;
        assert_eq!(orders.values().sum::<usize>(), accepted, "{orders:?}");
        let ledger = fleet.ledger();
        assert_eq!(
            (ledger.placed, ledger.not_placed, ledger.claimed),
            (accepted, declined, 0)
        );
        let t = &*tally;
        let told = t.told_retry.load(Ordering::Relaxed);
        let lost = t.no_answer.load(Ordering::Relaxed);
        assert!(
            told > 0 && lost > 0,
            "the faults told no client to retry ({told}) or lost no answer ({lost})"
        );
        for (_, i) in fleet.running() {
            assert!(!i.log().contains("keeps nothing on disk"), "{}", i.log());
        }
        let took = started.elapsed();

        // Then Redis without its append-only file: started empty, it forgets every round and
        // every order. An instance started now warns of it; a decided final round sent again
        // orders once more. What the warning names, shown.
        let redis = fleet.redis.as_mut().expect("redis");
        redis.kill().await;
        redis.restart_without_persistence().await;
        fleet.restart(0, &keys).await;
        let log = fleet.running()[0].1.log();
        assert!(
            log.contains("keeps nothing on disk") && log.contains("could then be replayed"),
            "{log}"
        );
        let before = fleet.orders("empty-before").await.values().sum::<usize>();
        let replayed: Vec<&Done> = flows.iter().filter(|f| f.accepted).take(10).collect();
        for (i, f) in replayed.iter().enumerate() {
            let m = until_decided(fleet.front(), &format!("empty-{i}"), &f.retry, PATIENT, t).await;
            assert!(
                m["result"]["content"][0]["text"]
                    .as_str()
                    .is_some_and(|s| s.starts_with("Ordered")),
                "{m}"
            );
        }
        let after = fleet.orders("empty-after").await.values().sum::<usize>();
        assert_eq!(after, before + replayed.len(), "each ordered again");

        eprintln!(
            "faults: {} flows in {took:?} ({accepted} accepted, {declined} declined) through {} \
             faults ({}); {} requests sent, of them resent: {lost} after no answer (the client's \
             patience, a 502/504), {told} after being told to try again, {} after 'being done by \
             another request'; {} decided final rounds sent again unchanged, each the same answer; \
             {} sent with the other answer, each refused -32602; orders {orders:?} (one per \
             accepted flow), ledger {ledger:?}. Then Redis restarted without its append-only \
             file: the instance started after it warned, and {} decided final rounds sent again \
             ordered again ({before} -> {after} orders)",
            flows.len(),
            faults.len(),
            faults.join("; "),
            t.sent.load(Ordering::Relaxed),
            t.running.load(Ordering::Relaxed),
            t.same_again.load(Ordering::Relaxed),
            t.changed_refused.load(Ordering::Relaxed),
            replayed.len(),
        );
    })
    .await;
}
