//! A client that knows nothing of the servers' code sweeps every tool of the asking servers
//! (the question servers of these tests and the conformance example) under every combination
//! of the capabilities a question may need, at both revisions, and checks what the spec
//! requires of every answer: no request the client did not declare (down to the elicitation
//! mode and `sampling.tools`), no internal error, and an answer within the client's timeout.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{
    ElicitationCapability, JsonObject, Revision, Root, SamplingCapability, code,
};
use rondo_mcp::testing::{Direction, Reply, Script, TestClient};
use serde_json::{Value, json};
use std::time::Duration;

/// One combination of declared capabilities.
#[derive(Debug, Clone, Copy)]
struct Declared {
    form: bool,
    url: bool,
    sampling: bool,
    sampling_tools: bool,
    roots: bool,
}

impl Declared {
    /// Every combination (`sampling.tools` only with `sampling`).
    fn all() -> Vec<Declared> {
        let mut out = Vec::new();
        for bits in 0..32u32 {
            let d = Declared {
                form: bits & 1 != 0,
                url: bits & 2 != 0,
                sampling: bits & 4 != 0,
                sampling_tools: bits & 8 != 0,
                roots: bits & 16 != 0,
            };
            if d.sampling || !d.sampling_tools {
                out.push(d);
            }
        }
        out
    }

    fn capabilities(self) -> ClientCapabilities {
        let mut caps = ClientCapabilities::default();
        if self.form || self.url {
            caps.elicitation = Some(ElicitationCapability {
                form: self.form.then(JsonObject::new),
                url: self.url.then(JsonObject::new),
            });
        }
        if self.sampling {
            caps.sampling = Some(SamplingCapability {
                context: None,
                tools: self.sampling_tools.then(JsonObject::new),
            });
        }
        if self.roots {
            caps.roots = Some(JsonObject::new());
        }
        caps
    }

    /// Why the client could not have asked for `request` (`{method, params}`), if so.
    fn refuses(self, request: &Value) -> Option<String> {
        let params = &request["params"];
        let ok = match request["method"].as_str().unwrap_or_default() {
            "elicitation/create" => match params["mode"].as_str().unwrap_or("form") {
                "url" => self.url,
                _ => self.form,
            },
            "sampling/createMessage" => {
                let tools = params.get("tools").is_some() || params.get("toolChoice").is_some();
                self.sampling
                    && (!tools || self.sampling_tools)
                    && params.get("includeContext").is_none_or(|c| c == "none")
            }
            "roots/list" => self.roots,
            _ => false,
        };
        (!ok).then(|| format!("{request} under {self:?}"))
    }
}

/// Arguments for a tool, from its input schema: a value for every required property.
fn arguments(tool: &Tool) -> Value {
    // A sample of its own where a generated one would make the sweep slow: the conformance
    // server's `slow_compute` sleeps `seconds`.
    if tool.name == "slow_compute" {
        return json!({"seconds": 0});
    }
    let props = tool
        .input_schema
        .get("properties")
        .and_then(Value::as_object);
    let required = tool.input_schema.get("required").and_then(Value::as_array);
    let mut args = JsonObject::new();
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        let ty = props
            .and_then(|p| p.get(name))
            .and_then(|p| p.get("type"))
            .and_then(Value::as_str);
        let value = match ty {
            Some("integer") | Some("number") => json!(1),
            Some("boolean") => json!(true),
            Some("array") => json!([]),
            Some("object") => json!({}),
            _ => json!("x"),
        };
        args.insert(name.to_owned(), value);
    }
    Value::Object(args)
}

/// Generic answers: the user says no; the model says something; one root.
fn script() -> Script {
    let mut s = Script::new();
    for _ in 0..64 {
        s = s
            .elicit(Reply::Decline)
            .sample(Reply::sample_text("Nothing to add."))
            .roots(Reply::roots(vec![Root {
                uri: "file:///tmp/sweep".into(),
                name: None,
            }]));
    }
    s
}

/// Every request the server put to the client: 2026-07-28 input requests and 2025-11-25
/// back-channel requests.
fn asked(c: &TestClient) -> Vec<Value> {
    let mut out = Vec::new();
    for f in c.transcript() {
        if f.direction != Direction::Received {
            continue;
        }
        let m = f.message;
        if m.get("id").is_some() && m.get("method").is_some() {
            out.push(json!({"method": m["method"], "params": m["params"]}));
        }
        for (_, req) in m["result"]["inputRequests"]
            .as_object()
            .into_iter()
            .flatten()
        {
            out.push(req.clone());
        }
    }
    out
}

async fn sweep<H: Handler>(name: &str, make: impl Fn() -> Server<H>) {
    let mut calls = 0;
    for rev in [Revision::V2026_07_28, Revision::V2025_11_25] {
        for declared in Declared::all() {
            let c = TestClient::builder(make(), rev)
                .capabilities(declared.capabilities())
                .script(script())
                .timeout(Duration::from_secs(10))
                .max_rounds(6)
                .connect()
                .await
                .expect("connects");
            for tool in c.list_tools().await.unwrap() {
                let outcome = c.call_tool(&tool.name, arguments(&tool)).await;
                calls += 1;
                if let Err(e) = &outcome {
                    assert_ne!(
                        e.code,
                        code::INTERNAL_ERROR,
                        "{name}/{}: internal error {e:?} at {rev} under {declared:?}",
                        tool.name
                    );
                }
            }
            for request in asked(&c) {
                if let Some(why) = declared.refuses(&request) {
                    panic!("{name}: asked what the client did not declare: {why} at {rev}");
                }
            }
        }
    }
    assert!(calls > 100, "{name}: {calls} calls");
}

#[tokio::test]
async fn the_question_servers_ask_only_what_each_client_declared() {
    sweep("questions", || {
        rondo_tests::questions::server(rondo_tests::questions::Payments::paid_after(0))
    })
    .await;
    sweep("sampling", rondo_tests::sampling::server).await;
}

#[tokio::test]
async fn the_conformance_server_asks_only_what_each_client_declared() {
    sweep("conformance", || {
        Server::new(rondo_example_conformance::router())
    })
    .await;
}
