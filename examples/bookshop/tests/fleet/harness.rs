//! The fleet the tests drive: three instances behind nginx, its access log read per flow, and
//! flows in batches. Background load and a killed instance are in `load.rs`.

use crate::client::{self, Flow, order_flow};
use crate::log;
use crate::procs::{Given, Instance, Nginx, Scratch, free_port};
use crate::redis::{Ledger, Node};
use crate::topology::{Cluster, Sentinels};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Cross-instance flows each of the first two tests must see.
pub const CROSSED: usize = 200;
/// Flows run at once.
pub const LANES: usize = 12;
/// A whole test's bound.
pub const BUDGET: Duration = Duration::from_secs(120);

/// Where the instances keep their replay guard and effect ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// One Redis, started for the fleet, given to every instance (`--redis`): the guide's
    /// `fleet` page, step one.
    Redis,
    /// A Redis Cluster of three primaries (`RONDO_REDIS_CLUSTER`).
    Cluster,
    /// A primary and its replica followed by three Sentinels (`RONDO_REDIS_SENTINEL`,
    /// `RONDO_REDIS_MASTER`).
    Sentinel,
    /// One Redis that accepts only TLS with a client certificate, and an ACL user
    /// (`--redis rediss://user:password@...`, `--redis-ca`, `RONDO_REDIS_CLIENT_CERT` and
    /// `_KEY`): a managed Redis.
    Tls,
    /// Each instance's own memory (no `--redis`).
    Memory,
}

/// The Redis a fleet shares, as it runs.
pub enum Backend {
    One(Node),
    Cluster(Cluster),
    Sentinel(Sentinels),
    Tls(Node, u16),
}

/// The ACL rules `deploy/kubernetes/redis.yaml` gives the bookshop's user (the keys and
/// commands it may use), read from the `users.acl` line its comment writes.
fn acl_rules() -> &'static str {
    const REDIS_YAML: &str = include_str!("../../../../deploy/kubernetes/redis.yaml");
    let line = REDIS_YAML
        .lines()
        .find(|l| l.contains("user bookshop on >%s "))
        .expect("the users.acl line of deploy/kubernetes/redis.yaml");
    let rules = line.split_once(">%s ").expect("the password's place").1;
    rules.split_once("\\n").expect("the line's end").0
}

/// The test certificates of `tests/fixtures/redis-tls`, and the ACL user of a TLS fleet.
pub const TLS_CERTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/redis-tls"
);
pub const TLS_USER: (&str, &str) = ("bookshop", "s3cret/p@ss");

impl Backend {
    async fn start(state: State, dir: &std::path::Path) -> Option<Backend> {
        Some(match state {
            State::Redis => Backend::One(Node::start(dir).await),
            State::Cluster => Backend::Cluster(Cluster::start(dir).await),
            State::Sentinel => Backend::Sentinel(Sentinels::start(dir).await),
            State::Tls => {
                let port = free_port().port();
                let mut args = vec!["--tls-port".to_owned(), port.to_string()];
                for (flag, file) in [
                    ("--tls-cert-file", "server.pem"),
                    ("--tls-key-file", "server.key.pem"),
                    ("--tls-ca-cert-file", "ca.pem"),
                ] {
                    args.extend([flag.to_owned(), format!("{TLS_CERTS}/{file}")]);
                }
                args.extend(["--tls-auth-clients".to_owned(), "yes".to_owned()]);
                let node = Node::start_as(dir, "redis", crate::redis::Kind::Data(args)).await;
                let (user, password) = TLS_USER;
                let password = format!(">{password}");
                let mut acl = vec!["ACL", "SETUSER", user, "on", &password];
                acl.extend(acl_rules().split_whitespace());
                assert_eq!(node.run(&acl).await.as_deref(), Ok("+OK"));
                Backend::Tls(node, port)
            }
            State::Memory => return None,
        })
    }

