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
use crate::redis::query;
use crate::shared::replayed_everywhere;
use crate::topology::Cluster;
use rondo_mcp::shared::{Redis, RedisConfig};
use rondo_mcp::state::KeyRing;
use rondo_mcp::tasks::{Lease, StoreError, TaskRecord, TaskStore};
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

        // Every final round sent again, through nginx and to each instance; each flow's keys
        // on one node; the task store's steps on keys of different nodes.
        let replay = replayed_everywhere(&fleet, "cluster-replay", 60).await;
        let together = one_node_per_flow(fleet.cluster());
        let tasks = tasks_on(fleet.cluster()).await;

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
            "cluster: replay: {replay}; each of the {together} flows' guard and ledger keys on \
             one node. {tasks}. Faults on one of three primaries ({}): {faulted}. \
             Resharding 3000 slots ({took:?}; slots per primary {before:?} -> {after:?}) while \
             the clients ordered: {resharded}",
            faults.join("; ")
        );
    })
    .await;
}

/// Every flow whose order the ledger holds has its rounds in the replay guard on the same node
/// (the flow id is the hash tag of both); how many flows.
fn one_node_per_flow(cluster: &Cluster) -> usize {
    let mut flows = 0;
    for node in &cluster.nodes {
        for key in query(node.addr, &["KEYS", "rondo:once:*"]).expect("KEYS") {
            let flow = key
                .strip_prefix("rondo:once:{")
                .and_then(|k| k.split_once('}'))
                .map(|(flow, _)| flow)
                .unwrap_or_else(|| panic!("a ledger key without its flow's tag: {key}"));
            let rounds = query(node.addr, &["KEYS", &format!("rondo:replay:{{{flow}}}.*")]);
            assert!(
                !rounds.expect("KEYS").is_empty(),
                "flow {flow}: its rounds are not on the node of its ledger entry"
            );
            flows += 1;
        }
    }
    assert!(flows > 0);
    flows
}

/// The task store on the cluster: each principal's tasks counted against its bound (one
/// node holds its set, others the tasks), read back and written; what was done, in words.
async fn tasks_on(cluster: &Cluster) -> String {
    let list = cluster.list();
    let redis = Redis::open(&RedisConfig::cluster(list.split(',')))
        .await
        .expect("connects");
    let store = redis.task_store();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("a clock after 1970")
        .as_millis() as u64;
    let principals = ["alice", "bob", "carol", "dave", "erin", "frank"];
    let mut created = 0;
    for p in principals {
        for i in 0..3 {
            let lease = Lease {
                owner: "i1".into(),
                until_ms: now + 60_000,
            };
            let mut task = TaskRecord::new(Some(p.into()), "slow", now, 60_000, 250, lease);
            match store.create(&task, 2).await {
                Ok(()) => {
                    assert!(i < 2, "{p}: a third task past the bound of two");
                    created += 1;
                }
                Err(StoreError::Full { max: 2 }) => assert_eq!(i, 2, "{p}: refused early"),
                Err(e) => panic!("{p}: {e}"),
            }
            if i < 2 {
                let loaded = store.load(&task.id, now).await.expect("loads");
                assert_eq!(loaded.map(|t| t.id), Some(task.id.clone()));
                task.status_message = Some("half way".into());
                assert!(store.put_if(&task, 1).await.expect("writes"), "{p}");
            }
        }
    }
    format!(
        "The task store: {created} tasks of {} principals created, read and written, a third \
         for each refused at the bound of two",
        principals.len()
    )
}
