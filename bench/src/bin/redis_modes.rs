//! What each way of running the fleet's Redis costs a round (issue 46):
//!
//! ```text
//! redis_modes [--runs 5] [--rounds 2000] [--clients 1,32]
//! ```
//!
//! Starts, on 127.0.0.1 and keeping nothing on disk (so that the table shows the way Redis is
//! reached, not the disk): one Redis serving TCP and TLS (the test certificates of
//! `tests/fixtures/redis-tls`), a primary with one replica and one Sentinel, and a Redis
//! Cluster of three primaries (`redis-cli --cluster create`). Each is opened as a fleet
//! instance opens it (`Redis::open` with a `RedisConfig`): one Redis over TCP, the same over
//! TLS, the primary found through the Sentinel (without and with `WAIT` for the replica), the
//! cluster. Then, per mode and number of concurrent clients, ROUNDS rounds in all:
//!
//! - a guarded round: the replay guard takes a new round (`SET .. NX GET PXAT`, one command),
//!   what every round carrying a `requestState` costs;
//! - a round with an effect: the same, then `Cx::once`'s claim and record (two scripts).
//!
//! RUNS repetitions, the modes interleaved within each. Output: Markdown tables, per mode, of
//! the median time of one round at one client (µs) and of rounds per second at the others,
//! median [min–max] of the runs. Needs Debian's redis-server and redis-tools.

use rondo_bench::stats::Spread;
use rondo_mcp::shared::{Redis, RedisConfig};
use rondo_mcp::state::{Claim, Ledger, ReplayGuard, RoundUse};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

const USAGE: &str = "usage: redis_modes [--runs N] [--rounds N] [--clients 1,32]";

/// The test certificates.
const CERTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/redis-tls");

/// A child process, killed when dropped.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("its address").port()
}

