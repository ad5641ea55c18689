//! Flows as background load on a fleet (`Load`), flows in lanes, and a fleet whose instance 0 was
//! SIGKILLed under load (`Killed`).

use crate::client::{End, Flow, order_flow};
use crate::harness::{Fleet, LANES, Served, State};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Flows running in the background, each lane one flow after another, the user taking up to
/// `think` to confirm, until stopped.
pub struct Load {
    stop: Arc<AtomicBool>,
    /// When each lane's current flow started (`None` between flows).
    current: Arc<Mutex<Vec<Option<Instant>>>>,
    /// Flows finished so far.
    finished: Arc<AtomicUsize>,
    /// How each finished flow ended, in the order they finished.
    ends: Arc<Mutex<Vec<End>>>,
    lanes: tokio::task::JoinSet<Vec<Flow>>,
}

impl Load {
    pub fn start(front: SocketAddr, tag: &str, lanes: usize, think: Duration) -> Load {
        let stop = Arc::new(AtomicBool::new(false));
        let current = Arc::new(Mutex::new(vec![None; lanes]));
        let next = Arc::new(AtomicUsize::new(0));
        let finished = Arc::new(AtomicUsize::new(0));
        let ends = Arc::new(Mutex::new(Vec::new()));
        let mut set = tokio::task::JoinSet::new();
        for lane in 0..lanes {
            let (stop, current, next, tag) =
                (stop.clone(), current.clone(), next.clone(), tag.to_owned());
            let (finished, ends) = (finished.clone(), ends.clone());
            set.spawn(async move {
                let mut done = Vec::new();
                // Bounded: a lane that never sees the stop flag still ends.
                while !stop.load(Ordering::Relaxed) && done.len() < 2000 {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    current.lock().unwrap()[lane] = Some(Instant::now());
                    let pause = think.mul_f64(((n * 7919) % 1000) as f64 / 1000.0);
                    let flow = order_flow(front, &tag, n, pause).await;
                    ends.lock().unwrap().push(flow.end.clone());
                    done.push(flow);
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
            ends,
            lanes: set,
        }
    }

    /// Waits (at most `bound`) until `more` flows have ended as `like` says, from now on.
    pub async fn until_ended(&self, more: usize, like: fn(&End) -> bool, bound: Duration) {
        let count = || self.ends.lock().unwrap().iter().filter(|e| like(e)).count();
        let target = count() + more;
        let end = Instant::now() + bound;
        while count() < target {
            assert!(
                Instant::now() < end,
                "{more} flows did not end as expected in {bound:?}; ended so far: {:?}",
                self.ends.lock().unwrap()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
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

/// `f` on every item, `LANES` at a time; the outputs in the items' order.
pub async fn in_lanes<T, R, F, Fut>(items: Vec<T>, f: F) -> Vec<R>
where
    T: Send + 'static,
    R: Send + 'static,
    F: Fn(T) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = R> + Send,
{
    let queue = Arc::new(Mutex::new(
        items.into_iter().enumerate().collect::<Vec<_>>(),
    ));
    let f = Arc::new(f);
    let mut lanes = tokio::task::JoinSet::new();
    for _ in 0..LANES {
        let (queue, f) = (queue.clone(), f.clone());
        lanes.spawn(async move {
            let mut done = Vec::new();
            loop {
                let Some((i, item)) = queue.lock().unwrap().pop() else {
                    return done;
                };
                done.push((i, f(item).await));
            }
        });
    }
    let mut out = Vec::new();
    while let Some(lane) = lanes.join_next().await {
        out.extend(lane.expect("lane"));
    }
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

/// A fleet whose instance 0 was SIGKILLed under load (48 lanes, the user taking up to 0.9 s):
/// 60 flows finished before, 100 after.
pub struct Killed {
    pub fleet: Fleet,
    pub flows: Vec<Flow>,
    pub served: Served,
    /// The victim's address.
    pub victim: String,
    pub killed: Instant,
}

impl Killed {
    pub async fn run(tag: &str, state: State) -> Killed {
        let keys = rondo_mcp::state::KeyRing::generate_spec(1);
        let mut fleet = Fleet::start(tag, [&keys, &keys, &keys], state).await;
        let victim = fleet.addr(0).to_string();
        let load = Load::start(fleet.front(), tag, 4 * LANES, Duration::from_millis(900));
        load.run_for(60).await;
        fleet.kill(0).await;
        let killed = fleet.events[0];
        load.run_for(100).await;
        let flows = load.finish().await;
        let served = fleet.served(&flows).await;
        let out = Killed {
            fleet,
            flows,
            served,
            victim,
            killed,
        };
        let after: Vec<&Flow> = out
            .flows
            .iter()
            .filter(|f| f.rounds[0].started > killed + Duration::from_millis(100))
            .collect();
        assert!(
            after
                .iter()
                .all(|f| (0..2).all(|r| out.served.by(f, r) != Some(out.victim.as_str()))),
            "a dead instance answered"
        );
        out
    }

    /// Flows the victim asked and another instance finished after it died (at least one).
    pub fn rescued(&self) -> usize {
        let victim = Some(self.victim.as_str());
        let rescued = self
            .flows
            .iter()
            .filter(|f| {
                self.served.by(f, 0) == victim
                    && self.served.by(f, 1).is_some_and(|b| Some(b) != victim)
                    && f.rounds[1].started > self.killed
            })
            .count();
        assert!(rescued > 0, "no flow of the victim was finished elsewhere");
        rescued
    }
}
