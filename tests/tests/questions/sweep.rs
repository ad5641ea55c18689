//! `testing::Sweep` over the asking servers of these tests and the conformance example (every
//! tool under every combination of capabilities each revision has, every revision, five ways
//! of answering), and the sweep itself: it fails on a peer that asks what the client did not declare, on a tool
//! that errs, and on one that hangs; it follows a tool that runs only as a task through its
//! task at 2026-07-28 and checks what the task asks.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Cursor, JsonObject, Page, Revision};
use rondo_mcp::testing::{Answering, CapabilitySet, Report, Sweep};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_question_servers_ask_only_what_each_client_declared() {
    let report = Sweep::new(|| {
        rondo_tests::questions::server(rondo_tests::questions::Payments::paid_after(0))
    })
    .run()
    .await;
    assert!(report.calls() > 1000, "{report}");
    // Every advertised question was put to some client, and each way of answering reached
    // the tools: some calls ended in a result, some in -32021 (a refuse fallback).
    assert_eq!(
        report.never_asked(),
        Vec::<(String, String)>::new(),
        "{report}"
    );
    let refused: usize = ["buy", "checkout"]
        .iter()
        .filter_map(|t| report.outcomes(t))
        .map(|o| o.refused)
        .sum();
    assert!(refused > 0, "{report}");

    Sweep::new(rondo_tests::sampling::server).run().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_conformance_server_asks_only_what_each_client_declared() {
    let report = Sweep::new(|| Server::new(rondo_example_conformance::router()))
        .arguments("slow_compute", json!({"seconds": 0}))
        // The conformance suite's job that fails with a JSON-RPC error on purpose.
        .skip("protocol_error_job")
        // Its argument becomes an embedded resource's URI.
        .prompt_arguments(
            "test_prompt_with_embedded_resource",
            json!({"resourceUri": "test://sweep"}),
        )
        .run()
        .await;
    assert!(report.calls() > 1000, "{report}");
    // `failing_job` runs only as a task: at the handshake revisions (200 clients) it is
    // refused (-32021, the tasks extension), at 2026-07-28 (120) followed as a task to its
    // isError result.
    let job = report.outcomes("failing_job").expect("swept");
    assert_eq!(
        (job.calls, job.tasks, job.refused, job.errors),
        (320, 120, 200, 120),
        "{report}"
    );
    // `test_tool_with_task` asks by rounds first, then starts its task.
    let rounds_then_task = report.outcomes("test_tool_with_task").expect("swept");
    assert_eq!(rounds_then_task.tasks, 120, "{report}");
    assert!(
        report.asked("test_tool_with_task", "user_name") > 0,
        "{report}"
    );
    assert!(
        report.skipped().iter().all(|s| s == "protocol_error_job"),
        "{report}"
    );
}

/// A peer written by hand, as a server with no framework would be: it lists one tool and,
/// whatever the client declared, asks for a sampling completion (2026-07-28: in an
/// `InputRequiredResult`; 2025-11-25: as a request) before it answers.
async fn careless_peer(io: DuplexStream) {
    let (r, mut w) = tokio::io::split(io);
    let mut lines = BufReader::new(r).lines();
    let mut asked = 0;
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(msg) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let (id, method) = (
            msg["id"].clone(),
            msg["method"].as_str().unwrap_or_default(),
        );
        let modern = msg["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"].is_string();
        let envelope = |mut result: Value| {
            if modern {
                result["resultType"] = json!("complete");
            }
            result
        };
        let sample = json!({"method": "sampling/createMessage", "params": {
            "messages": [{"role": "user", "content": {"type": "text", "text": "Summarise"}}],
            "maxTokens": 50}});
        let answer = match method {
            "initialize" => json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                "serverInfo": {"name": "careless", "version": "1"}}),
            "tools/list" => {
                let mut r = envelope(json!({"tools": [{"name": "summarise",
                    "inputSchema": {"type": "object"}}]}));
                if modern {
                    r["ttlMs"] = json!(0);
                    r["cacheScope"] = json!("private");
                }
                r
            }
            "tools/call" if modern && msg["params"].get("inputResponses").is_none() => json!({
                "resultType": "input_required", "inputRequests": {"summary": sample}}),
            "tools/call" if !modern => {
                asked += 1;
                let ask = json!({"jsonrpc": "2.0", "id": format!("s{asked}"),
                    "method": "sampling/createMessage", "params": sample["params"]});
                w.write_all(format!("{ask}\n").as_bytes()).await.unwrap();
                envelope(json!({"content": [{"type": "text", "text": "Done."}]}))
            }
            "tools/call" => envelope(json!({"content": [{"type": "text", "text": "Done."}]})),
            _ if id.is_null() || msg.get("method").is_none() => continue,
            _ if modern => envelope(json!({})),
            _ => json!({}),
        };
        let reply = json!({"jsonrpc": "2.0", "id": id, "result": answer});
        w.write_all(format!("{reply}\n").as_bytes()).await.unwrap();
    }
}

