//! `trip_files` through the test client at both revisions: the workspace from the client's
//! roots, and for a client without roots the `folders` argument, the server's
//! `TRAVEL_WORKSPACE`, or, with neither, an `isError` result saying how to give one.

use crate::common;

use common::*;
use rondo_example_travel::Config;
use rondo_mcp::Roots;
use rondo_mcp::testing::{Reply, Script};
use serde_json::json;

fn shipped() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/workspace").to_owned()
}

fn expect_listing(text: &str, base: &str) {
    assert!(
        text.contains(&format!(
            "Itineraries ({base}/travel-planning):\n  - barcelona-june-2027.md"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("Templates ({base}/travel-templates):")),
        "{text}"
    );
    assert!(text.contains("  - itinerary-template.md"), "{text}");
    assert!(
        text.contains(&format!("Client documents ({base}/client-documents):")),
        "{text}"
    );
    assert!(text.contains("  - insurance-policy-summary.txt"), "{text}");
}

#[tokio::test]
async fn the_workspace_comes_from_the_clients_roots() {
    for rev in BOTH {
        let (server, _) = travel(Config::default()).await;
        let roots = Roots::from_paths([shipped()]).roots().to_vec();
        let script = Script::new().roots(Reply::roots(roots));
        let c = client(server, rev, everything(), script).await;
        // The argument does not override the roots the client shares.
        let call = c
            .call_tool("trip_files", json!({"folders": ["/nowhere"]}))
            .await
            .unwrap();
        assert!(!call.is_error(), "{rev}");
        expect_listing(&call.text(), &shipped());
        assert_eq!(asked_methods(&c), ["roots/list"], "{rev}");
    }
}

#[tokio::test]
async fn roots_that_are_the_folders_themselves_are_listed_too() {
    let (server, _) = travel(Config::default()).await;
    let planning = format!("{}/travel-planning", shipped());
    let script = Script::new().roots(Reply::roots(
        Roots::from_paths([&planning]).roots().to_vec(),
    ));
    let c = client(
        server,
        rondo_mcp::protocol::Revision::V2026_07_28,
        caps(json!({"roots": {}})),
        script,
    )
    .await;
    let text = c.call_tool("trip_files", json!({})).await.unwrap().text();
    assert!(
        text.starts_with(&format!("Itineraries ({planning}):")),
        "{text}"
    );
    assert!(!text.contains("Templates"), "{text}");
}

#[tokio::test]
async fn without_roots_the_argument_or_the_configuration_names_the_folders() {
    for rev in BOTH {
        let (server, _) = travel(Config::default()).await;
        let c = client(server, rev, nothing(), Script::new()).await;
        let call = c
            .call_tool("trip_files", json!({"folders": [shipped()]}))
            .await
            .unwrap();
        expect_listing(&call.text(), &shipped());
        assert!(asked(&c).is_empty(), "{rev}: roots never asked");

        let config = Config {
            workspace: Some(shipped()),
            ..Config::default()
        };
        let (server, _) = travel(config).await;
        let c = client(
            server,
            rev,
            caps(json!({"elicitation": {"form": {}}})),
            Script::new(),
        )
        .await;
        let call = c.call_tool("trip_files", json!({})).await.unwrap();
        expect_listing(&call.text(), &shipped());
    }
}

#[tokio::test]
async fn with_no_folder_at_all_an_error_says_how_to_give_one() {
    for rev in BOTH {
        let (server, _) = travel(Config::default()).await;
        let c = client(server, rev, nothing(), Script::new()).await;
        let call = c.call_tool("trip_files", json!({})).await.unwrap();
        assert!(call.is_error(), "{rev}");
        let text = call.text();
        assert!(
            text.contains("Pass `folders`") && text.contains("TRAVEL_WORKSPACE"),
            "{text}"
        );
    }
}

#[tokio::test]
async fn folders_without_a_workspace_say_so() {
    let (server, _) = travel(Config::default()).await;
    let c = client(
        server,
        rondo_mcp::protocol::Revision::V2025_11_25,
        nothing(),
        Script::new(),
    )
    .await;
    let call = c
        .call_tool(
            "trip_files",
            json!({"folders": ["/nonexistent-travel-dir"]}),
        )
        .await
        .unwrap();
    assert_eq!(
        call.text(),
        "No travel-planning/, travel-templates/ or client-documents/ folder in /nonexistent-travel-dir."
    );
}

#[tokio::test]
async fn the_description_says_roots_are_advisory() {
    let (server, _) = travel(Config::default()).await;
    let c = client(
        server,
        rondo_mcp::protocol::Revision::V2026_07_28,
        nothing(),
        Script::new(),
    )
    .await;
    let tools = c.list_tools().await.unwrap();
    let files = tools.iter().find(|t| t.name == "trip_files").unwrap();
    assert!(
        files
            .description
            .as_deref()
            .unwrap()
            .contains("Roots are advisory")
    );
}

#[tokio::test]
async fn a_client_that_fails_to_list_its_roots_gets_the_fallback_on_2025() {
    let (server, _) = travel(Config::default()).await;
    let error = Reply::Error(rondo_mcp::protocol::Error::new(-32603, "roots unavailable"));
    let c = client(
        server,
        rondo_mcp::protocol::Revision::V2025_11_25,
        everything(),
        Script::new().roots(error),
    )
    .await;
    let call = c
        .call_tool("trip_files", json!({"folders": [shipped()]}))
        .await
        .unwrap();
    expect_listing(&call.text(), &shipped());
    assert_eq!(asked_methods(&c), ["roots/list"]);
}

#[tokio::test]
async fn a_client_that_shares_no_roots_gets_the_fallback() {
    // The Inspector's CLI declares roots and lists none: the folders given (or configured)
    // are listed, and with neither the error says how to give one, as for a client without
    // roots.
    for rev in BOTH {
        let (server, _) = travel(Config::default()).await;
        let script = Script::new()
            .roots(Reply::roots(Vec::new()))
            .roots(Reply::roots(Vec::new()));
        let c = client(server, rev, everything(), script).await;
        let call = c
            .call_tool("trip_files", json!({"folders": [shipped()]}))
            .await
            .unwrap();
        assert!(!call.is_error(), "{rev}");
        expect_listing(&call.text(), &shipped());
        let none = c.call_tool("trip_files", json!({})).await.unwrap();
        assert!(none.is_error(), "{rev}: {}", none.text());
        assert!(none.text().contains("Pass `folders`"), "{}", none.text());
        assert_eq!(asked_methods(&c), ["roots/list", "roots/list"], "{rev}");
    }
}
