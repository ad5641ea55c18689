//! `serve` drains: a request in flight when shutdown begins still gets its answer, and the server
//! then stops accepting connections.

mod http_support;

use http_support::*;
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::JsonObject;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// One tool that signals when it starts and then works for a while.
struct Slow {
    started: Arc<Notify>,
}

impl Handler for Slow {
    fn info(&self) -> ServerInfo {
        ServerInfo::new("slow", "1.0.0").with_tools()
    }

    async fn list_tools(&self, _cx: &Cx) -> Result<Vec<Tool>, Error> {
        Ok(vec![Tool::new(
            "work",
            "Works for a while",
            Tool::no_arguments(),
        )])
    }

    async fn call_tool(
        &self,
        _cx: &Cx,
        _name: &str,
        _args: JsonObject,
    ) -> Result<CallToolResult, Error> {
        self.started.notify_one();
        // Long enough that shutdown begins while the call runs; a drain that did not wait would
        // cut the connection and fail the request below.
        tokio::time::sleep(Duration::from_millis(300)).await;
        Ok(CallToolResult::text("finished"))
    }
}

#[tokio::test]
async fn shutdown_lets_the_request_in_flight_finish_then_refuses_new_connections() {
    let started = Arc::new(Notify::new());
    let running = start(
        Server::new(Slow {
            started: started.clone(),
        }),
        HttpConfig::default(),
    )
    .await;
    let addr = running.addr;
    let body = modern(1, "tools/call", json!({"name": "work"}));
    let call = tokio::spawn(async move { post_modern(addr, &body, |_| {}).await });
    bounded("the tool starts", started.notified()).await;
    running.stop().await;
    let reply = bounded("the in-flight answer", call)
        .await
        .expect("request task");
    let msg = reply.json().await;
    assert_eq!(text(&msg), "finished");
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "the listener is closed after shutdown"
    );
}
