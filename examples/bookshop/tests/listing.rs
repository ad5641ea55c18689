//! What the bookshop's tools may ask, as a host sees it in `tools/list` at both revisions:
//! `order_book` needs a form (its confirmation refuses without one), `blurb` and
//! `catalog_folder` can use sampling and roots but have fallbacks, and the tools that ask
//! nothing carry no `dev.rondo/asks`.

use rondo_example_bookshop::router;
use rondo_mcp::ASKS_META_KEY;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::TestClient;
use serde_json::{Value, json};

#[tokio::test]
async fn tools_list_says_what_each_tool_may_ask() {
    for rev in [Revision::V2026_07_28, Revision::V2025_11_25] {
        let c = TestClient::builder(Server::new(router()), rev)
            .connect()
            .await
            .expect("connects");
        let listed = c.request("tools/list", json!({})).await.unwrap();
        c.assert_valid();
        let tools = listed["tools"].as_array().cloned().unwrap_or_default();
        let asks = |name: &str| -> Value {
            let tool = tools.iter().find(|t| t["name"] == name).expect(name);
            tool["_meta"][ASKS_META_KEY].clone()
        };
        assert_eq!(
            asks("order_book"),
            json!([{"key": "confirm_order", "kind": "elicitation", "mode": "form", "fallback": "refuse", "required": true}]),
            "{rev}"
        );
        assert_eq!(
            asks("blurb"),
            json!([{"key": "blurb_for", "kind": "sampling", "fallback": "function", "required": false}]),
            "{rev}"
        );
        assert_eq!(
            asks("catalog_folder"),
            json!([{"key": "export_roots", "kind": "roots", "fallback": "function", "required": false}]),
            "{rev}"
        );
        for name in ["search_books", "list_orders"] {
            let tool = tools.iter().find(|t| t["name"] == name).expect(name);
            assert!(tool.get("_meta").is_none(), "{rev}: {tool:#}");
        }
    }
}
