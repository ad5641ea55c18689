//! The fleet's shared state: Debian's `redis-server` on a 127.0.0.1 port, persistent (an
//! append-only file written and fsynced before each write is acknowledged), so that it can be
//! killed and started again on the same port and directory with everything it acknowledged.
//! Stopped when its handle is dropped.

use crate::procs::{free_port, wait_listening};
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long Redis may take to answer `PING` after it starts (it loads its file first).
const START: Duration = Duration::from_secs(15);

pub struct Redis {
    pub addr: SocketAddr,
    dir: PathBuf,
    child: Option<Child>,
    starts: usize,
    /// Whether it keeps the append-only file (a restart without it starts empty).
    append_only: bool,
}

impl Redis {
    /// Starts one in `dir/redis`.
    pub async fn start(dir: &Path) -> Redis {
        let dir = dir.join("redis");
        std::fs::create_dir_all(&dir).expect("redis dir");
        let mut redis = Redis {
            addr: free_port(),
            dir,
            child: None,
            starts: 0,
            append_only: true,
        };
        redis.spawn().await;
        redis
    }

    /// What the instances are given (`--redis`).
    pub fn url(&self) -> String {
        format!("redis://{}/0", self.addr)
    }

    async fn spawn(&mut self) {
        let log = self.dir.join(format!("redis-{}.log", self.starts));
        self.starts += 1;
        let mut child = Command::new(binary())
            .args([
                "--bind",
                "127.0.0.1",
                "--port",
                &self.addr.port().to_string(),
            ])
            .args([
                "--appendonly",
                if self.append_only { "yes" } else { "no" },
                "--appendfsync",
                "always",
                "--save",
                "",
                // `DEBUG SLEEP` (the fault tests' stall), from this machine only.
                "--enable-debug-command",
                "local",
            ])
            .arg("--dir")
            .arg(&self.dir)
            .arg("--logfile")
            .arg(&log)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start redis-server");
        wait_listening(self.addr, &mut child, "redis-server").await;
        // Listening is not serving: while it loads its file Redis answers `-LOADING`.
        let end = Instant::now() + START;
        while command(self.addr, &["PING"]).as_deref() != Ok("+PONG") {
            assert!(Instant::now() < end, "redis-server did not answer PING");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        self.child = Some(child);
    }

    /// `SIGKILL`: gone at once, without a chance to write anything more.
    pub async fn kill(&mut self) {
        let mut child = self.child.take().expect("running");
        child.kill().expect("SIGKILL redis-server");
        let end = Instant::now() + Duration::from_secs(15);
        while child.try_wait().expect("try_wait").is_none() {
            assert!(Instant::now() < end, "redis-server still running");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// A new process on the same port and directory: it reads back what the old one wrote.
    pub async fn restart(&mut self) {
        assert!(self.child.is_none(), "kill it first");
        self.spawn().await;
    }

    /// A new process on the same port without its append-only file: it starts empty, as a
    /// Redis without persistence does after any restart.
    pub async fn restart_without_persistence(&mut self) {
        assert!(self.child.is_none(), "kill it first");
        self.append_only = false;
        self.spawn().await;
    }

    /// Sends `signal` (`STOP`, `CONT`) to the process: `SIGSTOP` freezes it with its
    /// connections open, as a stalled host does.
    pub fn signal(&self, signal: &str) {
        let pid = self.child.as_ref().expect("running").id();
        let status = Command::new("kill")
            .args([format!("-{signal}"), pid.to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -{signal} {pid}");
    }

    /// One command, from a blocking thread (`DEBUG SLEEP` holds it): its reply or error.
    pub async fn run(&self, args: &[&str]) -> Result<String, String> {
        let addr = self.addr;
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        tokio::task::spawn_blocking(move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            command(addr, &args)
        })
        .await
        .expect("the command's thread")
    }

    /// The outcomes recorded in the effect ledger (`rondo:once:`): how many are a placed order
    /// (`Ordered ...`), how many say nothing was ordered, and how many are claims never
    /// recorded (the request that claimed it ended first).
    pub fn ledger(&self) -> Ledger {
        const COUNT: &str = r#"
local placed, not_placed, claimed = 0, 0, 0
for _, k in ipairs(redis.call('KEYS', 'rondo:once:*')) do
  local v = redis.call('GET', k)
  if string.sub(v, 1, 2) == 'c:' then claimed = claimed + 1
  elseif string.sub(v, 1, 10) == '="Ordered ' then placed = placed + 1
  else not_placed = not_placed + 1 end
end
return {placed, not_placed, claimed}
"#;
        let reply = command(self.addr, &["EVAL", COUNT, "0"]).expect("EVAL");
        let n: Vec<usize> = reply
            .lines()
            .skip(1)
            .map(|l| l.trim_start_matches(':').parse().expect("an integer"))
            .collect();
        assert_eq!(n.len(), 3, "{reply:?}");
        Ledger {
            placed: n[0],
            not_placed: n[1],
            claimed: n[2],
        }
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// The effect ledger's entries, by outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ledger {
    pub placed: usize,
    pub not_placed: usize,
    pub claimed: usize,
}

/// One command in RESP; the reply's text (a simple reply, or an array of integers as lines:
/// `*N` then each `:n`), or the error.
fn command(addr: SocketAddr, args: &[&str]) -> Result<String, String> {
    let mut s =
        TcpStream::connect_timeout(&addr, Duration::from_secs(1)).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    let mut out = format!("*{}\r\n", args.len());
    for a in args {
        out.push_str(&format!("${}\r\n{a}\r\n", a.len()));
    }
    s.write_all(out.as_bytes()).map_err(|e| e.to_string())?;
    let mut reader = BufReader::new(s.try_clone().map_err(|e| e.to_string())?);
    let mut line = String::new();
    reader.read_line(&mut line).map_err(|e| e.to_string())?;
    let head = line.trim_end().to_owned();
    if head.starts_with('-') {
        return Err(head);
    }
    let Some(n) = head.strip_prefix('*') else {
        return Ok(head);
    };
    let mut text = head.clone();
    for _ in 0..n.parse::<usize>().map_err(|e| e.to_string())? {
        line.clear();
        reader.read_line(&mut line).map_err(|e| e.to_string())?;
        text.push('\n');
        text.push_str(line.trim_end());
    }
    Ok(text)
}

/// `redis-server` from `PATH` or Debian's `/usr/bin`.
fn binary() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin")])
        .map(|d| d.join("redis-server"))
        .find(|p| p.is_file())
        .expect(
            "redis-server is not installed: `apt-get install -y redis-server` (scripts/test-all.sh does it)",
        )
}
