//! `serve` drains: a request in flight when shutdown begins still gets its answer, and the server
//! then stops accepting connections. It also bounds the connections it holds open at once.

use crate::support::http::*;
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::JsonObject;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// One tool that signals when it starts, then works for a while, or until the test opens the
/// gate if there is one.
struct Slow {
    started: Arc<Notify>,
    gate: Option<Arc<Notify>>,
}

impl Handler for Slow {
    fn info(&self) -> ServerInfo {
        ServerInfo::new("slow", "1.0.0").with_tools()
    }

    async fn list_tools(&self, _cx: &Cx, _cursor: Option<&Cursor>) -> Result<Page<Tool>, Error> {
        Ok(vec![Tool::new("work", "Works for a while", Tool::no_arguments())].into())
    }

    async fn call_tool(
        &self,
        _cx: &Cx,
        _name: &str,
        _args: &JsonObject,
    ) -> Result<CallToolResult, Error> {
        self.started.notify_one();
        match &self.gate {
            Some(gate) => gate.notified().await,
            // Long enough that shutdown begins while the call runs; a drain that did not wait
            // would cut the connection and fail the request below.
            None => tokio::time::sleep(Duration::from_millis(300)).await,
        }
        Ok(CallToolResult::text("finished"))
    }
}

#[tokio::test]
async fn shutdown_lets_the_request_in_flight_finish_then_refuses_new_connections() {
    let started = Arc::new(Notify::new());
    let running = start(
        Server::new(Slow {
            started: started.clone(),
            gate: None,
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

#[tokio::test]
async fn at_max_connections_a_new_connection_waits_until_one_closes() {
    let (started, gate) = (Arc::new(Notify::new()), Arc::new(Notify::new()));
    let server = Server::new(Slow {
        started: started.clone(),
        gate: Some(gate.clone()),
    });
    let running = start(server, HttpConfig::default().max_connections(1)).await;
    let addr = running.addr;
    let body = modern(1, "tools/call", json!({"name": "work"}));
    let first = tokio::spawn(async move { post_modern(addr, &body, |_| {}).await });
    bounded("the first call starts", started.notified()).await;

    // The second client connects (the listen backlog takes it) but is not served while the
    // first connection is open. Without the limit it would be answered at once.
    let body = modern(2, "tools/list", json!({}));
    let second = tokio::spawn(async move { post_modern(addr, &body, |_| {}).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !second.is_finished(),
        "a connection beyond max_connections was served"
    );

    gate.notify_one();
    let first = bounded("the first answer", first).await.expect("task");
    assert_eq!(text(&first.json().await), "finished");
    let second = bounded("the second answer once the first closed", second)
        .await
        .expect("task");
    assert_eq!(second.status, 200);
    assert_eq!(second.json().await["result"]["tools"][0]["name"], "work");
    running.stop().await;
}
