//! A Redis that cannot be reached ends the process at start: status 2 and one line naming the
//! URL without its user, password or query values (design §19.1).

#[test]
fn an_unreachable_redis_is_one_line_without_secrets_and_status_2() {
    let url = "redis://app:sl%2Fa%40sh%3Ax@127.0.0.1:1/0?password=S3cret";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_travel"))
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
    let shown = "travel: cannot reach Redis at redis://***:***@127.0.0.1:1/0?password=***: ";
    assert!(lines[0].starts_with(shown), "{err}");
    for secret in ["app", "sl", "%2F", "S3cret"] {
        assert!(!lines[0].contains(secret), "{secret} in {err}");
    }
}
