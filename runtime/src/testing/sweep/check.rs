//! What is wrong with one call: undeclared or unadvertised questions, wrong errors.

use super::plan::{Plan, Run, Target, What};
use super::report::Client;
use super::{Answering, Call, CapabilitySet, Direction, Frame};
use crate::protocol::{ClientCapabilities, Error, code};
use crate::question::POLICY_SAYS;
use serde_json::{Value, json};

/// What is wrong with one call, its outcome counted in `run`.
pub(super) fn check(
    target: &Target,
    client: Client,
    outcome: &Result<Result<Call, Error>, tokio::time::error::Elapsed>,
    frames: &[Frame],
    run: &mut Run,
    plan: &Plan,
) -> Vec<String> {
    let mut problems = Vec::new();
    let tally = run.targets.entry(target.name().to_owned()).or_default();
    tally.calls += 1;
    let is_tool = matches!(target.what, What::Tool { .. });
    match outcome {
        Err(_) => problems.push(format!("no answer within {:?}", plan.call_timeout)),
        Ok(Ok(call)) if call.input_required() || is_unfinished_task(call) => tally.unfinished += 1,
        Ok(Ok(call)) if call.is_error() => tally.errors += 1,
        Ok(Ok(_)) => tally.results += 1,
        Ok(Err(e)) if e.code == code::MISSING_REQUIRED_CLIENT_CAPABILITY => {
            tally.refused += 1;
            if let Some(lie) = claims_missing(e, client.declared) {
                problems.push(lie);
            }
        }
        Ok(Err(e)) => {
            tally.failed += 1;
            let generated = match &target.what {
                What::Tool { name, .. } => !plan.tool_arguments.contains_key(name),
                What::Prompt { name, .. } => !plan.prompt_arguments.contains_key(name),
                What::Resource { .. } => false,
            };
            // A prompt or a resource has no `isError`: an error is how it says no, so it is
            // wrong only when the client accepted every question.
            let wrong = is_tool || client.answering == Answering::Accept;
            if wrong {
                let mut why = format!("answered with error {}: {}", e.code, e.message);
                if e.code == code::INVALID_PARAMS && generated {
                    why.push_str(" (the sweep made the arguments from the schema: give it ones that fit with `.arguments(..)` or `.prompt_arguments(..)`)");
                }
                problems.push(why);
            }
        }
    }
    let asks = target.asks.as_deref();
    for (key, request) in questions(frames) {
        *tally
            .asked
            .entry(
                key.clone()
                    .unwrap_or_else(|| request["method"].as_str().unwrap_or_default().to_owned()),
            )
            .or_default() += 1;
        if let Err(why) = client.declared.permits(&request) {
            problems.push(why);
        }
        if let (Some(key), Some(asks)) = (&key, asks)
            && let Some(why) = unadvertised(key, &request, asks)
        {
            problems.push(why);
        }
    }
    problems
}

/// Why a `-32021` is wrong: it names a capability the client declared.
pub(super) fn claims_missing(e: &Error, declared: CapabilitySet) -> Option<String> {
    if e.message.ends_with(POLICY_SAYS) {
        return None;
    }
    let named = e.data.as_ref().map(|d| d["requiredCapabilities"].clone());
    let required: ClientCapabilities = named
        .and_then(|r| serde_json::from_value(r).ok())
        .unwrap_or_default();
    let declared_caps = declared.capabilities();
    match declared_caps.missing(&required) {
        Some(_) => None,
        None if required == ClientCapabilities::default() => Some(format!(
            "-32021 without the capabilities it requires: {}",
            e.data
                .as_ref()
                .map_or("no data".to_owned(), Value::to_string)
        )),
        None => Some(format!(
            "-32021 names capabilities the client declared: {}",
            serde_json::to_string(&required).unwrap_or_default()
        )),
    }
}

/// Why the asked `request` under `key` is not what the tool advertises, if so.
pub(super) fn unadvertised(key: &str, request: &Value, asks: &[Value]) -> Option<String> {
    let Some(entry) = asks.iter().find(|a| a["key"] == key) else {
        let listed: Vec<&str> = asks.iter().filter_map(|a| a["key"].as_str()).collect();
        return Some(format!(
            "asked `{key}`, which its listing does not advertise (it lists {listed:?})"
        ));
    };
    let method = request["method"].as_str().unwrap_or_default();
    let (kind, mode) = match method {
        "elicitation/create" => (
            "elicitation",
            request["params"]["mode"].as_str().or(Some("form")),
        ),
        "sampling/createMessage" => ("sampling", None),
        "roots/list" => ("roots", None),
        _ => (method, None),
    };
    let same = entry["kind"] == kind && entry["mode"].as_str() == mode;
    (!same).then(|| {
        format!("asked `{key}` as `{method}` {mode:?}, but its listing advertises it as {entry}")
    })
}

/// Every question in `frames`: 2026-07-28 input requests (with their key) and 2025-11-25
/// requests from the server (without), each as `{method, params}`. A task's question counts
/// once however many polls of `tasks/get` show it, under its key as the code asks it (a task
/// asks a question again under `key~2`, `key~3`, ...).
pub(super) fn questions(frames: &[Frame]) -> Vec<(Option<String>, Value)> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for f in frames.iter().filter(|f| f.direction == Direction::Received) {
        let m = &f.message;
        if m.get("id").is_some() && m.get("method").is_some() {
            out.push((None, json!({"method": m["method"], "params": m["params"]})));
        }
        let task = m["result"].get("taskId").is_some();
        let asked = m["result"]["inputRequests"]
            .as_object()
            .into_iter()
            .flatten();
        for (key, req) in asked {
            if !task {
                out.push((Some(key.clone()), req.clone()));
            } else if seen.insert(key.clone()) {
                out.push((Some(asked_as(key).to_owned()), req.clone()));
            }
        }
    }
    out
}

/// The key a task's wire key `key~N` stands for (`N` at least 2: the task's re-asks).
fn asked_as(key: &str) -> &str {
    match key.rsplit_once('~') {
        Some((base, n)) if n.parse::<u32>().is_ok_and(|n| n >= 2) && !base.is_empty() => base,
        _ => key,
    }
}

/// The last 24 frames, one line each, cut at 400 characters.
pub(super) fn transcript(frames: &[Frame]) -> Vec<String> {
    let skip = frames.len().saturating_sub(24);
    frames[skip..]
        .iter()
        .map(|f| {
            let arrow = match f.direction {
                Direction::Sent => "->",
                Direction::Received => "<-",
            };
            let mut line: String = f.line.chars().take(400).collect();
            if line.len() < f.line.len() {
                line.push('…');
            }
            format!("{arrow} {line}")
        })
        .collect()
}

/// Whether a followed task's end is its last `tasks/get` rather than its result: the client
/// stopped following it (or it was cancelled).
pub(super) fn is_unfinished_task(call: &Call) -> bool {
    call.result.get("taskId").is_some() && call.result.get("status").is_some()
}