/// A sweep of the careless peer under a few combinations.
async fn sweep_careless() -> Report {
    Sweep::over_io(|| {
        let (client, peer) = tokio::io::duplex(1 << 16);
        tokio::spawn(careless_peer(peer));
        tokio::io::split(client)
    })
    .declared([
        CapabilitySet::NONE,
        CapabilitySet {
            form: true,
            ..CapabilitySet::NONE
        },
        CapabilitySet {
            sampling: true,
            ..CapabilitySet::NONE
        },
    ])
    .answering([Answering::Accept])
    .collect()
    .await
}

#[tokio::test]
async fn the_sweep_fails_a_server_that_asks_without_checking() {
    let report = sweep_careless().await;
    let undeclared: Vec<_> = report
        .findings()
        .iter()
        .filter(|f| {
            f.problem
                .contains("`sampling/createMessage` sent to a client that did not declare sampling")
        })
        .collect();
    // Two of the three combinations lack sampling, at each of the two revisions.
    assert_eq!(undeclared.len(), 4, "{report}");
    for revision in [Revision::V2026_07_28, Revision::V2025_11_25] {
        assert!(
            undeclared.iter().any(|f| f.client.revision == revision),
            "{report}"
        );
    }
    for f in &undeclared {
        assert_eq!(f.target, "summarise");
        assert!(!f.client.declared.sampling);
        assert!(
            f.transcript
                .iter()
                .any(|l| l.contains("sampling/createMessage")),
            "{f}"
        );
    }
    // The report names the target, the client and the problem.
    let text = report.to_string();
    assert!(
        text.contains("`summarise`, for a 2026-07-28 client declaring {} that answers by accept"),
        "{text}"
    );
}

#[tokio::test]
#[should_panic(expected = "sent to a client that did not declare sampling")]
async fn run_panics_with_the_findings() {
    Sweep::over_io(|| {
        let (client, peer) = tokio::io::duplex(1 << 16);
        tokio::spawn(careless_peer(peer));
        tokio::io::split(client)
    })
    .declared([CapabilitySet::NONE])
    .answering([Answering::Accept])
    .run()
    .await;
}

/// A hand-written handler with one tool that fails with a JSON-RPC error and one that never
/// ends.
struct Faulty;

impl Handler for Faulty {
    fn info(&self) -> ServerInfo {
        ServerInfo::new("faulty", "1").with_tools()
    }
    async fn list_tools(&self, _cx: &Cx, _cursor: Option<&Cursor>) -> Result<Page<Tool>, Error> {
        Ok(vec![
            Tool::new("broken", "Fails", Tool::no_arguments()),
            Tool::new("stuck", "Never answers", Tool::no_arguments()),
        ]
        .into())
    }
    async fn call_tool(
        &self,
        _cx: &Cx,
        name: &str,
        _args: &JsonObject,
    ) -> Result<CallToolResult, Error> {
        match name {
            "broken" => Err(Error::internal("the database is gone")),
            _ => std::future::pending().await,
        }
    }
}

#[tokio::test]
async fn the_sweep_fails_a_tool_that_errs_or_hangs() {
    let report = Sweep::new(|| Server::new(Faulty))
        .declared([CapabilitySet::NONE])
        .answering([Answering::Accept])
        .call_timeout(Duration::from_millis(300))
        .collect()
        .await;
    let problems: Vec<(&str, &str)> = report
        .findings()
        .iter()
        .map(|f| (f.target.as_str(), f.problem.as_str()))
        .collect();
    // Both tools fail for the one client of each of the five revisions.
    let per_client = [
        ("broken", "answered with error -32603: the database is gone"),
        ("stuck", "no answer within 300ms"),
    ];
    assert_eq!(problems, per_client.repeat(5), "{report}");
}

#[tokio::test]
async fn a_host_the_client_policy_narrows_is_never_asked_for_a_form() {
    use rondo_mcp::protocol::Implementation;
    use rondo_mcp::{Capability, ClientPolicy, ClientRule};
    let policy = || {
        ClientPolicy::new()
            .rule(ClientRule::named("Forgetful Host").remove(Capability::Elicitation))
    };
    let server = move || {
        rondo_tests::questions::server(rondo_tests::questions::Payments::paid_after(0))
            .client_policy(policy())
    };
    let host = Sweep::new(server)
        .client_info(Implementation::new("Forgetful Host", "3.1"))
        .answering([Answering::Accept])
        .run()
        .await;
    // Every client of that name, whatever it declared, went without a form: every asking
    // target fell back at once (a `refuse` fallback as -32021).
    let forms: usize = [
        "buy",
        "welcome",
        "nickname_pair",
        "introduce",
        "guests://secret",
    ]
    .iter()
    .map(|t| {
        host.outcomes(t)
            .map_or(0, |o| o.asked.values().sum::<usize>())
    })
    .sum();
    assert_eq!(forms, 0, "{host}");
    // One client per capability set each revision can declare: 24 + 24 + 8 + 4 + 4.
    assert_eq!(host.outcomes("buy").map(|o| o.refused), Some(64), "{host}");
    // Another host is asked as before.
    let other = Sweep::new(server)
        .client_info(Implementation::new("Attentive Host", "3.1"))
        .answering([Answering::Accept])
        .run()
        .await;
    assert!(other.asked("buy", "confirm") > 0, "{other}");
}

