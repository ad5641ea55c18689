//! A fleet's throughput with its state shared on Redis and without:
//!
//! ```text
//! fleet_bench --bookshop PATH [--runs 3] [--seconds 10] [--clients 32,256,448]
//! ```
//!
//! For each run, a fleet started afresh: three release bookshops (`PATH --http ADDR`, one
//! `RONDO_STATE_KEYS`) behind Debian's nginx running the committed `deploy/nginx/rondo.conf`
//! (only its 127.0.0.1 ports replaced), either each with its state in memory or all with
//! `--redis` on one `redis-server` that fsyncs every write before answering (as
//! `deploy/kubernetes/redis.yaml` runs it). C clients, one keep-alive connection to nginx each,
//! run the bookshop's two-round order flow (the confirmation asked, then accepted with the
//! `requestState`; nginx spreads the rounds round-robin) for SECONDS; every answer is checked,
//! and afterwards the orders each instance placed (`list_orders`) must add up to the flows
//! completed. The two fleets alternate run by run. Nothing is pinned: the fleet, nginx, Redis
//! and this driver share the machine's cores.
//!
//! The bookshop's stand-ins wait 100 ms for the inventory (first round) and 100 ms for the
//! warehouse (the final round's order), so a flow takes at least 200 ms: below the machine's
//! capacity the rate is C / (time per flow), and only more clients show what the CPU allows.
//! (At most 448: the committed config's nginx has 1,024 connections, a client's and its
//! upstream's each.)
//!
//! Output: a Markdown table of flows/s and the flows' median and 99th-percentile times.

use rondo_bench::flows::{self, Conn, Flow, Persistence, Proc, drive, free_addr, wait_listening};
use rondo_bench::stats::Spread;
use rondo_mcp::state::KeyRing;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const USAGE: &str =
    "usage: fleet_bench --bookshop PATH [--runs N] [--seconds S] [--clients 32,256,448]";

/// The committed nginx configuration and the ports it names.
const NGINX_CONF: &str = include_str!("../../../deploy/nginx/rondo.conf");
const CONF_UPSTREAMS: [&str; 3] = ["127.0.0.1:3001", "127.0.0.1:3002", "127.0.0.1:3003"];
const CONF_LISTEN: [&str; 2] = ["127.0.0.1:8080", "127.0.0.1:8081"];

const BOOKS: [(&str, &str, u64); 3] = [
    (
        "9780262510875",
        "Structure and Interpretation of Computer Programs",
        5500,
    ),
    ("9781593278281", "The Rust Programming Language", 3999),
    ("9780131103627", "The C Programming Language", 6200),
];

fn book(n: u64) -> (&'static str, &'static str, u64, u64) {
    let (isbn, title, price) = BOOKS[(n % 3) as usize];
    (isbn, title, price, 1 + (n / 3) % 10)
}

fn delivery(n: u64) -> &'static str {
    if n.is_multiple_of(2) {
        "express"
    } else {
        "standard"
    }
}

const ORDER: Flow = Flow {
    tool: "order_book",
    key: "confirm_order",
    args: |n| {
        let (isbn, _, _, quantity) = book(n);
        json!({"isbn": isbn, "quantity": quantity})
    },
    question: |n| {
        let (_, title, price, quantity) = book(n);
        let total = price * quantity;
        format!(
            "Order {quantity} x \"{title}\" for ${}.{:02}?",
            total / 100,
            total % 100
        )
    },
    response: |n| json!({"action": "accept", "content": {"approve": true, "delivery": delivery(n)}}),
    done: |n| {
        let (_, title, _, quantity) = book(n);
        format!(
            "Ordered {quantity} x \"{title}\", {} delivery.",
            delivery(n)
        )
    },
};

/// The committed config with its ports replaced (each exactly as often as the file has it).
fn nginx_conf(upstreams: &[SocketAddr], listen: SocketAddr, sessions: SocketAddr) -> String {
    let mut conf = NGINX_CONF.to_owned();
    for (from, to) in CONF_UPSTREAMS.iter().zip(upstreams) {
        let from = format!("{from} ");
        assert_eq!(conf.matches(&from).count(), 2, "rondo.conf changed: {from}");
        conf = conf.replace(&from, &format!("{to} "));
    }
    for (from, to) in CONF_LISTEN.iter().zip([listen, sessions]) {
        let from = format!("listen {from};");
        assert_eq!(conf.matches(&from).count(), 1, "rondo.conf changed: {from}");
        conf = conf.replace(&from, &format!("listen {to};"));
    }
    conf
}

/// One fleet; every process stops when it is dropped (nginx first).
struct Fleet {
    nginx: Proc,
    front: SocketAddr,
    instances: Vec<(Proc, SocketAddr)>,
    _redis: Option<Proc>,
}

impl Drop for Fleet {
    fn drop(&mut self) {
        // SIGTERM: the master stops its workers, which outlive a killed master.
        let _ = Command::new("kill")
            .args(["-TERM", &self.nginx.0.id().to_string()])
            .status();
        let _ = self.nginx.0.wait();
    }
}

