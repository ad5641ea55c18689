//! The fleet the tests drive: three instances behind nginx, its access log read per flow,
//! flows in batches or as background load.

use crate::client::{Flow, order_flow};
use crate::log;
use crate::procs::{Instance, Nginx, Scratch, free_port};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Cross-instance flows each of the first two tests must see.
pub const CROSSED: usize = 200;
/// Flows run at once.
pub const LANES: usize = 12;
/// A whole test's bound.
pub const BUDGET: Duration = Duration::from_secs(120);

/// Three instances behind nginx. Fields drop in order: nginx, the instances, then the logs.
pub struct Fleet {
    pub nginx: Nginx,
    slots: Vec<Option<Instance>>,
    generation: usize,
    /// When each restart or kill began.
    pub events: Vec<Instant>,
    dir: Scratch,
}

impl Fleet {
    pub async fn start(name: &str, keys: [&str; 3]) -> Fleet {
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
        let new = Instance::start(addr, keys, &self.dir.0, self.generation).await;
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

/// Flows running in the background, each lane one flow after another, the user taking up to
/// `think` to confirm, until stopped.
pub struct Load {
    stop: Arc<AtomicBool>,
    /// When each lane's current flow started (`None` between flows).
    current: Arc<Mutex<Vec<Option<Instant>>>>,
    /// Flows finished so far.
    finished: Arc<AtomicUsize>,
    lanes: tokio::task::JoinSet<Vec<Flow>>,
}

impl Load {
    pub fn start(front: SocketAddr, tag: &str, lanes: usize, think: Duration) -> Load {
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
    pub async fn run_for(&self, more: usize) {
        let target = self.finished.load(Ordering::Relaxed) + more;
        let end = Instant::now() + Duration::from_secs(30);
        while self.finished.load(Ordering::Relaxed) < target {
            assert!(Instant::now() < end, "{more} flows did not finish in 30 s");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits until no flow that started before `t` is still running.
    pub async fn settle(&self, t: Instant) {
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

    pub async fn finish(mut self) -> Vec<Flow> {
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
pub fn spanning(flows: &[Flow], events: &[Instant]) -> usize {
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
