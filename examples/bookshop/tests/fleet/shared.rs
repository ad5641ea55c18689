//! The fleet is one server when its instances share a Redis (`--redis`, the guide's
//! `fleet` page, design §19): a final round sent again anywhere gets its recorded outcome and
//! orders nothing, with another answer it is refused, and a decline is not turned into an order
//! on another instance. The control: without Redis the same final round sent to another
//! instance orders again (what the instances warn of at start). What killing a Redis or an
//! instance costs is in `kills.rs`.
//!
//! Orders are counted twice over: with `list_orders` on every instance (each counts what it
//! placed, in its memory), and in the shared ledger (`rondo:once:*` in Redis, read directly).

use crate::client::{self, End, Flow};
use crate::harness::{Fleet, Served, State, batch, clean_log, within};
use crate::load::in_lanes;
use rondo_mcp::state::KeyRing;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::net::SocketAddr;

/// What an instance without shared state says at start (target `rondo::fleet`).
const UNSHARED: &str = "a round replayed on another instance, or after a restart, is not refused";

/// Flow `n`'s final round sent again to each of `to`, `LANES` at a time: (flow, where, how it
/// ended).
pub async fn again(flows: &[Flow], to: &[SocketAddr], tag: &str) -> Vec<(usize, SocketAddr, End)> {
    let mut jobs = Vec::new();
    for f in flows {
        let body = f.retry.clone().expect("a final round");
        for (i, addr) in to.iter().enumerate() {
            jobs.push((f.n, body.clone(), *addr, format!("{tag}-{}-{i}", f.n)));
        }
    }
    in_lanes(
        jobs,
        |(n, body, to, id): (usize, Value, SocketAddr, String)| async move {
            (n, to, client::send(to, &id, n, &body).await)
        },
    )
    .await
}

/// Flow `f` with its final round's answer changed to the other delivery: another request for
/// the same round.
pub fn other_delivery(f: &Flow) -> Flow {
    let mut f = f.clone();
    let retry = f.retry.as_mut().expect("a final round");
    let delivery = &mut retry["params"]["inputResponses"]["confirm_order"]["content"]["delivery"];
    *delivery = if delivery == "express" {
        "standard"
    } else {
        "express"
    }
    .into();
    f
}

/// Orders each instance placed must be the flows whose final round it answered `Ordered`.
pub fn placed_where_answered(orders: &HashMap<String, usize>, flows: &[Flow], served: &Served) {
    for (addr, &placed) in orders {
        let answered = flows
            .iter()
            .filter(|f| f.end == End::Ordered && served.by(f, 1) == Some(addr.as_str()))
            .count();
        assert_eq!(placed, answered, "orders on {addr}");
    }
}

