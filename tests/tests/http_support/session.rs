//! A 2025-11-25 session over raw HTTP, for the `http_*` tests.

use super::{ACCEPT, Checks, Reply, request};
use http::{Method, StatusCode};
use rondo_mcp::protocol::Revision;
use serde_json::{Value, json};
use std::net::SocketAddr;

/// A 2025-11-25 client session over raw HTTP: one conversation for the schema checks.
pub struct Session {
    pub addr: SocketAddr,
    pub id: String,
    checks: Checks,
}

impl Session {
    pub async fn open(addr: SocketAddr) -> Session {
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "http-tests", "version": "1.0.0"}}});
        let checks = Checks::new(Revision::V2025_11_25);
        let r = checks
            .send(addr, request(Method::POST, &[ACCEPT], Some(&init)))
            .await;
        assert_eq!(r.status, StatusCode::OK);
        let id = r.headers["mcp-session-id"]
            .to_str()
            .expect("visible ASCII")
            .to_owned();
        assert!(
            !id.is_empty() && id.bytes().all(|b| (0x21..=0x7e).contains(&b)),
            "{id}"
        );
        let msg = r.json().await;
        assert_eq!(msg["result"]["protocolVersion"], "2025-11-25");
        let s = Session { addr, id, checks };
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(s.post(&note).await.status, StatusCode::ACCEPTED);
        s
    }

    pub async fn send(&self, method: Method, body: Option<&Value>) -> Reply {
        let h = [
            ACCEPT,
            ("mcp-session-id", self.id.as_str()),
            ("mcp-protocol-version", "2025-11-25"),
        ];
        self.checks.send(self.addr, request(method, &h, body)).await
    }

    pub async fn post(&self, body: &Value) -> Reply {
        self.send(Method::POST, Some(body)).await
    }
}
