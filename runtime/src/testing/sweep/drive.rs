//! One client of the sweep: connect, list every target, call each, check each call; a tool
//! that runs only as a task is called again, at 2026-07-28, on a second connection that
//! declares the tasks extension, and its task followed to its end.

use super::check::{check, is_unfinished_task, transcript};
use super::plan::{Dial, Plan, Run, Target, What};
use super::report::{Client, Finding};
use super::{Call, MAX_PAGES, TestClient, expand_template, prompt_arguments, value_for};
use crate::protocol::{Error, TASKS_EXTENSION, code};
use crate::question::advertise::ASKS_META_KEY;
use serde_json::{Value, json};
use std::panic::Location;
use tokio::time::error::Elapsed;

/// How one call ended: in time, or not.
type Outcome = Result<Result<Call, Error>, Elapsed>;

/// One client: connect, list, call every target, check every call.
pub(super) async fn run_one(dial: &Dial, client: Client, plan: &Plan) -> Run {
    let mut run = Run::default();
    let finding = |target: &str, problem: String, transcript: Vec<String>| Finding {
        target: target.to_owned(),
        client,
        problem,
        transcript,
    };
    let c = match connect(dial, client, false, plan).await {
        Ok(c) => c,
        Err(why) => {
            run.findings.push(finding("", why, Vec::new()));
            return run;
        }
    };
    let targets = match tokio::time::timeout(plan.call_timeout, targets(&c, plan, &mut run)).await {
        Ok(Ok(targets)) => targets,
        Ok(Err(e)) => {
            let why = format!("listing failed: {} ({})", e.message, e.code);
            run.findings
                .push(finding("", why, transcript(&c.transcript())));
            return run;
        }
        Err(_) => {
            let why = format!("listing took longer than {:?}", plan.call_timeout);
            run.findings
                .push(finding("", why, transcript(&c.transcript())));
            return run;
        }
    };
    for violation in c.take_violations() {
        run.findings
            .push(finding("", violation.to_string(), Vec::new()));
    }
    // The connection that declares the tasks extension, once a tool needs it.
    let mut tasks: Option<TestClient> = None;
    for target in targets {
        let start = c.transcript_len();
        let (method, params) = match &target.what {
            What::Tool { name, arguments } => {
                ("tools/call", json!({"name": name, "arguments": arguments}))
            }
            What::Prompt { name, arguments } => {
                ("prompts/get", json!({"name": name, "arguments": arguments}))
            }
            What::Resource { uri, .. } => ("resources/read", json!({ "uri": uri })),
        };
        let call = c.call(method, params.clone());
        let mut outcome = tokio::time::timeout(plan.call_timeout, call).await;
        let mut frames = c.transcript_since(start);
        let mut problems = Vec::new();
        let mut as_task = false;
        if client.revision.is_modern() && method == "tools/call" && needs_tasks(&outcome) {
            // A tool that runs only as a task: called again by a client that declares the
            // extension, and followed through `tasks/get` and `tasks/update`.
            if tasks.is_none() {
                match connect(dial, client, true, plan).await {
                    Ok(t) => tasks = Some(t),
                    Err(why) => problems.push(format!("{why} (with the tasks extension)")),
                }
            }
            if let Some(t) = &tasks {
                let start = t.transcript_len();
                let call = as_a_task(t, params, dial.max_rounds);
                outcome = tokio::time::timeout(plan.call_timeout, call).await;
                frames.extend(t.transcript_since(start));
                problems.extend(t.take_violations().iter().map(ToString::to_string));
                as_task = true;
            }
        }
        run.calls += 1;
        let name = target.name().to_owned();
        problems.extend(check(&target, client, &outcome, &frames, &mut run, plan));
        if as_task && let Some(o) = run.targets.get_mut(&name) {
            o.tasks += 1;
        }
        problems.extend(c.take_violations().iter().map(ToString::to_string));
        if !problems.is_empty() {
            let lines = transcript(&frames);
            for problem in problems {
                run.findings.push(finding(&name, problem, lines.clone()));
            }
        }
    }
    run
}

/// One connection of `client` (declaring the tasks extension too, when `tasks`), or why not.
async fn connect(
    dial: &Dial,
    client: Client,
    tasks: bool,
    plan: &Plan,
) -> Result<TestClient, String> {
    match tokio::time::timeout(plan.call_timeout, dial.builder(client, tasks).connect()).await {
        Ok(Ok(c)) => Ok(c),
        Ok(Err(e)) => Err(format!("could not connect: {}", e.message)),
        Err(_) => Err(format!(
            "no answer to `initialize` within {:?}",
            plan.call_timeout
        )),
    }
}

/// Whether the call was refused for want of the tasks extension (`-32021` naming it): the
/// tool runs only as a task.
fn needs_tasks(outcome: &Outcome) -> bool {
    let Ok(Err(e)) = outcome else {
        return false;
    };
    e.code == code::MISSING_REQUIRED_CLIENT_CAPABILITY
        && e.data.as_ref().is_some_and(|d| {
            d["requiredCapabilities"]["extensions"]
                .get(TASKS_EXTENSION)
                .is_some()
        })
}