pub fn addrs(fleet: &Fleet) -> Vec<SocketAddr> {
    fleet.running().iter().map(|(_, i)| i.addr).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
// Needs nginx and redis-server; scripts/test-all.sh installs them and runs these with --ignored.
#[ignore = "needs nginx and redis-server (scripts/test-all.sh installs them and runs these with --ignored)"]
async fn every_final_round_sent_again_anywhere_gets_its_order_and_orders_nothing_more() {
    within(async {
        let keys = KeyRing::generate_spec(1);
        let fleet = Fleet::start("replay", [&keys, &keys, &keys], State::Redis).await;
        let report = replayed_everywhere(&fleet, "replay", 150).await;
        eprintln!("replay: {report}");
    })
    .await;
}

/// On a fleet that has ordered nothing yet: `n` flows ordered, then each final round sent
/// again through nginx and to all three instances directly (each answered with its order from
/// the ledger, none placed again), and with another delivery (refused everywhere). Panics on
/// anything else; what happened, in words.
pub async fn replayed_everywhere(fleet: &Fleet, tag: &str, n: usize) -> String {
    let flows = batch(fleet.front(), tag, 0..n).await;
    for f in &flows {
        assert_eq!(f.end, End::Ordered, "flow {}: {f:?}", f.n);
    }
    let served = fleet.served(&flows).await;
    clean_log(&served);
    // Through the balancer, and to each instance directly: the two that did not answer the
    // round, and the one that did.
    let mut to = vec![fleet.front()];
    to.extend(addrs(fleet));
    let sent = again(&flows, &to, &format!("{tag}-again")).await;
    let mut elsewhere = 0;
    for (n, addr, end) in &sent {
        // The same round (a client that lost its answer): its order, from the ledger.
        assert_eq!(
            *end,
            End::Ordered,
            "flow {n}'s final round sent again to {addr}"
        );
        let f = &flows[*n];
        if *addr != fleet.front() && served.by(f, 1) != Some(addr.to_string().as_str()) {
            elsewhere += 1;
        }
    }
    assert_eq!(
        elsewhere,
        2 * flows.len(),
        "each to the two other instances"
    );
    // The same round with another answer (another delivery): refused everywhere.
    let changed: Vec<Flow> = flows.iter().map(other_delivery).collect();
    let refused = again(&changed, &to, &format!("{tag}-changed")).await;
    for (n, addr, end) in &refused {
        assert_eq!(
            *end,
            End::Refused,
            "flow {n}'s final round changed, sent to {addr}"
        );
    }
    // One order per flow, on the instance that answered its final round; the same in the
    // shared ledger.
    let orders = fleet.orders(tag).await;
    placed_where_answered(&orders, &flows, &served);
    assert_eq!(orders.values().sum::<usize>(), flows.len());
    let ledger = fleet.ledger();
    assert_eq!(
        (ledger.placed, ledger.not_placed, ledger.claimed),
        (flows.len(), 0, 0)
    );
    for (_, i) in fleet.running() {
        assert!(!i.log().contains(UNSHARED), "{}", i.log());
    }
    format!(
        "{} flows ordered, each final round sent again through nginx and to all three \
         instances ({} sends, {elsewhere} to an instance that had not answered it): each \
         answered with its order, none placed again; with another delivery ({} sends): all \
         refused with -32602; orders {orders:?}, ledger {ledger:?}",
        flows.len(),
        sent.len(),
        refused.len()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
// Needs nginx and redis-server; scripts/test-all.sh installs them and runs these with --ignored.
#[ignore = "needs nginx and redis-server (scripts/test-all.sh installs them and runs these with --ignored)"]
async fn declined_on_one_instance_then_accepted_on_another_is_refused() {
    within(async {
        let keys = KeyRing::generate_spec(1);
        let fleet = Fleet::start("decline", [&keys, &keys, &keys], State::Redis).await;
        let (front, addrs) = (fleet.front(), addrs(&fleet));
        const FLOWS: usize = 30;
        let ends = in_lanes((0..FLOWS).collect(), move |n: usize| {
            let addrs = addrs.clone();
            async move {
                let Ok(pending) = client::first_round(front, "decline", n).await else {
                    panic!("flow {n}: first round");
                };
                // No, three ways: declined, dismissed, the form sent back unapproved.
                let (no, said) = match n % 3 {
                    0 => (json!({"action": "decline"}), "The user declined; nothing was ordered."),
                    1 => (
                        json!({"action": "cancel"}),
                        "The user dismissed the confirmation; nothing was ordered.",
                    ),
                    _ => (
                        json!({"action": "accept", "content": {"approve": false}}),
                        "The user declined; nothing was ordered.",
                    ),
                };
                let decider = addrs[n % 3];
                let m = client::answer(decider, &format!("decline-{n}-no"), &pending.retry(no))
                    .await
                    .unwrap_or_else(|e| panic!("flow {n}: {e}"));
                assert_eq!(m["result"]["content"][0]["text"], said, "flow {n}: {m}");
                // The same round, accepted, on each other instance and through the balancer.
                let yes = pending.retry(pending.accept());
                let mut ends = Vec::new();
                for (i, to) in addrs.iter().filter(|a| **a != decider).chain([&front]).enumerate() {
                    let end = client::send(*to, &format!("decline-{n}-yes-{i}"), n, &yes).await;
                    ends.push((*to, end));
                }
                (n, decider, ends)
            }
        })
        .await;
        for (n, decider, ends) in &ends {
            assert_eq!(ends.len(), 3);
            for (to, end) in ends {
                assert_eq!(*end, End::Refused, "flow {n}, declined on {decider}, accepted on {to}");
            }
        }
        let orders = fleet.orders("decline").await;
        assert!(orders.values().all(|n| *n == 0), "{orders:?}");
        let ledger = fleet.ledger();
        assert_eq!(
            (ledger.placed, ledger.not_placed, ledger.claimed),
            (0, FLOWS, 0)
        );
        eprintln!(
            "decline: {FLOWS} flows said no on one instance, then yes on the two others and through \
             nginx: all {} refused with -32602, nothing ordered ({orders:?}), ledger {ledger:?}",
            3 * FLOWS
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
// Needs nginx on PATH; scripts/test-all.sh installs it and runs these with --ignored.
#[ignore = "needs nginx (scripts/test-all.sh installs it and runs these with --ignored)"]
async fn without_shared_state_a_final_round_sent_to_another_instance_orders_again() {
    within(async {
        // The control for the two tests above: the refusals there are the shared state's.
        let keys = KeyRing::generate_spec(1);
        let fleet = Fleet::start("memory", [&keys, &keys, &keys], State::Memory).await;
        let flows = batch(fleet.front(), "memory", 0..30).await;
        for f in &flows {
            assert_eq!(f.end, End::Ordered, "flow {}: {f:?}", f.n);
        }
        let served = fleet.served(&flows).await;
        let addrs = addrs(&fleet);
        for f in &flows {
            let by = served.by(f, 1).expect("answered");
            let body = f.retry.as_ref().expect("final round");
            let same = addrs.iter().find(|a| a.to_string() == by).expect("by");
            let other = addrs.iter().find(|a| a.to_string() != by).expect("other");
            let id = format!("memory-again-{}", f.n);
            // Its own memory answers it from its own ledger; another instance's does not know it.
            assert_eq!(client::send(*same, &id, f.n, body).await, End::Ordered);
            let id = format!("memory-other-{}", f.n);
            assert_eq!(client::send(*other, &id, f.n, body).await, End::Ordered);
        }
        let orders = fleet.orders("memory").await;
        assert_eq!(
            orders.values().sum::<usize>(),
            2 * flows.len(),
            "{orders:?}"
        );
        for (_, i) in fleet.running() {
            assert_eq!(i.log().matches(UNSHARED).count(), 1, "{}", i.log());
        }
        eprintln!(
            "memory: {} flows, each final round sent again to another instance: ordered again \
             ({orders:?}); every instance warned once at start",
            flows.len()
        );
    })
    .await;
}
