//! The server's own model provider, for when the client cannot sample: a command that reads the
//! prompt on stdin and writes the answer on stdout, an HTTP endpoint that takes the prompt as
//! JSON and answers with the text, or a built-in fake (deterministic, for tests and the demo).
//! Configured with `TRAVEL_MODEL_PROVIDER`: `fake`, `http://HOST:PORT/PATH`, or a command line.

use crate::web;
use serde_json::json;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A provider gets this long to answer; then the flight search ranks instead.
pub const PROVIDER_TIMEOUT: Duration = Duration::from_secs(30);

/// The most of a provider's answer that is read (a model's picks are a few hundred bytes).
pub const MAX_ANSWER_BYTES: u64 = 64 * 1024;

/// Where the server's own model is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelProvider {
    /// A program and its arguments (split on whitespace); the prompt goes to its stdin, the
    /// answer is its stdout.
    Command(Vec<String>),
    /// An endpoint that takes `POST {"system": .., "prompt": ..}` and answers with the text
    /// (plain HTTP; put a local proxy in front of a remote provider).
    Http(String),
    /// A built-in stand-in: the three cheapest flights of the prompt's list with the fewest
    /// stops, as JSON. For tests and the demo; it is not a model.
    Fake,
}

impl ModelProvider {
    /// Reads `TRAVEL_MODEL_PROVIDER`'s value.
    pub fn parse(value: &str) -> Result<Self, String> {
        let v = value.trim();
        if v.is_empty() {
            return Err("empty: give `fake`, an http:// URL or a command".into());
        }
        if v == "fake" {
            return Ok(ModelProvider::Fake);
        }
        if v.starts_with("http://") {
            return Ok(ModelProvider::Http(v.to_owned()));
        }
        if v.starts_with("https://") {
            return Err("https:// is not supported: put a local http:// proxy in front".into());
        }
        Ok(ModelProvider::Command(
            v.split_whitespace().map(Into::into).collect(),
        ))
    }

    /// The provider's answer to `prompt` with this system prompt, within [`PROVIDER_TIMEOUT`].
    pub async fn complete(&self, system: &str, prompt: &str) -> Result<String, String> {
        let answer = async {
            match self {
                ModelProvider::Fake => Ok(fake(prompt)),
                ModelProvider::Http(url) => {
                    let body = json!({"system": system, "prompt": prompt}).to_string();
                    let (status, text) = web::post_json(url, &body, MAX_ANSWER_BYTES)
                        .await
                        .map_err(|e| format!("{url}: {e}"))?;
                    match status {
                        200 => Ok(text),
                        s => Err(format!("{url} answered HTTP {s}")),
                    }
                }
                ModelProvider::Command(argv) => run(argv, &format!("{system}\n\n{prompt}")).await,
            }
        };
        tokio::time::timeout(PROVIDER_TIMEOUT, answer)
            .await
            .map_err(|_| format!("no answer within {} s", PROVIDER_TIMEOUT.as_secs()))?
    }
}

async fn run(argv: &[String], input: &str) -> Result<String, String> {
    let (program, args) = argv.split_first().ok_or("no command")?;
    let mut child = tokio::process::Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("{program}: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    stdin
        .write_all(input.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    drop(stdin);
    let mut out = Vec::new();
    let stdout = child.stdout.take().ok_or("no stdout")?;
    stdout
        .take(MAX_ANSWER_BYTES)
        .read_to_end(&mut out)
        .await
        .map_err(|e| e.to_string())?;
    let status = child.wait().await.map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("{program} exited with {status}"));
    }
    String::from_utf8(out).map_err(|_| format!("{program} wrote something that is not UTF-8"))
}

/// The fake provider: reads the prompt's flight lines back (`BCN05 ... , $660`), keeps the
/// three with the fewest stops and the lowest price, and answers with them as JSON.
fn fake(prompt: &str) -> String {
    let mut offers: Vec<(u32, u32, &str)> = prompt
        .lines()
        .filter(|l| l.starts_with("BCN"))
        .filter_map(|l| {
            let id = l.split_whitespace().next()?;
            let price = l.rsplit_once('$')?.1.trim().parse().ok()?;
            let stops = if l.contains(" nonstop,") {
                0
            } else {
                (l.matches(',').count() as u32).saturating_sub(2)
            };
            Some((stops, price, id))
        })
        .collect();
    offers.sort();
    let picks: Vec<_> = offers
        .iter()
        .take(3)
        .map(|(stops, price, id)| {
            json!({"flight_id": id, "reason": format!("The server's model: {stops} stop(s) for ${price}.")})
        })
        .collect();
    json!({ "picks": picks }).to_string()
}
