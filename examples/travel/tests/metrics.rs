//! The question figures on the Prometheus endpoint (`travel --http --metrics ADDR`): after a
//! scripted run they count exactly the questions, answers and fallbacks that run took, and
//! after a sweep of every 2026-07-28 client they count each question as often as the sweep's
//! clients saw it. Its own test binary: the recorder is the process's.

mod common;

use common::{caps, nothing, travel};
use rondo_example_travel::{Config, web};
use rondo_mcp::protocol::{Implementation, Revision};
use rondo_mcp::testing::{Reply, Script, Sweep, TestClient};
use serde_json::json;
use std::collections::BTreeMap;
use std::net::{SocketAddr, TcpListener};
use std::time::Duration;

/// One sample of the exposition: its metric name, labels and value.
#[derive(Debug)]
struct Sample {
    name: String,
    labels: BTreeMap<String, String>,
    value: f64,
}

/// The samples of a Prometheus text exposition (label values here never hold `"` or `,`: the
/// runtime cleans client names, and keys and tool names are identifiers).
fn parse(text: &str) -> Vec<Sample> {
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (series, value) = line.rsplit_once(' ').expect("a sample line");
        let (name, labels) = match series.split_once('{') {
            Some((name, rest)) => (name, rest.trim_end_matches('}')),
            None => (series, ""),
        };
        let labels = labels
            .split("\",")
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (k, v) = p.split_once("=\"").expect("label=\"value\"");
                (k.to_owned(), v.trim_end_matches('"').to_owned())
            })
            .collect();
        out.push(Sample {
            name: name.to_owned(),
            labels,
            value: value.parse().expect("a number"),
        });
    }
    out
}

/// The sum of `name`'s samples whose labels include every one of `with`.
fn count(samples: &[Sample], name: &str, with: &[(&str, &str)]) -> f64 {
    samples
        .iter()
        .filter(|s| s.name == name)
        .filter(|s| {
            with.iter()
                .all(|(k, v)| s.labels.get(*k).map(String::as_str) == Some(v))
        })
        .map(|s| s.value)
        .sum()
}

