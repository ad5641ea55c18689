//! One client of the sweep: connect, list every target, call each, check each call.

use super::check::{check, transcript};
use super::plan::{Plan, Run, Target, What};
use super::report::{Client, Finding};
use super::{
    MAX_PAGES, TestClient, TestClientBuilder, expand_template, prompt_arguments, value_for,
};
use crate::protocol::{Error, Tool, code};
use crate::question::advertise::ASKS_META_KEY;
use serde_json::{Value, json};

/// One client: connect, list, call every target, check every call.
pub(super) async fn run_one(builder: TestClientBuilder<()>, client: Client, plan: &Plan) -> Run {
    let mut run = Run::default();
    let finding = |target: &str, problem: String, transcript: Vec<String>| Finding {
        target: target.to_owned(),
        client,
        problem,
        transcript,
    };
    let c = match tokio::time::timeout(plan.call_timeout, builder.connect()).await {
        Ok(Ok(c)) => c,
        Ok(Err(e)) => {
            let why = format!("could not connect: {}", e.message);
            run.findings.push(finding("", why, Vec::new()));
            return run;
        }
        Err(_) => {
            let why = format!("no answer to `initialize` within {:?}", plan.call_timeout);
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
        let call = c.call(method, params);
        let outcome = tokio::time::timeout(plan.call_timeout, call).await;
        let frames = c.transcript_since(start);
        run.calls += 1;
        let name = target.name().to_owned();
        let problems = check(&target, client, &outcome, &frames, &mut run, plan);
        let mut problems = problems;
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
        if plan.skip.contains(&tool.name) || task_required(&tool) {
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

/// A tool that can only run as a task: the sweep does not follow tasks.
pub(super) fn task_required(tool: &Tool) -> bool {
    let schema = serde_json::to_value(tool).unwrap_or_default();
    schema["execution"]["taskSupport"] == "required"
}