/// `redis-server` in `dir/name` on `port`, nothing on disk, with `args` (a Sentinel's:
/// `[conf, "--sentinel"]`); once it listens.
fn redis(dir: &Path, name: &str, port: u16, args: &[&str]) -> Proc {
    let dir = dir.join(name);
    std::fs::create_dir_all(&dir).expect("a directory");
    let sentinel = args.contains(&"--sentinel");
    let data: &[&str] = if sentinel {
        &[]
    } else {
        &["--appendonly", "no", "--save", ""]
    };
    let child = Command::new("redis-server")
        .args(args)
        .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
        .args(data)
        .args(["--loglevel", "warning"])
        .arg("--dir")
        .arg(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .expect("start redis-server (apt-get install redis-server)");
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let end = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect(addr).is_err() {
        assert!(
            Instant::now() < end,
            "redis-server on {port} did not listen"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    Proc(child)
}

/// `redis-cli` with `args`, which must succeed; its output.
fn cli(args: &[&str]) -> String {
    let out = Command::new("redis-cli")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run redis-cli (apt-get install redis-tools)");
    assert!(out.status.success(), "redis-cli {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Waits (10 s at most) until `ready`.
fn until(what: &str, ready: impl Fn() -> bool) {
    let end = Instant::now() + Duration::from_secs(10);
    while !ready() {
        assert!(Instant::now() < end, "{what} not within 10 s");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The processes of every mode, and how to open each.
fn start(dir: &Path) -> (Vec<Proc>, Vec<(&'static str, RedisConfig)>) {
    let mut procs = Vec::new();
    let (tcp, tls) = (free_port(), free_port());
    let certs = Path::new(CERTS);
    let file = |f: &str| certs.join(f).to_string_lossy().into_owned();
    let (cert, key, ca) = (file("server.pem"), file("server.key.pem"), file("ca.pem"));
    procs.push(redis(
        dir,
        "one",
        tcp,
        &[
            "--tls-port",
            &tls.to_string(),
            "--tls-cert-file",
            &cert,
            "--tls-key-file",
            &key,
            "--tls-ca-cert-file",
            &ca,
            "--tls-auth-clients",
            "no",
        ],
    ));
    let (primary, replica, sentinel) = (free_port(), free_port(), free_port());
    procs.push(redis(dir, "primary", primary, &[]));
    let of = primary.to_string();
    procs.push(redis(
        dir,
        "replica",
        replica,
        &["--replicaof", "127.0.0.1", &of],
    ));
    let conf = dir.join("sentinel.conf");
    std::fs::write(
        &conf,
        format!("sentinel monitor bench 127.0.0.1 {primary} 1\n"),
    )
    .expect("sentinel.conf");
    let conf = conf.to_string_lossy().into_owned();
    procs.push(redis(dir, "sentinel", sentinel, &[&conf, "--sentinel"]));
    until("the replica in sync", || {
        cli(&["-p", &replica.to_string(), "INFO", "replication"]).contains("master_link_status:up")
    });
    let nodes: Vec<u16> = (0..3).map(|_| free_port()).collect();
    for (i, port) in nodes.iter().enumerate() {
        let args = [
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            "nodes.conf",
        ];
        procs.push(redis(dir, &format!("cluster-{i}"), *port, &args));
    }
    let addrs: Vec<String> = nodes.iter().map(|p| format!("127.0.0.1:{p}")).collect();
    let mut create = vec!["--cluster", "create"];
    create.extend(addrs.iter().map(String::as_str));
    create.extend(["--cluster-replicas", "0", "--cluster-yes"]);
    cli(&create);
    for p in &nodes {
        until("the cluster serving every slot", || {
            cli(&["-p", &p.to_string(), "CLUSTER", "INFO"]).contains("cluster_state:ok")
        });
    }
    let sentinels = [format!("127.0.0.1:{sentinel}")];
    let modes = vec![
        (
            "one Redis, TCP",
            RedisConfig::url(format!("redis://127.0.0.1:{tcp}/0")),
        ),
        (
            "one Redis, TLS",
            RedisConfig::url(format!("rediss://127.0.0.1:{tls}/0")).ca_file(ca),
        ),
        (
            "Sentinel",
            RedisConfig::sentinel(sentinels.clone(), "bench"),
        ),
        (
            "Sentinel, WAIT 1",
            RedisConfig::sentinel(sentinels, "bench").wait_for_replicas(1),
        ),
        ("Cluster", RedisConfig::cluster(addrs)),
    ];
    (procs, modes)
}

/// `rounds` rounds from `clients` tasks at once, each with an effect or not: the median
/// time of one round (µs) and rounds per second.
async fn drive(redis: &Redis, clients: usize, rounds: usize, effect: bool) -> (f64, f64) {
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for c in 0..clients {
        let (guard, ledger) = (redis.replay_guard(), redis.ledger());
        tasks.spawn(async move {
            let mut times = Vec::new();
            for r in 0..rounds / clients {
                let flow = format!("{}-{c}-{r}", rondo_flow());
                let now = SystemTime::now();
                let later = now + Duration::from_secs(60);
                let t = Instant::now();
                let taken = guard.take(&format!("{flow}.1"), "f", later, now).await;
                assert_eq!(taken.expect("the guard"), RoundUse::First);
                if effect {
                    let key = format!("{flow}/pay");
                    let claim = ledger.claim(&key, "me", later, now).await;
                    assert_eq!(claim.expect("the ledger"), Claim::First);
                    ledger
                        .record(&key, "me", "\"paid\"")
                        .await
                        .expect("recorded");
                }
                times.push(t.elapsed().as_secs_f64() * 1e6);
            }
            times
        });
    }
    let mut times = Vec::new();
    while let Some(t) = tasks.join_next().await {
        times.extend(t.expect("a client"));
    }
    let per_second = times.len() as f64 / started.elapsed().as_secs_f64();
    (Spread::of(&times).median, per_second)
}

/// The load average, as `/proc/loadavg` says it (1, 5, 15 minutes).
fn load() -> String {
    let avg = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    avg.split(' ').take(3).collect::<Vec<_>>().join(" ")
}

/// A flow id no other run uses.
fn rondo_flow() -> String {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!("{nanos:x}")
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let (mut runs, mut rounds, mut clients) = (5usize, 2000usize, vec![1usize, 32]);
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{USAGE}"));
        match flag.as_str() {
            "--runs" => runs = value.parse().expect(USAGE),
            "--rounds" => rounds = value.parse().expect(USAGE),
            "--clients" => clients = value.split(',').map(|c| c.parse().expect(USAGE)).collect(),
            _ => panic!("{USAGE}"),
        }
    }
    let dir: PathBuf = std::env::temp_dir().join(format!("redis-modes-{}", std::process::id()));
    let (procs, modes) = start(&dir);
    let mut opened = Vec::new();
    for (name, config) in &modes {
        let redis = Redis::open(config)
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        opened.push((*name, redis));
    }
    let date = Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    println!("- date: {date}; load average: {}", load());
    println!("- {runs} runs of {rounds} rounds per cell, the modes interleaved; nothing on disk\n");
    for effect in [false, true] {
        let what = if effect {
            "a round with an effect (guard, then `Cx::once`'s claim and record)"
        } else {
            "a guarded round (the replay guard's one command)"
        };
        println!("#### {what}\n");
        let mut header = String::from("| mode |");
        let mut rule = String::from("|---|");
        for c in &clients {
            if *c == 1 {
                header.push_str(" 1 client: µs per round (p50) |");
            } else {
                header.push_str(&format!(" {c} clients: rounds/s |"));
            }
            rule.push_str("---|");
        }
        println!("{header}\n{rule}");
        // results[mode][client] = values over runs
        let mut results = vec![vec![Vec::new(); clients.len()]; opened.len()];
        for _ in 0..runs {
            for (ci, c) in clients.iter().enumerate() {
                for (mi, (_, redis)) in opened.iter().enumerate() {
                    let (p50, per_second) = drive(redis, *c, rounds, effect).await;
                    results[mi][ci].push(if *c == 1 { p50 } else { per_second });
                }
            }
        }
        for (mi, (name, _)) in opened.iter().enumerate() {
            let cells: Vec<String> = results[mi].iter().map(|v| Spread::of(v).cell()).collect();
            println!("| {name} | {} |", cells.join(" | "));
        }
        println!();
    }
    println!("- load average at the end: {}", load());
    drop(procs);
    let _ = std::fs::remove_dir_all(&dir);
}
