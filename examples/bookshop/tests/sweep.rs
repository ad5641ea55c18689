//! The bookshop under every client: each tool called by clients of every revision that
//! declare each combination their revision has of elicitation (form, URL), sampling (with and without tools) and
//! roots, and that accept, decline, cancel, answer garbage or never answer
//! (`rondo_mcp::testing::Sweep`). The bookshop asks for nothing a client did not declare, every
//! call ends, and every message fits the official schema.

use rondo_mcp::prelude::*;
use rondo_mcp::testing::Sweep;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bookshop_asks_each_client_only_what_it_declared() {
    let report = Sweep::new(|| Server::new(rondo_example_bookshop::router()))
        .arguments(
            "order_book",
            json!({"isbn": "9780262510875", "quantity": 1}),
        )
        .arguments("blurb", json!({"title": "Structure and Interpretation"}))
        .run()
        .await;
    // Every question it advertises was put to some client.
    assert_eq!(
        report.never_asked(),
        Vec::<(String, String)>::new(),
        "{report}"
    );
    // An order the user does not confirm is not placed: with nobody to confirm (no form, or
    // a user who says no), the order ends without one; only clients that accept place one.
    let orders = report
        .outcomes("order_book")
        .expect("order_book was called");
    assert_eq!(orders.calls, 320, "{report}");
    assert!(report.asked("order_book", "confirm_order") > 0, "{report}");
}
