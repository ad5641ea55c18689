//! Killing what a fleet sharing a Redis runs on: Redis restarted under load costs the rounds it
//! could not guard a clear refusal and forgets nothing it acknowledged, a killed instance
//! orders nothing twice, and an instance killed while placing an order never has it placed
//! again.
//!
//! Orders are counted twice over, as in `shared.rs`: with `list_orders` on every instance, and
//! in the shared ledger (`rondo:once:*` in Redis, read directly).

use crate::client::{self, End, Flow};
use crate::harness::{Fleet, LANES, State, within};
use crate::load::{Killed, Load};
use crate::shared::{addrs, again, other_delivery, placed_where_answered};
use rondo_mcp::state::KeyRing;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

fn unavailable(e: &End) -> bool {
    matches!(e, End::Unavailable(_))
}

/// Flows sent to instance `to` only, until one is ordered (at most `bound`); every one.
async fn until_ordered_on(to: SocketAddr, tag: &str, from: usize, bound: Duration) -> Vec<Flow> {
    let end = Instant::now() + bound;
    let mut flows = Vec::new();
    for n in from.. {
        let flow = client::order_flow(to, tag, n, Duration::ZERO).await;
        let done = flow.end == End::Ordered;
        assert!(
            done || unavailable(&flow.end),
            "flow {n} on {to} after the restart: {flow:?}"
        );
        flows.push(flow);
        if done {
            break;
        }
        assert!(
            Instant::now() < end,
            "{to} did not order within {bound:?} of the restart"
        );
    }
    flows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
// Needs nginx and redis-server; scripts/test-all.sh installs them and runs these with --ignored.
#[ignore = "needs nginx and redis-server (scripts/test-all.sh installs them and runs these with --ignored)"]
async fn redis_killed_under_load_refuses_what_it_cannot_guard_and_forgets_nothing() {
    within(async {
        let keys = KeyRing::generate_spec(1);
        let mut fleet = Fleet::start("redis-restart", [&keys, &keys, &keys], State::Redis).await;
        let front = fleet.front();
        let load = Load::start(front, "restart", LANES, Duration::from_millis(300));
        load.run_for(40).await;
        let redis = fleet.node();
        redis.kill().await;
        let down = Instant::now();
        // Down: the rounds that need the guard are refused, clearly.
        load.until_ended(LANES, unavailable, Duration::from_secs(40))
            .await;
        let restarted = Instant::now();
        redis.restart().await;
        // Back: each instance reconnects by itself; then every new flow completes.
        let mut probes = Vec::new();
        for (slot, addr) in addrs(&fleet).into_iter().enumerate() {
            let from = 100_000 + 1000 * slot;
            probes.extend(until_ordered_on(addr, "probe", from, Duration::from_secs(30)).await);
        }
        let back = Instant::now();
        load.until_ended(40, |e| *e == End::Ordered, Duration::from_secs(30))
            .await;
        let mut flows = load.finish().await;
        flows.extend(probes);

        let mut during = 0;
        let mut said = std::collections::BTreeSet::new();
        for f in &flows {
            let last = f.rounds.last().expect("a round");
            match &f.end {
                End::Ordered => {}
                End::Unavailable(why) => {
                    said.insert(why.clone());
                }
                other => panic!("flow {}: {other:?}: {f:?}", f.n),
            }
            // A final round wholly inside the outage is never accepted.
            if f.rounds.len() == 2 && last.started > down && last.finished < restarted {
                assert!(
                    unavailable(&f.end),
                    "flow {} ordered while Redis was down",
                    f.n
                );
                during += 1;
            }
            if f.rounds[0].started > back {
                assert_eq!(f.end, End::Ordered, "flow {} after Redis was back", f.n);
            }
        }
        assert!(during > 0, "no final round ran wholly while Redis was down");
        let refused = flows.iter().filter(|f| unavailable(&f.end)).count();
        let slowest = flows
            .iter()
            .filter(|f| unavailable(&f.end))
            .map(|f| f.rounds[1].finished - f.rounds[1].started)
            .max()
            .unwrap_or_default();
        // Promptly (about a second in the runtime), well within a client's patience.
        assert!(
            slowest < Duration::from_secs(5),
            "a refusal took {slowest:?}"
        );
        let before: Vec<Flow> = flows
            .iter()
            .filter(|f| f.end == End::Ordered && f.rounds[1].finished < down)
            .cloned()
            .collect();
        assert!(!before.is_empty());
        // Every final round ordered, before the kill or after, sent again: its order, from the
        // ledger, nothing placed again. Those ordered before it were remembered through the
        // restart (the append-only file); with another answer, refused.
        let ordered: Vec<Flow> = flows
            .iter()
            .filter(|f| f.end == End::Ordered)
            .cloned()
            .collect();
        for (n, _, end) in again(&ordered, &[front], "restart-again").await {
            assert_eq!(end, End::Ordered, "flow {n} sent again after the restart");
        }
        let changed: Vec<Flow> = ordered.iter().map(other_delivery).collect();
        for (n, _, end) in again(&changed, &[front], "restart-changed").await {
            assert_eq!(
                end,
                End::Refused,
                "flow {n} changed, sent after the restart"
            );
        }
        // The refused ones, tried again as they were told: each is ordered now, once.
        let told: Vec<Flow> = flows
            .iter()
            .filter(|f| unavailable(&f.end))
            .cloned()
            .collect();
        let tried = again(&told, &[front], "restart-retry").await;
        let mut now_ordered = 0;
        for (n, _, end) in &tried {
            match end {
                End::Ordered => now_ordered += 1,
                other => panic!("flow {n} tried again after the restart: {other:?}"),
            }
        }
        // Counted exactly: one order for each answer that said so.
        let answered = ordered.len() + now_ordered;
        let orders = fleet.orders("restart").await;
        assert_eq!(orders.values().sum::<usize>(), answered, "{orders:?}");
        eprintln!(
            "redis restart: {} flows ({} before the kill); down {:?}, every instance ordering \
             again {:?} after the restart; {refused} refused while Redis was down ({during} \
             wholly inside the outage, the slowest answer in {slowest:?}), saying {said:?}; {} \
             flows sent to the instances one by one until each ordered; all {} ordered sent \
             again: refused; of the {refused} refused, {now_ordered} ordered when tried again; \
             {answered} orders placed, {orders:?}",
            flows.len(),
            before.len(),
            restarted - down,
            back - restarted,
            flows.iter().filter(|f| f.n >= 100_000).count(),
            ordered.len()
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
// Needs nginx and redis-server; scripts/test-all.sh installs them and runs these with --ignored.
#[ignore = "needs nginx and redis-server (scripts/test-all.sh installs them and runs these with --ignored)"]
async fn a_killed_instance_with_shared_state_orders_nothing_twice() {
    within(async {
        let killed = Killed::run("kill-redis", State::Redis).await;
        let (fleet, flows, served) = (&killed.fleet, &killed.flows, &killed.served);
        let victim = &killed.victim;
        // A final round that was on the victim when it died: nginx answered 502, and the
        // client sent it again. The victim may have taken the round (the guard), claimed the
        // order and placed it, or not: the resend is the same round, served again, and finds
        // in the ledger the order recorded, or a claim never recorded (`Running`: the outcome
        // died with the victim), or nothing (it orders).
        let cut = |f: &Flow| {
            f.rounds.get(1).is_some_and(|r| {
                served
                    .0
                    .get(&r.attempts[0])
                    .is_some_and(|e| e.status == 502 && e.served_by() == Some(victim.as_str()))
            })
        };
        let mut cut_refused = 0;
        for f in flows {
            if cut(f) {
                // Sent again elsewhere: ordered, or told the order may have been placed.
                match f.end {
                    End::Ordered => {}
                    End::Running => cut_refused += 1,
                    _ => panic!("flow {} cut on the victim: {f:?}", f.n),
                }
                assert_ne!(served.by(f, 1), Some(victim.as_str()));
            } else {
                assert_eq!(f.end, End::Ordered, "flow {}: {f:?}", f.n);
            }
        }
        let rescued = killed.rescued();
        // Counted: the survivors placed exactly the orders they answered. The victim's orders
        // died with its memory; the ledger in Redis outlives it: every order anywhere is
        // recorded there before it is answered, so it holds one entry for each flow answered
        // Ordered, plus at most one for each cut flow answered `Running` on its resend (placed
        // or claimed by the victim before it died: unknown, and never placed again).
        let orders = fleet.orders("kill-redis").await;
        assert_eq!(orders.len(), 2);
        placed_where_answered(&orders, flows, served);
        let ordered = flows.iter().filter(|f| f.end == End::Ordered).count();
        let ledger = fleet.ledger();
        assert_eq!(ledger.not_placed, 0, "{ledger:?}");
        assert!(
            ordered <= ledger.placed && ledger.placed + ledger.claimed <= ordered + cut_refused,
            "{ordered} ordered, {cut_refused} cut and refused, ledger {ledger:?}"
        );
        let by_victim = flows
            .iter()
            .filter(|f| f.end == End::Ordered && served.by(f, 1) == Some(victim.as_str()))
            .count();
        let cut_n = flows.iter().filter(|f| cut(f)).count();
        let retries: usize = flows.iter().map(Flow::retries).sum();
        eprintln!(
            "kill with Redis: {} flows, {ordered} ordered ({by_victim} by the victim, its orders lost \
             with it; the survivors' {orders:?} exactly theirs); {cut_n} final rounds cut by the kill, \
             {cut_refused} of them answered on resend that the order may have been placed (the \
             victim had claimed it); \
             {rescued} asked by the victim and finished by another; ledger {ledger:?}; {retries} \
             rounds resent after a 502",
            flows.len()
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
// Needs nginx and redis-server; scripts/test-all.sh installs them and runs these with --ignored.
#[ignore = "needs nginx and redis-server (scripts/test-all.sh installs them and runs these with --ignored)"]
async fn an_instance_killed_while_placing_an_order_never_has_it_placed_again() {
    within(async {
        let keys = KeyRing::generate_spec(1);
        let mut fleet = Fleet::start("mid-order", [&keys, &keys, &keys], State::Redis).await;
        let (front, victim) = (fleet.front(), fleet.addr(0));
        let Ok(pending) = client::first_round(front, "mid", 0).await else {
            panic!("first round");
        };
        let body = pending.retry(pending.accept());
        let sent = {
            let body = body.clone();
            tokio::spawn(async move { client::answer(victim, "mid-victim", &body).await })
        };
        // Killed while the warehouse has the order (`shop::WAREHOUSE`, 100 ms): the victim has
        // taken the round (the guard) and claimed the order in the ledger, and not recorded
        // whether it was placed. Nothing else runs on this fleet, so the claim is this one.
        let end = Instant::now() + Duration::from_secs(10);
        while fleet.ledger().claimed == 0 {
            assert!(Instant::now() < end, "the victim never claimed the order");
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        fleet.kill(0).await;
        let answer = sent.await.expect("the victim's request");
        assert!(answer.is_err(), "answered before it died: {answer:?}");
        let ledger = fleet.ledger();
        assert_eq!(
            (ledger.placed, ledger.not_placed, ledger.claimed),
            (0, 0, 1)
        );
        // The client sends the round again, through the balancer and to each survivor: the
        // same round, served again, finds the claim and says the order may have been placed
        // (it died with the victim, or was never placed); it is not placed a second time.
        let mut sends = tokio::task::JoinSet::new();
        for (i, to) in [front, fleet.addr(1), fleet.addr(2)]
            .into_iter()
            .enumerate()
        {
            let body = body.clone();
            sends.spawn(async move {
                (
                    to,
                    client::send(to, &format!("mid-again-{i}"), 0, &body).await,
                )
            });
        }
        while let Some(sent) = sends.join_next().await {
            let (to, end) = sent.expect("a send");
            assert_eq!(end, End::Running, "sent again to {to}");
        }
        let orders = fleet.orders("mid").await;
        assert_eq!(orders.values().sum::<usize>(), 0, "{orders:?}");
        assert_eq!(
            fleet.ledger(),
            ledger,
            "and the claim stays until it expires"
        );
        eprintln!(
            "mid-order: the victim killed with the order claimed and unrecorded ({ledger:?}); the \
             round sent again through nginx and to both survivors: each answered that the order \
             may have been placed (the claim, OnceError::Running); nothing placed by the survivors"
        );
    })
    .await;
}
