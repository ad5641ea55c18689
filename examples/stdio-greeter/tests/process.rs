//! The real binary over real pipes: a 2026-07-28 discover and two-round call, a 2025-11-25
//! session whose elicitation is answered on stdin, stdout carrying nothing but JSON-RPC lines
//! (each validated against the official schema), and a prompt exit when stdin closes. The same
//! flow also runs over a Unix socket pair (what Node.js gives a child it spawns) and with
//! stdout and stderr on one pipe (`2>&1`), the three kinds of stdio the transport tells apart.

use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::{Direction, Frame};
use rondo_tests::validate_transcript;
use serde_json::{Value, json};
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};

/// Bound on every wait for the process.
const BOUND: Duration = Duration::from_secs(5);

struct Proc {
    child: Child,
    stdin: Option<Box<dyn AsyncWrite + Unpin + Send>>,
    stdout: BufReader<Box<dyn AsyncRead + Unpin + Send>>,
    /// stdout and stderr are one pipe: lines that are not JSON are the server's logs.
    shared: bool,
    frames: Vec<Frame>,
}

/// How the child's stdin and stdout are connected.
#[derive(Clone, Copy)]
enum Stdio3 {
    /// A pipe each, stderr a third pipe.
    Pipes,
    /// One Unix socket pair for stdin and stdout, stderr a pipe.
    Socket,
    /// A pipe for stdin, one pipe for both stdout and stderr.
    SharedErr,
}

impl Proc {
    fn spawn() -> Proc {
        Proc::spawn_with(Stdio3::Pipes)
    }

    fn spawn_with(how: Stdio3) -> Proc {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_stdio-greeter"));
        cmd.env("RUST_LOG", "debug").kill_on_drop(true);
        let mut ours = None;
        let mut shared_out = None;
        match how {
            Stdio3::Pipes => {
                cmd.stdin(Stdio::piped()).stdout(Stdio::piped());
                cmd.stderr(Stdio::piped());
            }
            Stdio3::Socket => {
                let (mine, theirs) = std::os::unix::net::UnixStream::pair().expect("socketpair");
                let theirs_too = theirs.try_clone().expect("dup");
                cmd.stdin(Stdio::from(std::os::fd::OwnedFd::from(theirs)));
                cmd.stdout(Stdio::from(std::os::fd::OwnedFd::from(theirs_too)));
                cmd.stderr(Stdio::piped());
                mine.set_nonblocking(true).expect("nonblocking");
                ours = Some(tokio::net::UnixStream::from_std(mine).expect("a tokio socket"));
            }
            Stdio3::SharedErr => {
                let (reader, writer) = std::io::pipe().expect("pipe");
                cmd.stdin(Stdio::piped());
                cmd.stdout(writer.try_clone().expect("dup")).stderr(writer);
                shared_out = Some(reader);
            }
        }
        let mut child = cmd.spawn().expect("the example binary starts");
        // The parent's copies of the child's ends are closed with `cmd`.
        drop(cmd);
        let (stdin, stdout): (
            Box<dyn AsyncWrite + Unpin + Send>,
            Box<dyn AsyncRead + Unpin + Send>,
        ) = match (ours, shared_out) {
            (Some(sock), _) => {
                let (r, w) = sock.into_split();
                (Box::new(w), Box::new(r))
            }
            (None, Some(reader)) => {
                let fd = std::os::fd::OwnedFd::from(reader);
                let reader =
                    tokio::net::unix::pipe::Receiver::from_owned_fd(fd).expect("a tokio pipe");
                (
                    Box::new(child.stdin.take().expect("piped")),
                    Box::new(reader),
                )
            }
            (None, None) => (
                Box::new(child.stdin.take().expect("piped")),
                Box::new(child.stdout.take().expect("piped")),
            ),
        };
        Proc {
            child,
            stdin: Some(stdin),
            stdout: BufReader::new(stdout),
            shared: matches!(how, Stdio3::SharedErr),
            frames: Vec::new(),
        }
    }

    async fn send(&mut self, msg: Value) {
        self.frames.push(Frame {
            direction: Direction::Sent,
            message: msg.clone(),
            line: msg.to_string(),
        });
        let mut line = msg.to_string().into_bytes();
        line.push(b'\n');
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(&line).await.expect("the server reads");
        stdin.flush().await.expect("the server reads");
    }

    /// The next stdout line, which must be one JSON-RPC message; `None` at end of stdout.
    async fn recv(&mut self) -> Option<Value> {
        let mut line = String::new();
        loop {
            line.clear();
            let n = tokio::time::timeout(BOUND, self.stdout.read_line(&mut line))
                .await
                .expect("the server answers in time")
                .expect("stdout readable");
            if n == 0 {
                return None;
            }
            if !self.shared || line.starts_with('{') {
                break;
            }
        }
        let msg: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout carries only JSON lines, got {line:?}: {e}"));
        assert_eq!(msg["jsonrpc"], "2.0", "{line}");
        assert!(line.ends_with('\n') && !line.trim_end().contains('\n'));
        self.frames.push(Frame {
            direction: Direction::Received,
            message: msg.clone(),
            line: line.trim_end().to_owned(),
        });
        Some(msg)
    }

