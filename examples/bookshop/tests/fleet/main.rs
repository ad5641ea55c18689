//! A fleet of three bookshops behind nginx (the Debian package, configured from the committed
//! `deploy/nginx/rondo.conf`), driven at 2026-07-28 with the two-round order flow: the
//! confirmation is asked by one instance and the retry answered by whichever instance nginx
//! picks next. Shown: with a shared `RONDO_STATE_KEYS` every retry completes, wherever it
//! lands; with a key per instance every cross-instance retry gets the frozen `-32602` and
//! nothing else goes wrong; a key rotation in three phases across rolling restarts (SIGTERM,
//! graceful drain) loses no flow; a SIGKILLed instance loses no flow either (nginx sends the
//! next round elsewhere, and the client retries a round the dead instance never answered); and
//! a 2025-11-25 session is served through the config's address-hash port (and lost through
//! the round-robin one: the reason that port exists).
//!
//! Needs nginx, so the tests are ignored by a plain `cargo test`; `scripts/test-all.sh`
//! installs nginx and runs them:
//! `cargo test -p rondo-example-bookshop --test fleet -- --ignored --test-threads 1`.
//! All traffic is on 127.0.0.1; every wait is bounded.

mod client;
mod log;
mod procs;

use client::{End, Flow, order_flow};
use procs::{Instance, Nginx, Scratch, free_port};
use rondo_mcp::state::KeyRing;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Cross-instance flows each of the first two tests must see.
const CROSSED: usize = 200;
/// Flows run at once.
const LANES: usize = 12;
/// A whole test's bound.
const BUDGET: Duration = Duration::from_secs(120);

/// Three instances behind nginx. Fields drop in order: nginx, the instances, then the logs.
struct Fleet {
    nginx: Nginx,
    slots: Vec<Option<Instance>>,
    generation: usize,
    /// When each restart or kill began.
    events: Vec<Instant>,
    dir: Scratch,
}

impl Fleet {
    async fn start(name: &str, keys: [&str; 3]) -> Fleet {
        let dir = Scratch::new(name);
        let addrs: Vec<SocketAddr> = (0..3).map(|_| free_port()).collect();
        let mut slots = Vec::new();
        for (addr, keys) in addrs.iter().zip(keys) {
            slots.push(Some(Instance::start(*addr, keys, &dir.0, 0).await));
        }
        let nginx = Nginx::start(&dir.0, &addrs).await;
        Fleet {
            nginx,
            slots,
            generation: 0,
            events: Vec::new(),
            dir,
        }
    }

    fn front(&self) -> SocketAddr {
        self.nginx.modern
    }

    fn addr(&self, slot: usize) -> SocketAddr {
        self.slots[slot].as_ref().expect("running").addr
    }

    /// One step of a rolling restart: SIGTERM (the instance drains and exits), a new process on
    /// the same port with `keys`, then a moment of traffic before the next step.
    async fn restart(&mut self, slot: usize, keys: &str) {
        let old = self.slots[slot].take().expect("running");
        let addr = old.addr;
        self.events.push(Instant::now());
        old.terminate().await;
        self.generation += 1;
        let new = Instance::start(addr, keys, &self.dir.0, self.generation).await;
        self.slots[slot] = Some(new);
        tokio::time::sleep(Duration::from_millis(500)).await;
    }

    async fn kill(&mut self, slot: usize) {
        let instance = self.slots[slot].take().expect("running");
        self.events.push(Instant::now());
        instance.kill().await;
    }

    /// Who answered each round of `flows`, from nginx's access log.
    async fn served(&self, flows: &[Flow]) -> Served {
        let ids: Vec<&str> = flows
            .iter()
            .flat_map(|f| &f.rounds)
            .flat_map(|r| r.attempts.iter().map(String::as_str))
            .collect();
        Served(log::entries(&self.nginx.access_log, &ids).await)
    }
}

struct Served(HashMap<String, log::Entry>);

impl Served {
    /// The instance that answered round `r` of `flow` (its last attempt).
    fn by(&self, flow: &Flow, r: usize) -> Option<&str> {
        let id = flow.rounds.get(r)?.attempts.last()?;
        self.0.get(id).and_then(log::Entry::served_by)
    }

    /// Whether the flow's two rounds were answered by different instances.
    fn crossed(&self, flow: &Flow) -> bool {
        match (self.by(flow, 0), self.by(flow, 1)) {
            (Some(a), Some(b)) => a != b,
            _ => false,
        }
    }
}