/// A templated resource that asks before it is read, and knows only the vault `A1`.
#[rondo_mcp::resource("vault://{id}/secret", mime_type = "text/plain", asks = [confirm])]
async fn vault(cx: &Cx, id: String) -> Result<ResourceContents, Error> {
    match cx.ask(confirm(&id, 0)).await {
        Answer::Accept(c) if c.approve && id == "A1" => Ok(ResourceContents::text(
            format!("vault://{id}/secret"),
            "text/plain",
            "the secret",
        )),
        Answer::Accept(c) if c.approve => Err(Error::invalid_params(format!("no vault {id}"))),
        _ => Err(Error::invalid_params("not confirmed")),
    }
}

use rondo_tests::questions::confirm;

fn vault_server() -> Server<Router> {
    Server::new(Router::new(ServerInfo::new("vault", "1")).resources(rondo_mcp::resources![vault]))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resource_templates_are_read_with_a_uri_made_from_them_or_given() {
    const TEMPLATE: &str = "vault://{id}/secret";
    let report = Sweep::new(vault_server)
        .resource_uri(TEMPLATE, "vault://A1/secret")
        .run()
        .await;
    let o = report.outcomes(TEMPLATE).expect("the template was swept");
    assert_eq!(o.calls, 320, "{report}");
    assert!(report.asked(TEMPLATE, "confirm") > 0, "{report}");
    // Without a URI, `sweep` stands for the id: a vault the resource does not know, so a
    // client that accepts is answered with an error, which the sweep reports.
    let report = Sweep::new(vault_server).collect().await;
    assert!(
        report
            .findings()
            .iter()
            .any(|f| f.target == TEMPLATE && f.to_string().contains("no vault sweep")),
        "{report}"
    );
}

/// A job that runs only as a task and asks, inside it, to confirm (a form; a client that
/// cannot show one gets -32021, which fails the task).
#[rondo_mcp::tool(task = required, asks = [confirm])]
async fn guarded_job(cx: &Cx) -> String {
    match cx.ask(confirm("the job", 0)).await {
        Answer::Accept(c) if c.approve => "done".into(),
        _ => "not done".into(),
    }
}

/// The same, but it also asks, inside its task, a question its listing does not advertise.
#[rondo_mcp::tool(task = required, asks = [confirm])]
async fn sneaky_job(cx: &Cx) -> String {
    let form = rondo_mcp::protocol::ElicitRequest::Form {
        message: "Who are you?".into(),
        requested_schema: serde_json::from_value(json!({"type": "object", "properties": {}}))
            .unwrap(),
    };
    let _ = cx
        .ask_raw(
            "hidden",
            rondo_mcp::protocol::InputRequest::Elicit(form),
            |_| Ok(()),
        )
        .await;
    "asked".into()
}

fn jobs() -> Server<Router> {
    Server::new(
        Router::new(ServerInfo::new("jobs", "1")).tools(rondo_mcp::tools![guarded_job, sneaky_job]),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_that_runs_only_as_a_task_is_followed_through_its_task() {
    let report = Sweep::new(jobs).skip("sneaky_job").run().await;
    let o = report.outcomes("guarded_job").expect("swept");
    // 320 clients: the 120 of 2026-07-28 call it again declaring the tasks extension and
    // follow the task; the 200 of the handshake revisions are refused (no tasks extension
    // there), and so are the 60 of 2026-07-28 that cannot show the form (the task fails
    // with -32021). Of the 60 that can, accept, decline and cancel end with a result; garbage (asked again
    // until the client's rounds are spent) and silence leave it unfinished, and cancelled.
    assert_eq!(
        (
            o.calls,
            o.tasks,
            o.refused,
            o.results,
            o.unfinished,
            o.failed
        ),
        (320, 120, 260, 36, 24, 0),
        "{report}"
    );
    // Asked once per task whatever the polls showed: once each for 48 clients, and seven
    // times (`confirm`, then again as `confirm~2` ... `confirm~7`) for the 12 that answer
    // garbage.
    assert_eq!(
        report.asked("guarded_job", "confirm"),
        48 + 12 * 7,
        "{report}"
    );
    assert!(
        report.to_string().contains("320 calls (120 as tasks)"),
        "{report}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sweep_fails_a_task_that_asks_what_its_tool_does_not_advertise() {
    let report = Sweep::new(jobs)
        .skip("guarded_job")
        .revisions([Revision::V2026_07_28])
        .declared([CapabilitySet {
            form: true,
            ..CapabilitySet::NONE
        }])
        .answering([Answering::Accept])
        .collect()
        .await;
    let problems: Vec<&str> = report
        .findings()
        .iter()
        .map(|f| f.problem.as_str())
        .collect();
    assert_eq!(
        problems,
        ["asked `hidden`, which its listing does not advertise (it lists [\"confirm\"])"],
        "{report}"
    );
    assert!(
        report.findings()[0]
            .transcript
            .iter()
            .any(|l| l.contains("tasks/get")),
        "{report}"
    );
}
