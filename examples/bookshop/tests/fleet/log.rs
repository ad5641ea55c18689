//! nginx's access log (the committed `fleet` format): which instance answered each request,
//! by the client's `X-Request-Id`.

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// One logged request.
#[derive(Debug, Clone)]
pub struct Entry {
    pub status: u16,
    /// Every instance nginx tried, in order (`$upstream_addr`); the last one answered.
    pub tried: Vec<String>,
}

impl Entry {
    /// The instance that answered.
    pub fn served_by(&self) -> Option<&str> {
        self.tried.last().map(String::as_str)
    }
}

/// Parses `$msec $status "$http_x_request_id" "$upstream_addr" "$upstream_status" ...`.
fn parse(line: &str) -> Option<(String, Entry)> {
    let mut quoted = line.split('"');
    let head = quoted.next()?;
    let id = quoted.next()?.to_owned();
    quoted.next()?;
    let addrs = quoted.next()?;
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    let tried = addrs
        .split([',', ':'])
        .map(str::trim)
        .collect::<Vec<_>>()
        // `127.0.0.1:3001, 127.0.0.1:3002`: split on both, then pair host and port again.
        .chunks(2)
        .filter(|hp| hp.len() == 2 && !hp[0].is_empty())
        .map(|hp| format!("{}:{}", hp[0], hp[1]))
        .collect();
    Some((id, Entry { status, tried }))
}

/// Reads the log until every id in `ids` is in it (nginx writes a line when it has answered,
/// so a client may read its answer a moment before the line exists).
pub async fn entries(path: &Path, ids: &[&str]) -> HashMap<String, Entry> {
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let all: HashMap<String, Entry> = text.lines().filter_map(parse).collect();
        let missing: Vec<&&str> = ids.iter().filter(|id| !all.contains_key(**id)).collect();
        if missing.is_empty() {
            return all;
        }
        assert!(
            Instant::now() < end,
            "{} requests not in nginx's access log, e.g. {:?}",
            missing.len(),
            &missing[..missing.len().min(5)]
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[test]
fn a_line_names_every_instance_tried() {
    let (id, e) = parse(
        r#"1764620000.123 200 "t-1-2-0" "127.0.0.1:3001, 127.0.0.1:3002" "502, 200" 0.105 "POST /mcp HTTP/1.1""#,
    )
    .unwrap();
    assert_eq!(id, "t-1-2-0");
    assert_eq!(e.status, 200);
    assert_eq!(e.tried, ["127.0.0.1:3001", "127.0.0.1:3002"]);
    assert_eq!(e.served_by(), Some("127.0.0.1:3002"));
}