/// Flows `range` run `LANES` at a time, the user answering at once.
async fn batch(front: SocketAddr, tag: &str, range: std::ops::Range<usize>) -> Vec<Flow> {
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
async fn until_crossed(fleet: &Fleet, tag: &str) -> (Vec<Flow>, Served) {
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
fn clean_log(served: &Served) {
    for (id, e) in &served.0 {
        assert!(
            e.status == 200 && e.tried.len() == 1,
            "{id}: nginx logged {e:?}"
        );
    }
}

async fn within<F: Future>(f: F) -> F::Output {
    tokio::time::timeout(BUDGET, f)
        .await
        .unwrap_or_else(|_| panic!("the fleet test took over {BUDGET:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs nginx"]
async fn shared_keys_any_instance_completes_any_retry() {
    within(async {
        let keys = KeyRing::generate_spec(1);
        let fleet = Fleet::start("shared", [&keys, &keys, &keys]).await;
        let started = Instant::now();
        let (flows, served) = until_crossed(&fleet, "shared").await;
        let crossed = flows.iter().filter(|f| served.crossed(f)).count();
        for f in &flows {
            assert_eq!(f.end, End::Ordered, "flow {}: {f:?}", f.n);
            assert_eq!(f.retries(), 0, "flow {}: {f:?}", f.n);
        }
        clean_log(&served);
        let instances: std::collections::HashSet<_> =
            flows.iter().filter_map(|f| served.by(f, 1)).collect();
        assert_eq!(instances.len(), 3, "every instance served retries");
        assert!(crossed >= CROSSED, "only {crossed} flows crossed instances");
        eprintln!(
            "shared keys: {} flows in {:?}, {crossed} with the retry on another instance, all ordered",
            flows.len(),
            started.elapsed()
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs nginx"]
async fn own_keys_refuse_every_cross_instance_retry_and_nothing_else() {
    within(async {
        let keys = [1, 2, 3].map(KeyRing::generate_spec);
        let fleet = Fleet::start("own", [&keys[0], &keys[1], &keys[2]]).await;
        let (flows, served) = until_crossed(&fleet, "own").await;
        let (mut refused, mut same) = (0, 0);
        for f in &flows {
            if served.crossed(f) {
                assert_eq!(f.end, End::Refused, "flow {} crossed: {f:?}", f.n);
                refused += 1;
            } else {
                // The control: the same instance opens its own state.
                assert_eq!(f.end, End::Ordered, "flow {} stayed: {f:?}", f.n);
                same += 1;
            }
            assert_eq!(f.retries(), 0, "flow {}: {f:?}", f.n);
        }
        clean_log(&served);
        assert!(refused >= CROSSED, "only {refused} flows crossed instances");
        assert!(same > 0, "no flow stayed on its instance: no control");
        eprintln!(
            "own keys: {refused} cross-instance retries refused with -32602, {same} on the same instance ordered"
        );
    })
    .await;
}

/// Flows running in the background, each lane one flow after another, the user taking up to
/// `think` to confirm, until stopped.
struct Load {
    stop: Arc<AtomicBool>,
    /// When each lane's current flow started (`None` between flows).
    current: Arc<Mutex<Vec<Option<Instant>>>>,
    /// Flows finished so far.
    finished: Arc<AtomicUsize>,
    lanes: tokio::task::JoinSet<Vec<Flow>>,
}

impl Load {
    fn start(front: SocketAddr, tag: &str, lanes: usize, think: Duration) -> Load {
        let stop = Arc::new(AtomicBool::new(false));
        let current = Arc::new(Mutex::new(vec![None; lanes]));
        let next = Arc::new(AtomicUsize::new(0));
        let finished = Arc::new(AtomicUsize::new(0));
        let mut set = tokio::task::JoinSet::new();
        for lane in 0..lanes {
            let (stop, current, next, tag) =
                (stop.clone(), current.clone(), next.clone(), tag.to_owned());
            let finished = finished.clone();
            set.spawn(async move {
                let mut done = Vec::new();
                // Bounded: a lane that never sees the stop flag still ends.
                while !stop.load(Ordering::Relaxed) && done.len() < 2000 {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    current.lock().unwrap()[lane] = Some(Instant::now());
                    let pause = think.mul_f64(((n * 7919) % 1000) as f64 / 1000.0);
                    done.push(order_flow(front, &tag, n, pause).await);
                    current.lock().unwrap()[lane] = None;
                    finished.fetch_add(1, Ordering::Relaxed);
                }
                done
            });
        }
        Load {
            stop,
            current,
            finished,
            lanes: set,
        }
    }

    /// Waits until `more` flows have finished from now on.
    async fn run_for(&self, more: usize) {
        let target = self.finished.load(Ordering::Relaxed) + more;
        let end = Instant::now() + Duration::from_secs(30);
        while self.finished.load(Ordering::Relaxed) < target {
            assert!(Instant::now() < end, "{more} flows did not finish in 30 s");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits until no flow that started before `t` is still running.
    async fn settle(&self, t: Instant) {
        let end = Instant::now() + Duration::from_secs(20);
        while self
            .current
            .lock()
            .unwrap()
            .iter()
            .flatten()
            .any(|s| *s < t)
        {
            assert!(
                Instant::now() < end,
                "flows begun before the cut still running"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    async fn finish(mut self) -> Vec<Flow> {
        self.stop.store(true, Ordering::Relaxed);
        let mut flows = Vec::new();
        while let Some(lane) = self.lanes.join_next().await {
            flows.extend(lane.expect("lane"));
        }
        flows.sort_by_key(|f| f.n);
        flows
    }
}

/// Flows whose confirmation was pending while an instance restarted or died.
fn spanning(flows: &[Flow], events: &[Instant]) -> usize {
    flows
        .iter()
        .filter(|f| {
            let (Some(a), Some(b)) = (f.rounds.first(), f.rounds.get(1)) else {
                return false;
            };
            events.iter().any(|e| a.finished < *e && *e < b.started)
        })
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs nginx"]
async fn key_rotation_in_three_phases_across_rolling_restarts_loses_no_flow() {
    within(async {
        let (old, new) = (KeyRing::generate_spec(1), KeyRing::generate_spec(2));
        let mut fleet = Fleet::start("rotation", [&old, &old, &old]).await;
        let front = fleet.front();
        // Two confirmations left pending under the old key, answered later.
        let Ok(kept_open) = client::first_round(front, "kept", 10_000).await else {
            panic!("first round");
        };
        let Ok(kept_late) = client::first_round(front, "kept", 10_001).await else {
            panic!("first round");
        };
        let load = Load::start(front, "rotation", 8, Duration::from_millis(450));
        load.run_for(20).await;

        // Phase 1: every instance learns the new key; the old one still seals.
        for slot in 0..3 {
            fleet.restart(slot, &format!("{old},{new}")).await;
        }
        let phase2 = Instant::now();
        // Phase 2: the new key seals; the old one still opens.
        for slot in 0..3 {
            fleet.restart(slot, &format!("{new},{old}")).await;
        }
        let sealing_new = Instant::now();
        let kept_open = kept_open.confirm(front, "kept").await;
        assert_eq!(
            kept_open.end,
            End::Ordered,
            "old-key state before retirement"
        );
        // Phase 3 waits out the state lifetime: nothing sealed with the old key is still in use
        // (in production, Server::state_ttl after phase 2; here, every flow begun before it ended).
        load.settle(sealing_new).await;
        for slot in 0..3 {
            fleet.restart(slot, &new).await;
        }
        load.run_for(20).await;
        let flows = load.finish().await;
        // Retired means retired: old-key state is refused everywhere now.
        let kept_late = kept_late.confirm(front, "kept").await;
        assert_eq!(
            kept_late.end,
            End::Refused,
            "old-key state after retirement"
        );

        for f in &flows {
            assert_eq!(f.end, End::Ordered, "flow {}: {f:?}", f.n);
        }
        let first = |f: &&Flow| f.rounds[0].clone();
        let sealed_old = flows.iter().filter(|f| first(f).finished < phase2);
        assert!(
            sealed_old.clone().all(|f| f.key_id == Some(1)),
            "old key sealed"
        );
        let sealed_new = flows.iter().filter(|f| first(f).started > sealing_new);
        assert!(
            sealed_new.clone().all(|f| f.key_id == Some(2)),
            "new key sealed"
        );
        let (o, n) = (sealed_old.count(), sealed_new.count());
        assert!(
            o > 0 && n > 0,
            "{o} flows under the old key, {n} under the new"
        );
        let spanned = spanning(&flows, &fleet.events);
        assert!(
            spanned >= 9,
            "only {spanned} flows were pending across a restart"
        );
        let retries: usize = flows.iter().map(Flow::retries).sum();
        let served = fleet.served(&flows).await;
        let crossed = flows.iter().filter(|f| served.crossed(f)).count();
        eprintln!(
            "rotation: {} flows over 9 restarts, all ordered; {spanned} pending across a restart, \
             {crossed} retried on another instance, {o} sealed with the old key, {n} with the new; \
             {retries} rounds resent by the client after a 502",
            flows.len()
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs nginx"]
async fn a_killed_instance_loses_no_flow() {
    within(async {
        let keys = KeyRing::generate_spec(1);
        let mut fleet = Fleet::start("kill", [&keys, &keys, &keys]).await;
        let victim = fleet.addr(0).to_string();
        let load = Load::start(fleet.front(), "kill", 4 * LANES, Duration::from_millis(900));
        load.run_for(60).await;
        fleet.kill(0).await;
        let killed = fleet.events[0];
        load.run_for(100).await;
        let flows = load.finish().await;
        for f in &flows {
            assert_eq!(f.end, End::Ordered, "flow {}: {f:?}", f.n);
        }
        let served = fleet.served(&flows).await;
        // Flows the victim asked and another instance finished after it died.
        let rescued = flows
            .iter()
            .filter(|f| {
                served.by(f, 0) == Some(victim.as_str())
                    && served.by(f, 1).is_some_and(|b| b != victim)
                    && f.rounds[1].started > killed
            })
            .count();
        assert!(rescued > 0, "no flow of the victim was finished elsewhere");
        let after: Vec<&Flow> = flows
            .iter()
            .filter(|f| f.rounds[0].started > killed + Duration::from_millis(100))
            .collect();
        assert!(
            after
                .iter()
                .all(|f| (0..2).all(|r| served.by(f, r) != Some(victim.as_str()))),
            "a dead instance answered"
        );
        let retries: usize = flows.iter().map(Flow::retries).sum();
        eprintln!(
            "kill: {} flows, all ordered; {rescued} asked by the killed instance and finished by another; \
             {retries} rounds resent by the client after a 502 (in flight when it died)",
            flows.len()
        );
    })
    .await;
}

/// A 2025-11-25 session: `initialize` through `front`, then `calls` searches naming the
/// session; the statuses of the notification and the searches (202 counted as 200), and the
/// request ids used.
async fn session_searches(front: SocketAddr, tag: &str, calls: usize) -> (Vec<u16>, Vec<String>) {
    let init = serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "fleet-test", "version": "1.0.0"},
    }});
    let mut ids = vec![format!("{tag}-init")];
    let (status, session, msg) = client::post_with(front, &ids[0], &[], &init)
        .await
        .expect("initialize");
    assert_eq!(
        (status, &msg["result"]["protocolVersion"]),
        (200, &"2025-11-25".into())
    );
    let session = session.expect("Mcp-Session-Id");
    let legacy = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let note = serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    ids.push(format!("{tag}-note"));
    let (status, _, _) = client::post_with(front, &ids[1], &legacy, &note)
        .await
        .expect("note");
    // Accepted (202) by the session's instance, unknown (404) to the others.
    let mut statuses = vec![if status == 202 { 200 } else { status }];
    for i in 0..calls {
        let call = serde_json::json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
            "params": {"name": "search_books", "arguments": {"query": "rust"}}});
        let id = format!("{tag}-{i}");
        let (status, _, msg) = client::post_with(front, &id, &legacy, &call)
            .await
            .expect("call");
        if status == 200 {
            // 2025-11-25 drops a non-object structuredContent; the listing is in the text.
            let text = msg["result"]["content"][0]["text"].as_str().unwrap_or("");
            assert!(text.contains("\"The Rust Programming Language\""), "{msg}");
        }
        statuses.push(status);
        ids.push(id);
    }
    (statuses, ids)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs nginx"]
async fn legacy_sessions_need_the_affinity_port() {
    within(async {
        let keys = KeyRing::generate_spec(1);
        let fleet = Fleet::start("sessions", [&keys, &keys, &keys]).await;
        // Through the address-hash port every request of the session reaches its instance.
        let (statuses, ids) = session_searches(fleet.nginx.sessions, "pinned", 11).await;
        assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        let log = log::entries(&fleet.nginx.access_log, &ids).await;
        let served: std::collections::HashSet<_> =
            ids.iter().filter_map(|id| log[*id].served_by()).collect();
        assert_eq!(served.len(), 1, "one session, one instance: {served:?}");
        // Through the round-robin port the other instances do not know the session: 404.
        let (statuses, _) = session_searches(fleet.front(), "spread", 11).await;
        let lost = statuses.iter().filter(|s| **s == 404).count();
        assert!(lost > 0 && lost + statuses.iter().filter(|s| **s == 200).count() == 12);
        eprintln!("sessions: 12 of 12 calls served through the affinity port, {lost} of 12 lost (404) through round-robin");
    })
    .await;
}

#[test]
fn the_committed_nginx_config_takes_the_fleet_ports() {
    let a: Vec<SocketAddr> = ["127.0.0.1:4001", "127.0.0.1:4002", "127.0.0.1:4003"]
        .iter()
        .map(|a| a.parse().unwrap())
        .collect();
    let conf = procs::nginx_conf(
        &a,
        "127.0.0.1:5000".parse().unwrap(),
        "127.0.0.1:5001".parse().unwrap(),
    );
    assert_eq!(conf.matches("server 127.0.0.1:4002 ").count(), 2);
    assert!(conf.contains("listen 127.0.0.1:5000;") && conf.contains("listen 127.0.0.1:5001;"));
    assert!(!conf.contains(":3001") && !conf.contains(":8080"));
}
