//! Redis as people run it for a fleet, on 127.0.0.1 ports, each node a [`Node`] (persistent,
//! killable, restartable): a Redis Cluster of three primaries made with `redis-cli --cluster
//! create` and resharded with `redis-cli --cluster reshard`; and a primary with one replica
//! followed by three Sentinels. Everything stops when its handle is dropped.

use crate::redis::{Kind, Ledger, Node, bulk, command, query, tool};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long a cluster may take to agree on its slots, or the Sentinels to promote a replica.
const SETTLE: Duration = Duration::from_secs(20);

/// Waits (bounded by [`SETTLE`]) until `ready` holds, naming `what` when it never does.
async fn until(what: &str, mut ready: impl FnMut() -> bool) {
    let end = Instant::now() + SETTLE;
    while !ready() {
        assert!(Instant::now() < end, "{what} not within {SETTLE:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Three primaries sharing the 16384 slots, no replicas.
pub struct Cluster {
    pub nodes: Vec<Node>,
}

impl Cluster {
    pub async fn start(dir: &Path) -> Cluster {
        let mut nodes = Vec::new();
        for i in 0..3 {
            let args = [
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                // A node killed and started again within this is not taken for failed.
                "--cluster-node-timeout",
                "5000",
            ];
            let kind = Kind::Data(args.map(str::to_owned).into());
            nodes.push(Node::start_as(dir, &format!("cluster-{i}"), kind).await);
        }
        let cluster = Cluster { nodes };
        let mut create = Command::new(tool("redis-cli"));
        create.arg("--cluster").arg("create");
        for n in &cluster.nodes {
            create.arg(n.addr.to_string());
        }
        let out = create
            .args(["--cluster-replicas", "0", "--cluster-yes"])
            .stdin(Stdio::null())
            .output()
            .expect("run redis-cli --cluster create");
        assert!(
            out.status.success(),
            "redis-cli --cluster create: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        cluster.settled().await;
        cluster
    }

    /// Waits until every node says the cluster serves every slot.
    pub async fn settled(&self) {
        for n in &self.nodes {
            until("cluster_state:ok on every node", || {
                bulk(n.addr, &["CLUSTER", "INFO"]).is_ok_and(|i| i.contains("cluster_state:ok"))
            })
            .await;
        }
    }

    /// The nodes as `RONDO_REDIS_CLUSTER` lists them.
    pub fn list(&self) -> String {
        let addrs: Vec<String> = self.nodes.iter().map(|n| n.addr.to_string()).collect();
        addrs.join(",")
    }

    /// The effect ledger over every node.
    pub fn ledger(&self) -> Ledger {
        self.nodes.iter().map(Node::ledger).sum()
    }

    /// How many slots node `i` serves, from its own `CLUSTER NODES` line.
    pub fn slots(&self, i: usize) -> usize {
        let nodes = bulk(self.nodes[i].addr, &["CLUSTER", "NODES"]).expect("CLUSTER NODES");
        let mine = nodes
            .lines()
            .find(|l| l.contains("myself"))
            .expect("its own line");
        mine.split_whitespace()
            .skip(8)
            .map(|range| match range.split_once('-') {
                Some((a, b)) => b.parse::<usize>().unwrap() - a.parse::<usize>().unwrap() + 1,
                None => usize::from(!range.starts_with('[')),
            })
            .sum()
    }

    /// Moves `slots` slots, with their keys, from node `from` to node `to` (`redis-cli
    /// --cluster reshard`, run on a blocking thread while the fleet serves).
    pub async fn reshard(&self, from: usize, to: usize, slots: usize) -> Duration {
        let id = |i: usize| bulk(self.nodes[i].addr, &["CLUSTER", "MYID"]).expect("CLUSTER MYID");
        let (seed, from, to) = (self.nodes[0].addr.to_string(), id(from), id(to));
        let started = Instant::now();
        let out = tokio::task::spawn_blocking(move || {
            Command::new(tool("redis-cli"))
                .args(["--cluster", "reshard", &seed])
                .args(["--cluster-from", &from, "--cluster-to", &to])
                .args(["--cluster-slots", &slots.to_string(), "--cluster-yes"])
                .stdin(Stdio::null())
                .output()
                .expect("run redis-cli --cluster reshard")
        })
        .await
        .expect("the reshard's thread");
        assert!(
            out.status.success(),
            "redis-cli --cluster reshard: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        self.settled().await;
        started.elapsed()
    }
}

/// The primary's name the Sentinels follow.
pub const PRIMARY: &str = "fleet";

/// A primary, its replica, and three Sentinels following them (quorum two). `nodes[0]` is the
/// primary they started with.
pub struct Sentinels {
    pub nodes: Vec<Node>,
    pub sentinels: Vec<Node>,
}

impl Sentinels {
    pub async fn start(dir: &Path) -> Sentinels {
        let primary = Node::start_as(dir, "primary", Kind::Data(Vec::new())).await;
        let replica_of = ["--replicaof", "127.0.0.1", &primary.addr.port().to_string()];
        let replica_of = Kind::Data(replica_of.map(str::to_owned).into());
        let replica = Node::start_as(dir, "replica", replica_of).await;
        let mut sentinels = Vec::new();
        for i in 0..3 {
            let conf = dir.join(format!("sentinel-{i}.conf"));
            std::fs::write(
                &conf,
                format!(
                    "sentinel monitor {PRIMARY} 127.0.0.1 {} 2\n\
                     sentinel down-after-milliseconds {PRIMARY} 500\n\
                     sentinel failover-timeout {PRIMARY} 4000\n\
                     sentinel parallel-syncs {PRIMARY} 1\n",
                    primary.addr.port()
                ),
            )
            .expect("sentinel.conf");
            sentinels
                .push(Node::start_as(dir, &format!("sentinel-{i}"), Kind::Sentinel(conf)).await);
        }
        let topology = Sentinels {
            nodes: vec![primary, replica],
            sentinels,
        };
        // Every Sentinel knows the replica and the others before anything is done.
        for s in &topology.sentinels {
            until("every Sentinel sees the replica and the two others", || {
                let info = bulk(s.addr, &["INFO", "sentinel"]).unwrap_or_default();
                info.contains("slaves=1,sentinels=3")
            })
            .await;
        }
        until("the replica in sync", || topology.in_sync(1)).await;
        topology
    }

    /// The Sentinels as `RONDO_REDIS_SENTINEL` lists them.
    pub fn list(&self) -> String {
        let addrs: Vec<String> = self.sentinels.iter().map(|n| n.addr.to_string()).collect();
        addrs.join(",")
    }

    /// Which node the Sentinels name as the primary now (by index), once two of them agree.
    pub fn primary(&self) -> Option<usize> {
        let named: Vec<Option<usize>> = self
            .sentinels
            .iter()
            .map(|s| {
                let reply =
                    query(s.addr, &["SENTINEL", "GET-MASTER-ADDR-BY-NAME", PRIMARY]).ok()?;
                let port: u16 = reply.get(1)?.parse().ok()?;
                self.nodes.iter().position(|n| n.addr.port() == port)
            })
            .collect();
        named
            .iter()
            .flatten()
            .find(|i| named.iter().filter(|n| **n == Some(**i)).count() >= 2)
            .copied()
    }

    /// Waits until the Sentinels name node `i` the primary and it says so itself.
    pub async fn promoted(&self, i: usize) -> Duration {
        let started = Instant::now();
        until("the Sentinels' failover", || {
            self.primary() == Some(i)
                && bulk(self.nodes[i].addr, &["INFO", "replication"])
                    .is_ok_and(|r| r.contains("role:master"))
        })
        .await;
        started.elapsed()
    }

    /// Whether node `replica` is a replica with its link up and nothing left to receive.
    pub fn in_sync(&self, replica: usize) -> bool {
        let info = bulk(self.nodes[replica].addr, &["INFO", "replication"]).unwrap_or_default();
        info.contains("role:slave") && info.contains("master_link_status:up")
    }

    /// Makes node `i`, started again, a replica of the primary (what the Sentinels do
    /// themselves when they next read its role, up to 10 s later) and waits until it is in
    /// sync.
    pub async fn rejoined(&self, i: usize) {
        let primary = self.nodes[self.primary().expect("a primary")].addr;
        let port = primary.port().to_string();
        let replicaof = command(self.nodes[i].addr, &["REPLICAOF", "127.0.0.1", &port]);
        assert!(
            replicaof.as_deref().is_ok_and(|r| r.starts_with("+OK")),
            "{replicaof:?}"
        );
        until("the old primary back as a replica", || self.in_sync(i)).await;
    }

    /// The effect ledger on the primary now.
    pub fn ledger(&self) -> Ledger {
        self.nodes[self.primary().expect("a primary")].ledger()
    }
}