    /// How an instance is told where it is: `--redis URL`, or the environment.
    pub fn given(&self) -> Given {
        let env = |pairs: &[(&str, String)]| Given {
            args: Vec::new(),
            env: pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
        };
        match self {
            Backend::One(node) => Given {
                args: vec!["--redis".into(), node.url()],
                env: Vec::new(),
            },
            Backend::Cluster(c) => env(&[("RONDO_REDIS_CLUSTER", c.list())]),
            Backend::Sentinel(s) => env(&[
                ("RONDO_REDIS_SENTINEL", s.list()),
                ("RONDO_REDIS_MASTER", crate::topology::PRIMARY.to_owned()),
            ]),
            Backend::Tls(_, port) => {
                let (user, _) = TLS_USER;
                let url = format!("rediss://{user}:s3cret%2Fp%40ss@127.0.0.1:{port}/0");
                let ca = format!("{TLS_CERTS}/ca.pem");
                Given {
                    args: vec!["--redis".into(), url, "--redis-ca".into(), ca],
                    env: vec![
                        (
                            "RONDO_REDIS_CLIENT_CERT".into(),
                            format!("{TLS_CERTS}/client.pem"),
                        ),
                        (
                            "RONDO_REDIS_CLIENT_KEY".into(),
                            format!("{TLS_CERTS}/client.key.pem"),
                        ),
                    ],
                }
            }
        }
    }

    /// The effect ledger's entries, over every node that holds some.
    pub fn ledger(&self) -> Ledger {
        match self {
            Backend::One(node) | Backend::Tls(node, _) => node.ledger(),
            Backend::Cluster(c) => c.ledger(),
            Backend::Sentinel(s) => s.ledger(),
        }
    }
}

/// Three instances behind nginx. Fields drop in order: nginx, the instances, Redis, then the
/// logs.
pub struct Fleet {
    pub nginx: Nginx,
    slots: Vec<Option<Instance>>,
    pub redis: Option<Backend>,
    generation: usize,
    /// When each restart or kill began.
    pub events: Vec<Instant>,
    dir: Scratch,
}

impl Fleet {
    pub async fn start(name: &str, keys: [&str; 3], state: State) -> Fleet {
        let dir = Scratch::new(name);
        let redis = Backend::start(state, &dir.0).await;
        let given = redis.as_ref().map(Backend::given);
        let addrs: Vec<SocketAddr> = (0..3).map(|_| free_port()).collect();
        let mut slots = Vec::new();
        for (addr, keys) in addrs.iter().zip(keys) {
            let instance = Instance::start(*addr, keys, given.as_ref(), &dir.0, 0).await;
            slots.push(Some(instance));
        }
        let nginx = Nginx::start(&dir.0, &addrs).await;
        Fleet {
            nginx,
            slots,
            redis,
            generation: 0,
            events: Vec::new(),
            dir,
        }
    }

    /// The shared ledger's entries (a fleet on Redis).
    pub fn ledger(&self) -> Ledger {
        self.redis.as_ref().expect("a fleet on Redis").ledger()
    }

    /// The one Redis of a fleet on one Redis.
    pub fn node(&mut self) -> &mut Node {
        match &mut self.redis {
            Some(Backend::One(node)) => node,
            _ => panic!("a fleet on one Redis"),
        }
    }

    /// The Redis Cluster of a fleet on one.
    pub fn cluster(&mut self) -> &mut Cluster {
        match &mut self.redis {
            Some(Backend::Cluster(c)) => c,
            _ => panic!("a fleet on a Redis Cluster"),
        }
    }

    /// The Sentinels and their nodes of a fleet on them.
    pub fn sentinels(&mut self) -> &mut Sentinels {
        match &mut self.redis {
            Some(Backend::Sentinel(s)) => s,
            _ => panic!("a fleet on Sentinel"),
        }
    }

