//! A URL-mode question (`#[elicit(url)]`), which no suite scenario asks yet: the interop client
//! (`interop/python_sdk.py`) and `tests/contract.rs` drive it at both revisions.

use rondo_mcp::prelude::*;
use rondo_mcp::{elicit, tool};

/// The page the user opens. Its address names the call's flow ([`Cx::flow_id`], the same on
/// every round), as a real page's would so that the server can tell which flow finished.
#[elicit(url, fallback = refuse)]
fn open_page(flow: &str) -> Url {
    Url::new(
        "Open the page to finish the test flow",
        format!("https://example.com/rondo/url-elicitation?flow={flow}"),
    )
}

/// Asks the user to open a page (URL-mode elicitation) and reports their answer. The page
/// stands in for one with nothing to do, so the server's check reports the flow finished as
/// soon as the user agreed to open it (2025-11-25: with `notifications/elicitation/complete`).
#[tool(asks = [open_page])]
async fn test_url_elicitation(cx: &Cx) -> String {
    match cx.ask(open_page(cx.flow_id())).await {
        Answer::Accept(flow) => {
            flow.finished(cx, || async { Some(()) }).await;
            "URL elicitation completed: action=accept, the flow finished".into()
        }
        Answer::Decline => "URL elicitation completed: action=decline".into(),
        Answer::Cancel => "URL elicitation completed: action=cancel".into(),
    }
}

/// The URL-mode tool.
pub fn tools() -> rondo_mcp::ToolSet {
    rondo_mcp::tools![test_url_elicitation]
}
