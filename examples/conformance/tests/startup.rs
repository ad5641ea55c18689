//! What stops the server at start, with one line and status 2: a Redis that cannot be reached
//! (the URL without its user, password or query values; design §19.1), a key ring that does
//! not read.

#[test]
fn an_unreachable_redis_is_one_line_without_secrets_and_status_2() {
    let url = "redis://app:sl%2Fa%40sh%3Ax@127.0.0.1:1/0?password=S3cret";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(["--redis", url])
        .env_remove("RONDO_REDIS_URL")
        .env_remove("RONDO_STATE_KEYS")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    let shown = "conformance: cannot reach Redis at redis://***:***@127.0.0.1:1/0?password=***: ";
    assert!(lines[0].starts_with(shown), "{err}");
    for secret in ["app", "sl", "%2F", "S3cret"] {
        assert!(!lines[0].contains(secret), "{secret} in {err}");
    }
}

#[test]
fn a_key_ring_that_does_not_read_stops_it_at_start() {
    // It reads RONDO_STATE_KEYS (a fleet's instances share rounds only with one ring): one
    // that does not read ends it with one line and status 2 instead of serving with a random
    // key.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_conformance"))
        .env("RONDO_STATE_KEYS", "not a key ring")
        .env("PORT", "0")
        .env_remove("RONDO_REDIS_URL")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    let end = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break status;
        }
        if std::time::Instant::now() > end {
            let _ = child.kill();
            panic!("still serving 10 s later: RONDO_STATE_KEYS was not read");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err)
        .expect("reads");
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(err.starts_with("conformance: RONDO_STATE_KEYS: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
