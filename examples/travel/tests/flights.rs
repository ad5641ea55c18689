//! `find_best_flight` through the test client at both revisions: the client's model answers
//! (JSON in text, or through the `submit_picks` tool for a client with `sampling.tools`),
//! answers garbage or is rejected, or is absent; and each fallback: the ranking, the server's
//! own model provider (the built-in fake), and every candidate for the host's model.

use crate::common;

use common::*;
use rondo_example_travel::Config;
use rondo_example_travel::pick::FlightFallback;
use rondo_example_travel::provider::ModelProvider;
use rondo_mcp::protocol::{Error, Revision};
use rondo_mcp::testing::{Reply, Script};
use serde_json::{Value, json};

fn args(morning: bool, max_stops: u32) -> Value {
    json!({"destination": "Barcelona", "month": "2027-06", "morning_departure": morning, "max_stops": max_stops})
}

fn ids(result: &Value) -> Vec<String> {
    let picks = result["structuredContent"]["picks"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    picks
        .iter()
        .map(|p| p["flight"]["id"].as_str().unwrap().to_owned())
        .collect()
}

fn chosen_by(result: &Value) -> &str {
    result["structuredContent"]["chosen_by"].as_str().unwrap()
}

const MODEL: &str = r#"Here are my picks:
```json
{"picks": [{"flight_id": "BCN39", "reason": "Cheapest nonstop."}, {"flight_id": "BCN05", "reason": "Also cheap."}, {"flight_id": "BCN41", "reason": "From Miami."}]}
```"#;

#[tokio::test]
async fn the_clients_model_picks_three_with_reasons() {
    for rev in BOTH {
        let (server, _) = travel(Config::default()).await;
        let sampling = caps(json!({"sampling": {}}));
        let script = Script::new().sample(Reply::sample_text(MODEL));
        let c = client(server, rev, sampling, script).await;
        let call = c
            .call_tool("find_best_flight", args(false, 0))
            .await
            .unwrap();
        assert!(!call.is_error(), "{rev}: {}", call.text());
        assert_eq!(ids(&call.result), ["BCN39", "BCN05", "BCN41"], "{rev}");
        assert_eq!(chosen_by(&call.result), "client_model");
        assert_eq!(
            call.result["structuredContent"]["picks"][0]["reason"],
            "Cheapest nonstop."
        );
        let asked = asked(&c);
        assert_eq!(asked.len(), 1, "{rev}: asked once");
        let (method, params) = &asked[0];
        assert_eq!(method, "sampling/createMessage");
        let prompt = params["messages"][0]["content"]["text"].as_str().unwrap();
        assert_eq!(
            prompt.lines().filter(|l| l.starts_with("BCN")).count(),
            24,
            "{rev}: the nonstop candidates"
        );
        assert!(
            params["systemPrompt"]
                .as_str()
                .unwrap()
                .contains("JSON Schema")
        );
        assert!(
            params.get("tools").is_none(),
            "{rev}: no tools without sampling.tools"
        );
        if rev.is_modern() {
            assert_eq!(call.rounds, 2);
        }
    }
}

#[tokio::test]
async fn a_client_with_sampling_tools_answers_through_submit_picks() {
    for rev in BOTH {
        let (server, _) = travel(Config::default()).await;
        let reply = Reply::Raw(json!({
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "u1", "name": "submit_picks",
                         "input": {"picks": [{"flight_id": "BCN22", "reason": "Morning, nonstop, cheap."}]}}],
            "model": "test-model",
            "stopReason": "toolUse"
        }));
        let with_tools = caps(json!({"sampling": {"tools": {}}}));
        let c = client(server, rev, with_tools, Script::new().sample(reply)).await;
        let call = c
            .call_tool("find_best_flight", args(true, 1))
            .await
            .unwrap();
        assert_eq!(ids(&call.result), ["BCN22"], "{rev}");
        assert_eq!(chosen_by(&call.result), "client_model");
        let (_, params) = &asked(&c)[0];
        assert_eq!(params["tools"][0]["name"], "submit_picks", "{rev}");
        assert_eq!(params["toolChoice"], json!({"mode": "required"}));
    }
}

#[tokio::test]
async fn without_sampling_the_ranking_answers_and_nothing_is_asked() {
    for rev in BOTH {
        for declared in [
            nothing(),
            caps(json!({"elicitation": {"form": {}, "url": {}}, "roots": {}})),
        ] {
            let (server, _) = travel(Config::default()).await;
            let c = client(server, rev, declared, Script::new()).await;
            let call = c
                .call_tool("find_best_flight", args(true, 1))
                .await
                .unwrap();
            assert_eq!(ids(&call.result), ["BCN22", "BCN35", "BCN37"], "{rev}");
            assert_eq!(chosen_by(&call.result), "ranking");
            assert_eq!(call.rounds, 1);
            assert!(asked(&c).is_empty(), "{rev}: never asked");
        }
    }
}