    async fn request(&mut self, msg: Value) -> Value {
        let id = msg["id"].clone();
        self.send(msg).await;
        let answer = self.recv().await.expect("an answer");
        assert_eq!(answer["id"], id, "{answer}");
        answer
    }

    /// Closes stdin; the process must exit within the bound. Returns the exit status, the rest
    /// of stdout (checked like every other line) and stderr.
    async fn close(mut self) -> (ExitStatus, Vec<Frame>, String) {
        drop(self.stdin.take());
        let started = Instant::now();
        let status = tokio::time::timeout(BOUND, self.child.wait())
            .await
            .expect("the server exits promptly when stdin closes")
            .expect("wait");
        assert!(started.elapsed() < BOUND);
        while self.recv().await.is_some() {}
        let mut stderr = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            e.read_to_string(&mut stderr).await.expect("stderr");
        }
        (status, self.frames, stderr)
    }
}

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "process-test", "version": "0"},
    })
}

#[tokio::test]
async fn modern_discover_and_two_round_call_over_real_pipes() {
    modern_flow(Proc::spawn_with(Stdio3::Pipes)).await;
}

#[tokio::test]
async fn modern_flow_over_a_socket_pair() {
    modern_flow(Proc::spawn_with(Stdio3::Socket)).await;
}

#[tokio::test]
async fn modern_flow_with_stdout_and_stderr_on_one_pipe() {
    modern_flow(Proc::spawn_with(Stdio3::SharedErr)).await;
}

#[tokio::test]
async fn many_calls_sent_at_once_are_each_answered_once_over_every_kind_of_stdio() {
    for how in [Stdio3::Pipes, Stdio3::Socket, Stdio3::SharedErr] {
        let mut p = Proc::spawn_with(how);
        let mut batch = Vec::new();
        for id in 0..500 {
            let msg = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"_meta": meta(), "name": "shout", "arguments": {"text": format!("n{id}")}}});
            batch.extend_from_slice(msg.to_string().as_bytes());
            batch.push(b'\n');
        }
        let stdin = p.stdin.as_mut().unwrap();
        stdin.write_all(&batch).await.unwrap();
        stdin.flush().await.unwrap();
        let mut seen = vec![false; 500];
        for _ in 0..500 {
            let answer = p.recv().await.expect("an answer for every call");
            let id = answer["id"].as_u64().expect("an id") as usize;
            assert_eq!(answer["result"]["content"][0]["text"], format!("N{id}"));
            assert!(
                !std::mem::replace(&mut seen[id], true),
                "answered twice: {id}"
            );
        }
        let (status, _, stderr) = p.close().await;
        assert!(status.success(), "{status:?}\n{stderr}");
    }
}

async fn modern_flow(mut p: Proc) {
    let d = p
        .request(json!({"jsonrpc": "2.0", "id": "d", "method": "server/discover", "params": {"_meta": meta()}}))
        .await;
    assert_eq!(d["result"]["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(
        d["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "stdio-greeter"
    );

    let list = p
        .request(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta()}}),
        )
        .await;
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["shout", "greet"]);

    let shout = p
        .request(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"_meta": meta(), "name": "shout", "arguments": {"text": "hi"}}}))
        .await;
    assert_eq!(shout["result"]["content"][0]["text"], "HI");

    let first = p
        .request(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"_meta": meta(), "name": "greet", "arguments": {}}}))
        .await;
    let irr = &first["result"];
    assert_eq!(irr["resultType"], "input_required");
    assert_eq!(
        irr["inputRequests"]["user_name"]["method"],
        "elicitation/create"
    );
    let done = p
        .request(json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
            "params": {"_meta": meta(), "name": "greet", "arguments": {},
                "inputResponses": {"user_name": {"action": "accept", "content": {"name": "Ada"}}},
                "requestState": irr["requestState"]}}))
        .await;
    assert_eq!(done["result"]["resultType"], "complete");
    assert_eq!(done["result"]["content"][0]["text"], "Hello, Ada!");

    let shared = p.shared;
    let (status, frames, stderr) = p.close().await;
    assert!(status.success(), "{status:?}\n{stderr}");
    assert!(validate_transcript(Revision::V2026_07_28, &frames) >= 5);
    if !shared {
        assert!(
            stderr.contains("stdio-greeter serving stdin/stdout"),
            "logs go to stderr: {stderr}"
        );
    }
}