fn start(bookshop: &str, dir: &Path, redis: bool) -> Fleet {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("tmp")).expect("fleet dir");
    let (redis, url) = match redis {
        true => {
            let (p, url) = flows::redis(&dir.join("redis"), Persistence::Fsync, None);
            (Some(p), Some(url))
        }
        false => (None, None),
    };
    let keys = KeyRing::generate_spec(1);
    let mut instances = Vec::new();
    for _ in 0..3 {
        let addr = free_addr();
        let mut c = Command::new(bookshop);
        c.args(["--http", &addr.to_string()]);
        if let Some(url) = &url {
            c.args(["--redis", url]);
        }
        let mut child = c
            .env("RONDO_STATE_KEYS", &keys)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start {bookshop}: {e}"));
        wait_listening(addr, &mut child, "bookshop");
        instances.push((Proc(child), addr));
    }
    let (front, sessions) = (free_addr(), free_addr());
    let upstreams: Vec<SocketAddr> = instances.iter().map(|(_, a)| *a).collect();
    let conf = dir.join("rondo.conf");
    std::fs::write(&conf, nginx_conf(&upstreams, front, sessions)).expect("conf");
    let mut prefix = dir.as_os_str().to_owned();
    prefix.push("/");
    let mut child = Command::new(nginx_binary())
        .arg("-p")
        .arg(&prefix)
        .arg("-c")
        .arg(&conf)
        .args(["-e", "stderr", "-g", "daemon off;"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .expect("start nginx");
    wait_listening(front, &mut child, "nginx");
    Fleet {
        nginx: Proc(child),
        front,
        instances,
        _redis: redis,
    }
}

fn nginx_binary() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin")])
        .map(|d| d.join("nginx"))
        .find(|p| p.is_file())
        .expect("nginx is not installed: apt-get install nginx")
}

/// The orders the instance at `addr` placed.
async fn orders(addr: SocketAddr) -> u64 {
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "fleet-bench", "version": "0"},
    });
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "list_orders", "arguments": {}, "_meta": meta}});
    let m: Value = Conn::new(addr).post(&body).await.expect("list_orders");
    m["result"]["structuredContent"]["orders"]
        .as_array()
        .map_or(0, |o| o.len() as u64)
}

fn main() {
    let (mut runs, mut seconds, mut clients) = (3usize, 10.0f64, vec![32usize, 256, 448]);
    let mut bookshop = None;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{USAGE}"));
        match flag.as_str() {
            "--bookshop" => bookshop = Some(value),
            "--runs" => runs = value.parse().expect(USAGE),
            "--seconds" => seconds = value.parse().expect(USAGE),
            "--clients" => clients = value.split(',').map(|c| c.parse().expect(USAGE)).collect(),
            _ => panic!("{USAGE}"),
        }
    }
    let bookshop = bookshop.expect(USAGE);
    let dir = std::env::temp_dir().join(format!("rondo-fleet-bench-{}", std::process::id()));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let mut failed = false;
    println!("{runs} runs of {seconds} s per cell, a fresh fleet for each, the two alternating");
    println!();
    println!(
        "| clients | memory flows/s | Redis flows/s | Redis / memory | memory ms/flow p50 · p99 | Redis ms/flow p50 · p99 |"
    );
    println!("|---|---|---|---|---|---|");
    for &c in &clients {
        let (mut rate, mut p50, mut p99) = ([vec![], vec![]], [vec![], vec![]], [vec![], vec![]]);
        for r in 0..runs {
            for (i, redis) in [false, true].into_iter().enumerate() {
                let fleet = start(&bookshop, &dir, redis);
                let base = ((r * 2 + i) as u64) << 40;
                let (mut t, took) = rt.block_on(drive(fleet.front, ORDER, c, seconds, base));
                let placed: u64 = fleet
                    .instances
                    .iter()
                    .map(|(_, a)| rt.block_on(orders(*a)))
                    .sum();
                if t.errors > 0 || placed != t.flows {
                    failed = true;
                    eprintln!(
                        "redis {redis}, {c} clients: {} errors, e.g. {:?}; {placed} orders for {} flows",
                        t.errors, t.first_errors, t.flows
                    );
                }
                rate[i].push(t.flows as f64 / took.as_secs_f64());
                p50[i].push(t.ms(0.5));
                p99[i].push(t.ms(0.99));
                drop(fleet);
            }
        }
        let time = |i: usize| {
            format!(
                "{:.0} · {:.0}",
                Spread::of(&p50[i]).median,
                Spread::of(&p99[i]).median
            )
        };
        println!(
            "| {c} | {} | {} | {} | {} | {} |",
            Spread::of(&rate[0]).cell(),
            Spread::of(&rate[1]).cell(),
            rondo_bench::stats::ratio(&rate[1], &rate[0]),
            time(0),
            time(1)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    if failed {
        std::process::exit(1);
    }
}