#[tokio::test]
async fn garbage_prose_and_invented_flights_fall_back_to_the_ranking() {
    let answers = [
        Reply::sample_text("I would take the morning one, it is lovely."),
        Reply::sample_text("{\"picks\": [{\"flight_id\": \"XX999\", \"reason\": \"made up\"}]}"),
        Reply::Raw(
            json!({"role": "assistant", "content": {"type": "text", "text": "{"}, "model": "m"}),
        ),
    ];
    for rev in BOTH {
        for answer in answers.clone() {
            let (server, _) = travel(Config::default()).await;
            let c = client(
                server,
                rev,
                caps(json!({"sampling": {}})),
                Script::new().sample(answer),
            )
            .await;
            let call = c
                .call_tool("find_best_flight", args(true, 1))
                .await
                .unwrap();
            assert_eq!(ids(&call.result), ["BCN22", "BCN35", "BCN37"], "{rev}");
            assert_eq!(chosen_by(&call.result), "ranking");
            assert_eq!(asked(&c).len(), 1, "{rev}: asked once, not again");
        }
    }
}

#[tokio::test]
async fn a_rejected_sampling_request_falls_back_on_2025() {
    let (server, _) = travel(Config::default()).await;
    let reject = Reply::Error(Error::new(-1, "User rejected sampling request"));
    let c = client(
        server,
        Revision::V2025_11_25,
        caps(json!({"sampling": {}})),
        Script::new().sample(reject),
    )
    .await;
    let call = c
        .call_tool("find_best_flight", args(false, 0))
        .await
        .unwrap();
    assert_eq!(ids(&call.result), ["BCN39", "BCN05", "BCN22"]);
}

#[tokio::test]
async fn the_servers_own_model_provider_is_the_async_fallback() {
    for rev in BOTH {
        let config = Config {
            fallback: FlightFallback::Provider(ModelProvider::Fake),
            ..Config::default()
        };
        let (server, _) = travel(config).await;
        let c = client(server, rev, nothing(), Script::new()).await;
        let call = c
            .call_tool("find_best_flight", args(false, 1))
            .await
            .unwrap();
        assert_eq!(chosen_by(&call.result), "server_model", "{rev}");
        assert_eq!(ids(&call.result), ["BCN39", "BCN05", "BCN22"]);
        let reason = call.result["structuredContent"]["picks"][0]["reason"]
            .as_str()
            .unwrap();
        assert_eq!(reason, "The server's model: 0 stop(s) for $640.");
    }
}

#[tokio::test]
async fn a_failing_provider_falls_back_to_the_ranking() {
    let config = Config {
        fallback: FlightFallback::Provider(ModelProvider::Command(vec!["false".into()])),
        ..Config::default()
    };
    let (server, _) = travel(config).await;
    let c = client(server, Revision::V2026_07_28, nothing(), Script::new()).await;
    let call = c
        .call_tool("find_best_flight", args(true, 1))
        .await
        .unwrap();
    assert_eq!(chosen_by(&call.result), "ranking");
    assert_eq!(ids(&call.result), ["BCN22", "BCN35", "BCN37"]);
}

#[tokio::test]
async fn a_command_provider_reads_the_prompt_and_answers() {
    // `sh -c` stands in for a model: it answers with the first flight id of its stdin.
    let script = "read -r _; id=$(grep -o '^BCN[0-9]*' | head -n 1); \
                  printf '{\"picks\": [{\"flight_id\": \"%s\", \"reason\": \"first listed\"}]}' \"$id\"";
    let provider = ModelProvider::Command(vec!["sh".into(), "-c".into(), script.into()]);
    let config = Config {
        fallback: FlightFallback::Provider(provider),
        ..Config::default()
    };
    let (server, _) = travel(config).await;
    let c = client(server, Revision::V2025_11_25, nothing(), Script::new()).await;
    let call = c
        .call_tool("find_best_flight", args(false, 0))
        .await
        .unwrap();
    assert_eq!(
        (chosen_by(&call.result), ids(&call.result)),
        ("server_model", vec!["BCN01".to_owned()])
    );
}