#[tokio::test]
async fn legacy_session_with_the_elicitation_answered_on_stdin() {
    let mut p = Proc::spawn();
    let init = p
        .request(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": {"form": {}}},
            "clientInfo": {"name": "process-test", "version": "0"}}}),
        )
        .await;
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(init["result"]["serverInfo"]["name"], "stdio-greeter");
    p.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;

    p.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "greet", "arguments": {}}}))
        .await;
    let ask = p.recv().await.expect("a server-to-client request");
    assert_eq!(ask["method"], "elicitation/create");
    assert_eq!(ask["params"]["mode"], "form");
    p.send(json!({"jsonrpc": "2.0", "id": ask["id"],
        "result": {"action": "accept", "content": {"name": "Grace"}}}))
        .await;
    let done = p.recv().await.expect("the tool's response");
    assert_eq!(done["id"], 2);
    assert_eq!(done["result"]["content"][0]["text"], "Hello, Grace!");
    assert!(done["result"].get("resultType").is_none());

    let pong = p
        .request(json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}))
        .await;
    assert_eq!(pong["result"], json!({}));

    let (status, frames, stderr) = p.close().await;
    assert!(status.success(), "{status:?}\n{stderr}");
    assert!(validate_transcript(Revision::V2025_11_25, &frames) >= 4);
}

#[tokio::test]
async fn exits_promptly_with_a_question_still_waiting_for_its_answer() {
    let mut p = Proc::spawn();
    p.request(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "process-test", "version": "0"}}}),
    )
    .await;
    p.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "greet", "arguments": {}}}))
        .await;
    assert_eq!(p.recv().await.unwrap()["method"], "elicitation/create");
    // Never answered: closing stdin must still end the process within the bound.
    let (status, frames, stderr) = p.close().await;
    assert!(status.success(), "{status:?}\n{stderr}");
    validate_transcript(Revision::V2025_11_25, &frames);
}

#[tokio::test]
async fn malformed_input_is_answered_on_stdout_and_serving_continues() {
    let mut p = Proc::spawn();
    let stdin = p.stdin.as_mut().unwrap();
    stdin.write_all(b"this is not json\n").await.unwrap();
    stdin.flush().await.unwrap();
    let e = p.recv().await.expect("a parse error");
    assert_eq!(e["error"]["code"], -32700);
    let d = p
        .request(json!({"jsonrpc": "2.0", "id": 9, "method": "server/discover", "params": {"_meta": meta()}}))
        .await;
    assert!(d["result"]["capabilities"]["tools"].is_object());
    let (status, frames, _) = p.close().await;
    assert!(status.success());
    validate_transcript(Revision::V2026_07_28, &frames);
}

/// Whether `fd`'s open file description has `O_NONBLOCK` (Linux: `/proc/self/fdinfo`).
#[cfg(target_os = "linux")]
fn nonblocking(fd: &impl std::os::fd::AsRawFd) -> bool {
    let info = std::fs::read_to_string(format!("/proc/self/fdinfo/{}", fd.as_raw_fd()))
        .expect("fdinfo readable");
    let flags = info
        .lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .expect("a flags line")
        .trim();
    u32::from_str_radix(flags, 8).expect("octal flags") & 0o4000 != 0
}

/// The server puts its stdin pipe in non-blocking mode while it serves and back in blocking
/// mode when it ends: the pipe's mode belongs to the open file description, which this test
/// shares with the child (as a shell or a parent process may).
#[cfg(target_os = "linux")]
#[tokio::test]
async fn stdin_is_put_back_in_blocking_mode_when_serving_ends() {
    use std::io::Write as _;
    let (reader, mut writer) = std::io::pipe().expect("pipe");
    let shared = reader.try_clone().expect("dup");
    assert!(!nonblocking(&shared));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_stdio-greeter"));
    cmd.stdin(reader)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    let mut child = cmd.spawn().expect("the example binary starts");
    drop(cmd);
    let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
    let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta()}});
    writer
        .write_all(format!("{discover}\n").as_bytes())
        .expect("the server reads");
    let mut line = String::new();
    tokio::time::timeout(BOUND, stdout.read_line(&mut line))
        .await
        .expect("an answer in time")
        .expect("stdout readable");
    assert!(line.contains("supportedVersions"), "{line}");
    assert!(nonblocking(&shared), "served in non-blocking mode");
    drop(writer);
    let status = tokio::time::timeout(BOUND, child.wait())
        .await
        .expect("exits when stdin closes")
        .expect("wait");
    assert!(status.success(), "{status:?}");
    assert!(!nonblocking(&shared), "blocking mode restored at the end");
}

#[tokio::test]
async fn the_binary_end_to_end_through_the_test_client_at_both_revisions() {
    use rondo_mcp::protocol::ClientCapabilities;
    use rondo_mcp::testing::{Reply, Script, TestClient};
    for (revision, rounds) in [(Revision::V2026_07_28, 2), (Revision::V2025_11_25, 1)] {
        let mut greeter = Command::new(env!("CARGO_BIN_EXE_stdio-greeter"));
        greeter.stderr(Stdio::null());
        let c = TestClient::spawn(revision, &mut greeter)
            .expect("the example binary starts")
            .capabilities(ClientCapabilities::with_elicitation_form())
            .script(Script::new().elicit(Reply::accept(json!({"name": "Ada"}))))
            .timeout(BOUND)
            .connect()
            .await
            .expect("connects");
        let call = c.call_tool("greet", json!({})).await.unwrap();
        assert_eq!((call.text().as_str(), call.rounds), ("Hello, Ada!", rounds));
        c.close()
            .await
            .expect("the server exits successfully, in time, when stdin closes");
    }
}