/// A `tools/call` made by a client that declares the tasks extension: its rounds followed (a
/// tool may ask before it starts its task), then its task, answering what the task asks from
/// the script, at most `max_rounds` `tasks/update`s. A task the client stopped following
/// (still asking, the script silent or its rounds spent) is cancelled, and its last
/// `tasks/get` is the call's end.
async fn as_a_task(t: &TestClient, params: Value, max_rounds: u32) -> Result<Call, Error> {
    let at = Location::caller();
    let call = t.call("tools/call", params).await?;
    let Some(id) = call.task_id().map(str::to_owned) else {
        return Ok(call);
    };
    let end = t.follow_task_within(at, &id, max_rounds).await?;
    if is_unfinished_task(&end) {
        t.tasks_cancel(&id).await?;
    }
    Ok(end)
}

/// The targets `c` lists: tools (with paging), prompts, resources; those left out noted.
pub(super) async fn targets(
    c: &TestClient,
    plan: &Plan,
    run: &mut Run,
) -> Result<Vec<Target>, Error> {
    let mut out = Vec::new();
    // A server without tools does not have `tools/list`.
    let tools = match c.list_tools().await {
        Err(e) if e.code == code::METHOD_NOT_FOUND => Vec::new(),
        listed => listed?,
    };
    for tool in tools {
        if plan.skip.contains(&tool.name) {
            run.skipped.push(tool.name.clone());
            continue;
        }
        let asks = advertised(
            run,
            &tool.name,
            tool.meta.as_ref().and_then(|m| m.get(ASKS_META_KEY)),
        );
        let arguments = plan
            .tool_arguments
            .get(&tool.name)
            .cloned()
            .unwrap_or_else(|| value_for(&Value::Object(tool.input_schema.clone())));
        let what = What::Tool {
            name: tool.name,
            arguments,
        };
        out.push(Target { what, asks });
    }
    for prompt in list(c, "prompts/list", "prompts").await? {
        let Some(name) = prompt["name"].as_str().map(str::to_owned) else {
            continue;
        };
        if plan.skip.contains(&name) {
            run.skipped.push(name);
            continue;
        }
        let arguments = plan
            .prompt_arguments
            .get(&name)
            .cloned()
            .unwrap_or_else(|| prompt_arguments(&prompt));
        let asks = advertised(run, &name, prompt["_meta"].get(ASKS_META_KEY));
        let what = What::Prompt { name, arguments };
        out.push(Target { what, asks });
    }
    for resource in list(c, "resources/list", "resources").await? {
        let Some(uri) = resource["uri"].as_str().map(str::to_owned) else {
            continue;
        };
        if plan.skip.contains(&uri) {
            run.skipped.push(uri);
            continue;
        }
        let asks = advertised(run, &uri, resource["_meta"].get(ASKS_META_KEY));
        let what = What::Resource {
            listed: uri.clone(),
            uri,
        };
        out.push(Target { what, asks });
    }
    for template in list(c, "resources/templates/list", "resourceTemplates").await? {
        let Some(listed) = template["uriTemplate"].as_str().map(str::to_owned) else {
            continue;
        };
        if plan.skip.contains(&listed) {
            run.skipped.push(listed);
            continue;
        }
        let uri = plan
            .resource_uris
            .get(&listed)
            .cloned()
            .unwrap_or_else(|| expand_template(&listed));
        let asks = advertised(run, &listed, template["_meta"].get(ASKS_META_KEY));
        let what = What::Resource { listed, uri };
        out.push(Target { what, asks });
    }
    Ok(out)
}

/// The questions a listing advertises under `ASKS_META_KEY` (`entry`), noted in `run` under
/// `name`.
fn advertised(run: &mut Run, name: &str, entry: Option<&Value>) -> Option<Vec<Value>> {
    let asks = entry.and_then(Value::as_array).cloned()?;
    run.advertised.insert(name.to_owned(), asks.clone());
    Some(asks)
}

/// Every entry of a paged list; nothing when the server does not have the method.
pub(super) async fn list(c: &TestClient, method: &str, field: &str) -> Result<Vec<Value>, Error> {
    let mut items = Vec::new();
    let mut params = json!({});
    for _ in 0..MAX_PAGES {
        let page = match c.request(method, params).await {
            Ok(page) => page,
            Err(e) if e.code == code::METHOD_NOT_FOUND => return Ok(items),
            Err(e) => return Err(e),
        };
        items.extend(page[field].as_array().into_iter().flatten().cloned());
        match page.get("nextCursor") {
            Some(next) => params = json!({ "cursor": next }),
            None => return Ok(items),
        }
    }
    Err(Error::internal(format!(
        "{method} gave more than {MAX_PAGES} pages"
    )))
}
