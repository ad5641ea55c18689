//! The fleet on a Redis Cluster of three primaries (`RONDO_REDIS_CLUSTER`, design §19.3):
//! every script of the guard, the ledger and the task store touches one key, and a flow's keys
//! share its id as a hash tag, so each runs on the node of its slot. One cluster and one fleet,
//! in phases: a list naming a node that is down stops an instance at start; every final round
//! sent again anywhere gets its order once; the issue-45 faults on one primary (frozen,
//! stalled, full, killed and started again) under clients that time out and resend; and
//! `redis-cli --cluster reshard` moving slots, with their keys, while the clients order. The
//! checker of `faults.rs` counts every order on every instance and in the ledger on every node.

use crate::faults::{Clients, inject};
use crate::harness::{Fleet, State, within};
use crate::procs::{free_port, refused_at_start};
use crate::shared::replayed_everywhere;
use rondo_mcp::state::KeyRing;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
// Needs nginx, redis-server and redis-cli; scripts/test-all.sh installs them and runs these with --ignored.
#[ignore = "needs nginx, redis-server and redis-cli (scripts/test-all.sh installs them and runs these with --ignored)"]
async fn on_a_redis_cluster_replays_faults_and_a_reshard_keep_every_order_once() {
    within(async {
        let keys = KeyRing::generate_spec(1);
        let mut fleet = Fleet::start("cluster", [&keys, &keys, &keys], State::Cluster).await;

        // A list that names a node which is down: refused at start, the node named.
        let down = free_port();
        let list = format!("{},{down}", fleet.cluster().list());
        let line = refused_at_start(&[], &[("RONDO_REDIS_CLUSTER", &list)]);
        assert!(
            line.starts_with("bookshop: cannot reach Redis at the cluster redis://127.0.0.1:")
                && line.contains(&format!("the node redis://{down} does not answer")),
            "{line}"
        );

        // Every final round sent again, through nginx and to each instance.
        let replay = replayed_everywhere(&fleet, "cluster-replay", 60).await;

        // The faults on one primary: a third of the slots, so a third of the flows.
        let clients = Clients::start(&fleet, "cluster-fault").await;
        let faults = inject(&mut fleet.cluster().nodes[0], Duration::from_millis(400)).await;
        let faulted = clients.check(&fleet, "cluster-faults").await;
        assert!(
            faulted.told_retry > 0 && faulted.no_answer > 0,
            "the faults told no client to retry ({}) or lost no answer ({})",
            faulted.told_retry,
            faulted.no_answer
        );

        // Slots moved, with their keys, while the clients order: 3000 from the first primary
        // to the third.
        let before = [0, 1, 2].map(|i| fleet.cluster().slots(i));
        let clients = Clients::start(&fleet, "cluster-reshard").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let took = fleet.cluster().reshard(0, 2, 3000).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let resharded = clients.check(&fleet, "cluster-resharded").await;
        let after = [0, 1, 2].map(|i| fleet.cluster().slots(i));
        assert_eq!(
            (after[0], after[1], after[2]),
            (before[0] - 3000, before[1], before[2] + 3000),
            "slots per primary, before {before:?}"
        );
        assert!(!resharded.flows.is_empty());

        eprintln!(
            "cluster: replay: {replay}. Faults on one of three primaries ({}): {faulted}. \
             Resharding 3000 slots ({took:?}; slots per primary {before:?} -> {after:?}) while \
             the clients ordered: {resharded}",
            faults.join("; ")
        );
    })
    .await;
}
