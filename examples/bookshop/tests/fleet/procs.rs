//! The processes of a fleet: bookshop instances on 127.0.0.1 ports and nginx in front of them,
//! run from the committed `deploy/nginx/rondo.conf` with only its ports replaced. Every child
//! is stopped when its handle is dropped, so a failing test leaves nothing running.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How long a process may take to start listening or to stop.
const START: Duration = Duration::from_secs(15);
const STOP: Duration = Duration::from_secs(15);

/// The committed nginx configuration and the ports it names.
const NGINX_CONF: &str = include_str!("../../../../deploy/nginx/rondo.conf");
pub const CONF_UPSTREAMS: [&str; 3] = ["127.0.0.1:3001", "127.0.0.1:3002", "127.0.0.1:3003"];
pub const CONF_MODERN: &str = "127.0.0.1:8080";
pub const CONF_SESSIONS: &str = "127.0.0.1:8081";

/// A directory of its own under the system's temporary directory, removed on drop unless the
/// test failed (then its logs stay for reading, and the path is printed).
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let dir =
            std::env::temp_dir().join(format!("rondo-fleet-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(dir.join("tmp")).expect("scratch dir");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("fleet: logs kept in {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The variables that say where Redis is: none reaches an instance from the test's own
/// environment.
pub const REDIS_VARS: [&str; 8] = [
    "RONDO_REDIS_URL",
    "RONDO_REDIS_SENTINEL",
    "RONDO_REDIS_MASTER",
    "RONDO_REDIS_CLUSTER",
    "RONDO_REDIS_CA",
    "RONDO_REDIS_CLIENT_CERT",
    "RONDO_REDIS_CLIENT_KEY",
    "RONDO_REDIS_WAIT",
];

/// Runs the bookshop with `args` and `env` (none of the test's own Redis variables), which
/// must stop at start: status 2 and one line on stderr, returned.
pub fn refused_at_start(args: &[&str], env: &[(&str, &str)]) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bookshop"));
    for var in REDIS_VARS.iter().chain(&["RONDO_STATE_KEYS"]) {
        command.env_remove(var);
    }
    let out = command
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .expect("run the bookshop");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err.trim_end().to_owned()
}

/// A free port on 127.0.0.1 (bound and released; the fleet binds it a moment later).
pub fn free_port() -> SocketAddr {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    l.local_addr().expect("local addr")
}

/// Waits until something accepts connections on `addr`.
pub async fn wait_listening(addr: SocketAddr, child: &mut Child, what: &str) {
    let end = Instant::now() + START;
    loop {
        if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
            return;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("{what} exited before listening on {addr}: {status}");
        }
        assert!(
            Instant::now() < end,
            "{what} not listening on {addr} after {START:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Sends `signal` (`TERM`, `QUIT`) to `pid` with the system's `kill`.
fn signal(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .args([format!("-{signal}"), pid.to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -{signal} {pid}: {status}");
}

/// Waits (bounded) for `child` to exit.
async fn wait_exit(child: &mut Child, what: &str) -> ExitStatus {
    let end = Instant::now() + STOP;
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status;
        }
        assert!(
            Instant::now() < end,
            "{what} still running {STOP:?} after the signal"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// How an instance is told where the fleet's Redis is: arguments (`--redis URL`) and
/// environment variables (`RONDO_REDIS_CLUSTER`, ...).
#[derive(Debug, Clone, Default)]
pub struct Given {
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
}

/// One bookshop instance serving HTTP on its own port.
pub struct Instance {
    pub addr: SocketAddr,
    child: Option<Child>,
    log: PathBuf,
}

impl Instance {
    /// Starts `bookshop --http addr` with `keys` as its `RONDO_STATE_KEYS`, told where Redis
    /// is when given it; returns once it accepts connections.
    pub async fn start(
        addr: SocketAddr,
        keys: &str,
        redis: Option<&Given>,
        dir: &Path,
        generation: usize,
    ) -> Instance {
        let log = dir.join(format!("bookshop-{}-{generation}.log", addr.port()));
        let stderr = std::fs::File::create(&log).expect("instance log");
        let mut command = Command::new(env!("CARGO_BIN_EXE_bookshop"));
        command.args(["--http", &addr.to_string()]);
        for var in REDIS_VARS {
            command.env_remove(var);
        }
        if let Some(given) = redis {
            command.args(&given.args).envs(given.env.iter().cloned());
        }
        let mut child = command
            .env("RONDO_STATE_KEYS", keys)
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .expect("start bookshop");
        wait_listening(addr, &mut child, "bookshop").await;
        Instance {
            addr,
            child: Some(child),
            log,
        }
    }

    /// `SIGTERM`, then waits for the drain to finish; the instance must exit on its own, with
    /// success (a process killed by the signal would report the signal instead).
    pub async fn terminate(mut self) {
        let mut child = self.child.take().expect("running");
        signal(child.id(), "TERM");
        let status = wait_exit(&mut child, "bookshop after SIGTERM").await;
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        assert!(
            status.success(),
            "bookshop on {} did not drain and exit cleanly after SIGTERM: {status}\n{log}",
            self.addr
        );
        assert!(
            log.contains("draining requests in flight"),
            "no drain in the log of {}:\n{log}",
            self.addr
        );
    }

    /// What the instance has logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// `SIGKILL`: no drain, connections die with the process.
    pub async fn kill(mut self) {
        let mut child = self.child.take().expect("running");
        child.kill().expect("SIGKILL");
        let status = wait_exit(&mut child, "bookshop after SIGKILL").await;
        assert!(!status.success(), "{status}");
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// nginx in the foreground with its own prefix (pid, logs, temporary files in `dir`).
pub struct Nginx {
    pub modern: SocketAddr,
    pub sessions: SocketAddr,
    pub access_log: PathBuf,
    child: Option<Child>,
}

/// The committed configuration with its ports replaced; each replaced text must occur
/// exactly as often as the committed file has it, so a changed file fails here, not later.
pub fn nginx_conf(upstreams: &[SocketAddr], modern: SocketAddr, sessions: SocketAddr) -> String {
    let mut conf = NGINX_CONF.to_owned();
    let mut swap = |from: &str, to: &str, times: usize| {
        let pattern = format!("{from} ");
        assert_eq!(
            conf.matches(&pattern).count(),
            times,
            "deploy/nginx/rondo.conf should name `{from}` {times} times"
        );
        conf = conf.replace(&pattern, &format!("{to} "));
    };
    for (from, to) in CONF_UPSTREAMS.iter().zip(upstreams) {
        // Once in each upstream block.
        swap(from, &to.to_string(), 2);
    }
    let listen = |a: &str| format!("listen {a};");
    assert_eq!(conf.matches(&listen(CONF_MODERN)).count(), 1);
    assert_eq!(conf.matches(&listen(CONF_SESSIONS)).count(), 1);
    conf = conf
        .replace(&listen(CONF_MODERN), &listen(&modern.to_string()))
        .replace(&listen(CONF_SESSIONS), &listen(&sessions.to_string()));
    conf
}

impl Nginx {
    pub async fn start(dir: &Path, upstreams: &[SocketAddr]) -> Nginx {
        let (modern, sessions) = (free_port(), free_port());
        let conf = dir.join("rondo.conf");
        std::fs::write(&conf, nginx_conf(upstreams, modern, sessions)).expect("write conf");
        let stderr = std::fs::File::create(dir.join("nginx.stderr")).expect("nginx stderr");
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
            .stderr(stderr)
            .spawn()
            .expect("start nginx");
        wait_listening(modern, &mut child, "nginx").await;
        wait_listening(sessions, &mut child, "nginx").await;
        Nginx {
            modern,
            sessions,
            access_log: dir.join("access.log"),
            child: Some(child),
        }
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // SIGTERM, not SIGKILL: the master stops its workers, which outlive a killed master.
        if let Some(mut c) = self.child.take() {
            signal(c.id(), "TERM");
            let end = Instant::now() + STOP;
            while Instant::now() < end {
                if let Ok(Some(_)) = c.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// nginx from `PATH` or Debian's `/usr/sbin` (not on a plain user's `PATH`).
fn nginx_binary() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin")])
        .map(|d| d.join("nginx"))
        .find(|p| p.is_file())
        .expect("nginx is not installed: `apt-get install -y nginx` (scripts/test-all.sh does it)")
}
