//! A private `redis-server` for one test: a free loopback port, no persistence, a temporary
//! directory, killed when dropped.

use std::io::Write as _;
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// What a run without `redis-server` says, once.
const SKIPPED: &str = "
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
!!! SKIPPED: redis-server is not on PATH, so the Redis task store      !!!
!!! was NOT tested. Install it (apt-get install redis-server) or run   !!!
!!! scripts/test-all.sh, which does. (Under CI this is a failure.)     !!!
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
";

/// A running `redis-server`.
pub struct RedisServer {
    child: Child,
    dir: PathBuf,
    port: u16,
    /// Its TLS port, when it serves TLS too.
    tls_port: Option<u16>,
}

impl RedisServer {
    /// Starts one, or `None` (after saying so loudly) when `redis-server` is not installed and
    /// the environment variable `CI` is not set. Under `CI` a missing server fails the test:
    /// CI must never skip these tests (`scripts/test-all.sh` installs it).
    pub fn start() -> Option<RedisServer> {
        RedisServer::start_with(None)
    }

    fn start_with(tls: Option<(&Path, &str)>) -> Option<RedisServer> {
        let Some(bin) = find_binary() else {
            assert!(
                std::env::var_os("CI").is_none(),
                "redis-server is not installed and CI is set: the Redis task store tests must run \
                 (scripts/test-all.sh installs Debian's redis-server)"
            );
            // Straight to the file descriptor: the test harness captures `eprintln!`.
            static ONCE: std::sync::Once = std::sync::Once::new();
            ONCE.call_once(|| {
                let _ = std::io::stderr().write_all(SKIPPED.as_bytes());
            });
            return None;
        };
        let mut last = String::new();
        for attempt in 0..5 {
            match try_start(&bin, attempt, tls) {
                Ok(server) => return Some(server),
                Err(why) => last = why,
            }
        }
        panic!("redis-server did not start: {last}");
    }

    /// As [`start`](RedisServer::start), serving TLS too on a port of its own with the test
    /// certificates of `certs` (`tests/fixtures/redis-tls`), asking clients for a certificate
    /// as `auth_clients` says (`no`, `optional`, `yes`).
    // Only this crate's TLS tests use it; the travel example's tests include this file too.
    #[allow(dead_code)]
    pub fn start_tls(certs: &Path, auth_clients: &str) -> Option<RedisServer> {
        RedisServer::start_with(Some((certs, auth_clients)))
    }

    /// The `rediss://` URL of its TLS port, with `userinfo` (`user:password@`, or empty).
    #[allow(dead_code)]
    pub fn tls_url(&self, userinfo: &str) -> String {
        let port = self.tls_port.expect("started with start_tls");
        format!("rediss://{userinfo}127.0.0.1:{port}/0")
    }

    /// One command on its plain port: the reply's first line.
    #[allow(dead_code)]
    pub fn command(&self, args: &[&str]) -> String {
        use std::io::{BufRead, BufReader};
        let mut s = TcpStream::connect((Ipv4Addr::LOCALHOST, self.port)).expect("connects");
        let mut out = format!("*{}\r\n", args.len());
        for a in args {
            out.push_str(&format!("${}\r\n{a}\r\n", a.len()));
        }
        s.write_all(out.as_bytes()).expect("sends");
        let mut line = String::new();
        BufReader::new(s).read_line(&mut line).expect("reads");
        line.trim_end().to_owned()
    }

    /// The URL clients connect to.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Sends `signal` (`STOP`, `CONT`) to the server: `SIGSTOP` freezes it with its
    /// connections open, as a stalled host does; what clients send meanwhile runs on `CONT`.
    // The travel example's tests include this file and use it; this crate's do not.
    #[allow(dead_code)]
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([format!("-{signal}"), self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -{signal}");
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `redis-server` on PATH.
fn find_binary() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join("redis-server"))
        .find(|p| p.is_file())
}

fn try_start(bin: &Path, attempt: u32, tls: Option<(&Path, &str)>) -> Result<RedisServer, String> {
    // Ports the OS just handed out; another process may take one before redis binds it, so
    // a failure to start is retried on new ones.
    let free = || -> Result<(TcpListener, u16), String> {
        let l = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).map_err(|e| e.to_string())?;
        let port = l.local_addr().map_err(|e| e.to_string())?.port();
        Ok((l, port))
    };
    let (held, port) = free()?;
    let (held_tls, tls_port) = free()?;
    drop((held, held_tls));
    let dir = std::env::temp_dir().join(format!(
        "rondo-redis-{}-{port}-{attempt}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let mut command = Command::new(bin);
    command
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no"])
        .arg("--dir")
        .arg(&dir);
    if let Some((certs, auth_clients)) = tls {
        command.args(["--tls-port", &tls_port.to_string()]);
        for (flag, file) in [
            ("--tls-cert-file", "server.pem"),
            ("--tls-key-file", "server.key.pem"),
            ("--tls-ca-cert-file", "ca.pem"),
        ] {
            command.arg(flag).arg(certs.join(file));
        }
        command.args(["--tls-auth-clients", auth_clients]);
    }
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    let mut server = RedisServer {
        child,
        dir,
        port,
        tls_port: tls.map(|_| tls_port),
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if let Ok(Some(status)) = server.child.try_wait() {
            return Err(format!("exited with {status} on port {port}"));
        }
        if TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_ok() {
            return Ok(server);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = server.child.kill();
    Err(format!("not listening on port {port} within 10 s"))
}