async fn scrape(addr: SocketAddr) -> Vec<Sample> {
    let url = format!("http://{addr}/metrics");
    for _ in 0..50 {
        if let Ok((200, body)) = web::get(&url, 4 << 20).await {
            return parse(&body);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("no scrape endpoint at {url}");
}

fn free_port() -> SocketAddr {
    let l = TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().unwrap()
}

const SCRIPTED: &str = "Scripted Host";
const SWEEP: &str = "Sweep Host";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_endpoint_counts_what_a_scripted_run_and_a_sweep_took() {
    let addr = free_port();
    rondo_example_travel::metrics::serve(addr).expect("the exporter starts");
    let (server, _travel) = travel(Config::default()).await;
    let named = |revision, caps, script| {
        TestClient::builder(server.clone(), revision)
            .client_info(Implementation::new(SCRIPTED, "1.0"))
            .capabilities(caps)
            .script(script)
            .connect()
    };
    let search = json!({"destination": "Barcelona", "month": "2027-06",
        "morning_departure": true, "max_stops": 1});

    // 1. No sampling, twice: the flight pick's fallback, twice, for want of the capability.
    for _ in 0..2 {
        let c = named(Revision::V2026_07_28, nothing(), Script::new())
            .await
            .unwrap();
        c.call_tool("find_best_flight", search.clone())
            .await
            .unwrap();
    }
    // 2. A 2025-11-25 client with forms declines the approval: asked once, declined once, and
    // the details form never asked.
    let c = named(
        Revision::V2025_11_25,
        caps(json!({"elicitation": {"form": {}}})),
        Script::new().elicit(Reply::Decline),
    )
    .await
    .unwrap();
    let booked = c
        .call_tool("book_trip", json!({"package_id": "barcelona"}))
        .await
        .unwrap();
    assert!(booked.text().contains("declined"), "{}", booked.text());
    // 3. A 2026-07-28 client approves in three rounds: each question asked once, answered
    // once, however often the tool ran from the top.
    let c = named(
        Revision::V2026_07_28,
        caps(json!({"elicitation": {"form": {}}})),
        Script::new()
            .elicit(Reply::accept(json!({"approve": true})))
            .elicit(Reply::accept(json!({
                "passenger_name": "Ada Lovelace",
                "date_of_birth": "1990-12-10",
                "emergency_contact_name": "Charles Babbage",
                "emergency_contact_phone": "+44 20 7946 0000"
            }))),
    )
    .await
    .unwrap();
    let booked = c
        .call_tool("book_trip", json!({"package_id": "barcelona"}))
        .await
        .unwrap();
    assert!(booked.text().contains("Booked"), "{}", booked.text());

    let s = scrape(addr).await;
    let by = |metric: &str, labels: &[(&str, &str)]| {
        let mut with = vec![("client", SCRIPTED)];
        with.extend_from_slice(labels);
        count(&s, metric, &with)
    };
    let pick = [("question", "pick_flights"), ("name", "find_best_flight")];
    assert_eq!(
        by(
            "rondo_questions_fallback_total",
            &[
                pick[0],
                pick[1],
                ("reason", "capability_missing"),
                ("kind", "sampling")
            ]
        ),
        2.0
    );
    assert_eq!(by("rondo_questions_asked_total", &pick), 0.0);
    // The approval at each revision: asked once, and answered once with the script's action.
    for (rev, action) in [("2025-11-25", "decline"), ("2026-07-28", "accept")] {
        let approve = [("question", "approve_trip"), ("revision", rev)];
        assert_eq!(by("rondo_questions_asked_total", &approve), 1.0, "{rev}");
        let answered = [approve[0], approve[1], ("action", action)];
        assert_eq!(
            by("rondo_questions_answered_total", &answered),
            1.0,
            "{rev}"
        );
        let approve_answers = by("rondo_questions_answered_total", &approve);
        assert_eq!(approve_answers, 1.0, "{rev}: no answer with another action");
    }
    let details = [("question", "traveller_details")];
    assert_eq!(by("rondo_questions_asked_total", &details), 1.0);
    assert_eq!(by("rondo_questions_answered_total", &details), 1.0);
    // No scripted call fell back but the flight picks; none went unanswered or was asked again.
    assert_eq!(by("rondo_questions_fallback_total", &[]), 2.0);
    assert_eq!(by("rondo_questions_unanswered_total", &[]), 0.0);
    assert_eq!(by("rondo_questions_reasked_total", &[]), 0.0);
    // The three-round booking: one rounds sample of 3, and two requestStates sealed.
    let rounds = [("name", "book_trip"), ("revision", "2026-07-28")];
    assert_eq!(by("rondo_request_rounds_count", &rounds), 1.0);
    assert_eq!(by("rondo_request_rounds_sum", &rounds), 3.0);
    // Histograms, so a fleet's instances add up: the 3 falls in the bucket `le="3"`, not `2`.
    let bucket = |le| {
        let mut with = rounds.to_vec();
        with.push(("le", le));
        by("rondo_request_rounds_bucket", &with)
    };
    assert_eq!((bucket("2"), bucket("3")), (0.0, 1.0));
    assert_eq!(
        count(
            &s,
            "rondo_request_state_bytes_count",
            &[("name", "book_trip")]
        ),
        2.0
    );

    // 4. Every 2026-07-28 client of the sweep: each question counted as often as the sweep's
    // clients were asked it (asked, or asked again after an answer that did not fit).
    let sweep_server = server.clone();
    let report = Sweep::new(move || sweep_server.clone())
        .revisions([Revision::V2026_07_28])
        .client_info(Implementation::new(SWEEP, "1.0"))
        .arguments("find_best_flight", search.clone())
        .arguments("book_trip", json!({"package_id": "barcelona"}))
        .arguments("pay_for_trip", json!({"booking_id": "demo"}))
        .run()
        .await;
    let s = scrape(addr).await;
    let mut compared = 0;
    for (tool, question) in [
        ("find_best_flight", "pick_flights"),
        ("book_trip", "approve_trip"),
        ("book_trip", "traveller_details"),
        ("pay_for_trip", "pay_on_page"),
        ("trip_files", "workspace"),
    ] {
        let with = [("client", SWEEP), ("name", tool), ("question", question)];
        let counted = count(&s, "rondo_questions_asked_total", &with)
            + count(&s, "rondo_questions_reasked_total", &with);
        let seen = report.asked(tool, question);
        assert!(seen > 0, "the sweep asked {tool}'s {question}: {report}");
        assert_eq!(counted, seen as f64, "{tool}'s {question}: {report}");
        compared += 1;
    }
    assert_eq!(compared, 5);
    // The sweep's clients without sampling took the pick's fallback; with a policy-free
    // server none of them is counted under `policy`.
    let pick = [("client", SWEEP), ("question", "pick_flights")];
    assert!(count(&s, "rondo_questions_fallback_total", &pick) > 0.0);
    assert_eq!(
        count(
            &s,
            "rondo_questions_fallback_total",
            &[("reason", "policy")]
        ),
        0.0
    );
}
