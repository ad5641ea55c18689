//! The travel server under every client: each tool called by clients of every revision that
//! declare each combination their revision has of elicitation (form, URL), sampling (with and without tools) and
//! roots, and that accept, decline, cancel, answer garbage or never answer
//! (`rondo_mcp::testing::Sweep`). It asks for nothing a client did not declare (the flight
//! pick's tool-calling form only of clients with `sampling.tools`), every call ends, and every
//! message fits the official schema.

use crate::common;

use common::travel;
use rondo_example_travel::Config;
use rondo_mcp::testing::Sweep;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn travel_asks_each_client_only_what_it_declared() {
    let (server, _travel) = travel(Config::default()).await;
    let report = Sweep::new(move || server.clone())
        .arguments(
            "find_best_flight",
            json!({"destination": "Barcelona", "month": "2027-06", "morning_departure": true,
                "max_stops": 1}),
        )
        .arguments("book_trip", json!({"package_id": "barcelona"}))
        .arguments("pay_for_trip", json!({"booking_id": "demo"}))
        .run()
        .await;
    assert_eq!(
        report.never_asked(),
        Vec::<(String, String)>::new(),
        "{report}"
    );
    for tool in [
        "find_best_flight",
        "book_trip",
        "pay_for_trip",
        "trip_files",
    ] {
        assert_eq!(
            report.outcomes(tool).map(|o| o.calls),
            Some(320),
            "{report}"
        );
    }
}