#[tokio::test]
async fn the_host_mode_ends_the_tool_with_every_candidate() {
    for rev in BOTH {
        let config = Config {
            fallback: FlightFallback::Host,
            ..Config::default()
        };
        let (server, _) = travel(config).await;
        let c = client(server, rev, nothing(), Script::new()).await;
        let call = c
            .call_tool("find_best_flight", args(true, 1))
            .await
            .unwrap();
        assert!(!call.is_error(), "{rev}");
        let s = &call.result["structuredContent"];
        assert_eq!(s["chosen_by"], "host_model");
        assert_eq!(s["picks"], json!([]));
        assert_eq!(
            s["candidates"].as_array().unwrap().len(),
            45,
            "{rev}: every flight with at most 1 stop"
        );
        // With sampling the client's model still answers first.
        let (server, _) = travel(Config {
            fallback: FlightFallback::Host,
            ..Config::default()
        })
        .await;
        let c = client(
            server,
            rev,
            caps(json!({"sampling": {}})),
            Script::new().sample(Reply::sample_text(MODEL)),
        )
        .await;
        let call = c
            .call_tool("find_best_flight", args(false, 0))
            .await
            .unwrap();
        assert_eq!(chosen_by(&call.result), "client_model");
    }
}

#[tokio::test]
async fn a_search_with_no_flights_is_a_tool_error_and_asks_nothing() {
    for rev in BOTH {
        let (server, _) = travel(Config::default()).await;
        let c = client(server, rev, everything(), Script::new()).await;
        let mut a = args(false, 0);
        a["month"] = json!("2027-07");
        let call = c.call_tool("find_best_flight", a).await.unwrap();
        assert!(call.is_error(), "{rev}");
        assert!(call.text().contains("2027-06"), "{}", call.text());
        assert!(asked(&c).is_empty());
    }
}

#[tokio::test]
async fn the_tool_publishes_its_output_schema() {
    let (server, _) = travel(Config::default()).await;
    let c = client(server, Revision::V2026_07_28, nothing(), Script::new()).await;
    let tools = c.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "find_best_flight",
            "book_trip",
            "pay_for_trip",
            "trip_files"
        ]
    );
    let t = serde_json::to_value(&tools[0]).unwrap();
    assert_eq!(t["outputSchema"]["properties"]["picks"]["type"], "array");
    let required = t["inputSchema"]["required"].as_array().unwrap();
    assert_eq!(required.len(), 4);
}

#[tokio::test]
async fn an_http_provider_gets_the_prompt_as_json_and_answers_with_text() {
    use http_body_util::{BodyExt, Full};
    use hyper::body::{Bytes, Incoming};
    // A stand-in model endpoint: it answers with the last flight id of the prompt it got.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1/complete", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let (stream, _) = listener.accept().await.unwrap();
        let service = hyper::service::service_fn(|req: hyper::Request<Incoming>| async move {
            assert_eq!(req.uri().path(), "/v1/complete");
            let body = req.into_body().collect().await.unwrap().to_bytes();
            let sent: Value = serde_json::from_slice(&body).unwrap();
            assert!(sent["system"].as_str().unwrap().contains("JSON Schema"));
            let last = sent["prompt"]
                .as_str()
                .unwrap()
                .lines()
                .last()
                .unwrap()
                .to_owned();
            let id = last.split_whitespace().next().unwrap().to_owned();
            let answer = json!({"picks": [{"flight_id": id, "reason": "last listed"}]});
            Ok::<_, std::convert::Infallible>(hyper::Response::new(Full::new(Bytes::from(
                answer.to_string(),
            ))))
        });
        let io = hyper_util::rt::TokioIo::new(stream);
        hyper::server::conn::http1::Builder::new()
            .serve_connection(io, service)
            .await
            .unwrap();
    });
    let config = Config {
        fallback: FlightFallback::Provider(ModelProvider::parse(&url).unwrap()),
        ..Config::default()
    };
    let (server, _) = travel(config).await;
    let c = client(server, Revision::V2026_07_28, nothing(), Script::new()).await;
    let call = c
        .call_tool("find_best_flight", args(false, 0))
        .await
        .unwrap();
    assert_eq!(
        (chosen_by(&call.result), ids(&call.result)),
        ("server_model", vec!["BCN42".to_owned()])
    );
}

#[test]
fn the_provider_setting_reads_fake_http_or_a_command() {
    assert_eq!(ModelProvider::parse("fake"), Ok(ModelProvider::Fake));
    assert_eq!(
        ModelProvider::parse("http://127.0.0.1:9/x"),
        Ok(ModelProvider::Http("http://127.0.0.1:9/x".into()))
    );
    assert_eq!(
        ModelProvider::parse("llm -m small"),
        Ok(ModelProvider::Command(vec![
            "llm".into(),
            "-m".into(),
            "small".into()
        ]))
    );
    assert!(ModelProvider::parse("https://api.example.com").is_err());
    assert!(ModelProvider::parse("  ").is_err());
}