    /// The instances running now, by slot.
    pub fn running(&self) -> Vec<(usize, &Instance)> {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.as_ref().map(|s| (i, s)))
            .collect()
    }

    /// How many orders each running instance placed (`list_orders` sent to it directly), by
    /// address.
    pub async fn orders(&self, tag: &str) -> HashMap<String, usize> {
        let mut out = HashMap::new();
        for (slot, instance) in self.running() {
            let n = client::orders(instance.addr, &format!("{tag}-orders-{slot}")).await;
            out.insert(instance.addr.to_string(), n);
        }
        out
    }

    pub fn front(&self) -> SocketAddr {
        self.nginx.modern
    }

    pub fn addr(&self, slot: usize) -> SocketAddr {
        self.slots[slot].as_ref().expect("running").addr
    }

    /// One step of a rolling restart: SIGTERM (the instance drains and exits), a new process on
    /// the same port with `keys`, then a moment of traffic before the next step.
    pub async fn restart(&mut self, slot: usize, keys: &str) {
        let old = self.slots[slot].take().expect("running");
        let addr = old.addr;
        self.events.push(Instant::now());
        old.terminate().await;
        self.generation += 1;
        let given = self.redis.as_ref().map(Backend::given);
        let new = Instance::start(addr, keys, given.as_ref(), &self.dir.0, self.generation).await;
        self.slots[slot] = Some(new);
        tokio::time::sleep(Duration::from_millis(500)).await;
    }

    pub async fn kill(&mut self, slot: usize) {
        let instance = self.slots[slot].take().expect("running");
        self.events.push(Instant::now());
        instance.kill().await;
    }

    /// Who answered each round of `flows`, from nginx's access log.
    pub async fn served(&self, flows: &[Flow]) -> Served {
        let ids: Vec<&str> = flows
            .iter()
            .flat_map(|f| &f.rounds)
            .flat_map(|r| r.attempts.iter().map(String::as_str))
            .collect();
        Served(log::entries(&self.nginx.access_log, &ids).await)
    }
}

pub struct Served(pub HashMap<String, log::Entry>);

impl Served {
    /// The instance that answered round `r` of `flow` (its last attempt).
    pub fn by(&self, flow: &Flow, r: usize) -> Option<&str> {
        let id = flow.rounds.get(r)?.attempts.last()?;
        self.0.get(id).and_then(log::Entry::served_by)
    }

    /// Whether the flow's two rounds were answered by different instances.
    pub fn crossed(&self, flow: &Flow) -> bool {
        match (self.by(flow, 0), self.by(flow, 1)) {
            (Some(a), Some(b)) => a != b,
            _ => false,
        }
    }
}

/// Flows `range` run `LANES` at a time, the user answering at once.
pub async fn batch(front: SocketAddr, tag: &str, range: std::ops::Range<usize>) -> Vec<Flow> {
    let next = Arc::new(AtomicUsize::new(range.start));
    let mut lanes = tokio::task::JoinSet::new();
    for _ in 0..LANES {
        let (next, tag) = (next.clone(), tag.to_owned());
        let end = range.end;
        lanes.spawn(async move {
            let mut done = Vec::new();
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= end {
                    return done;
                }
                done.push(order_flow(front, &tag, n, Duration::ZERO).await);
            }
        });
    }
    let mut flows = Vec::new();
    while let Some(lane) = lanes.join_next().await {
        flows.extend(lane.expect("lane"));
    }
    flows.sort_by_key(|f| f.n);
    flows
}

/// Flows in batches until `CROSSED` of them had their rounds on different instances.
pub async fn until_crossed(fleet: &Fleet, tag: &str) -> (Vec<Flow>, Served) {
    let mut flows = Vec::new();
    for b in 0..6 {
        flows.extend(batch(fleet.front(), tag, b * 150..(b + 1) * 150).await);
        let served = fleet.served(&flows).await;
        if flows.iter().filter(|f| served.crossed(f)).count() >= CROSSED {
            return (flows, served);
        }
    }
    let served = fleet.served(&flows).await;
    (flows, served)
}

/// Every logged request was answered by the first instance nginx tried, with 200.
pub fn clean_log(served: &Served) {
    for (id, e) in &served.0 {
        assert!(
            e.status == 200 && e.tried.len() == 1,
            "{id}: nginx logged {e:?}"
        );
    }
}

pub async fn within<F: Future>(f: F) -> F::Output {
    tokio::time::timeout(BUDGET, f)
        .await
        .unwrap_or_else(|_| panic!("the fleet test took over {BUDGET:?}"))
}
