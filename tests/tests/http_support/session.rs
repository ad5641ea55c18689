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
    /// The `Authorization` header every request of the session carries, if any.
    authorization: std::sync::Mutex<Option<String>>,
}

impl Session {
    pub async fn open(addr: SocketAddr) -> Session {
        Session::open_as(addr, None).await
    }

    /// A session whose requests carry `Authorization: <authorization>`.
    pub async fn open_as(addr: SocketAddr, authorization: Option<&str>) -> Session {
        let client = json!({"name": "http-tests", "version": "1.0.0"});
        Session::open_with(addr, authorization, json!({"elicitation": {}}), client).await
    }

    /// A session whose `initialize` declares `capabilities` and gives `client_info`.
    pub async fn open_with(
        addr: SocketAddr,
        authorization: Option<&str>,
        capabilities: Value,
        client_info: Value,
    ) -> Session {
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": capabilities,
            "clientInfo": client_info}});
        let checks = Checks::new(Revision::V2025_11_25);
        let mut h = vec![ACCEPT];
        if let Some(a) = authorization {
            h.push(("authorization", a));
        }
        let r = checks
            .send(addr, request(Method::POST, &h, Some(&init)))
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
        let s = Session {
            addr,
            id,
            checks,
            authorization: std::sync::Mutex::new(authorization.map(str::to_owned)),
        };
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(s.post(&note).await.status, StatusCode::ACCEPTED);
        s
    }

    /// From now on, requests carry `Authorization: <authorization>` (or none).
    pub fn authorize(&self, authorization: Option<&str>) {
        *self.authorization.lock().unwrap() = authorization.map(str::to_owned);
    }

    pub async fn send(&self, method: Method, body: Option<&Value>) -> Reply {
        let auth = self.authorization.lock().unwrap().clone();
        let mut h = vec![
            ACCEPT,
            ("mcp-session-id", self.id.as_str()),
            ("mcp-protocol-version", "2025-11-25"),
        ];
        if let Some(a) = &auth {
            h.push(("authorization", a));
        }
        self.checks.send(self.addr, request(method, &h, body)).await
    }

    pub async fn post(&self, body: &Value) -> Reply {
        self.send(Method::POST, Some(body)).await
    }
}
