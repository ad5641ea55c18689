//! A session of a handshake revision over raw HTTP, for the HTTP tests.

use super::{ACCEPT, Checks, Reply, request};
use http::{Method, StatusCode};
use rondo_mcp::protocol::Revision;
use serde_json::{Value, json};
use std::net::SocketAddr;

/// A client session over raw HTTP (2025-11-25 unless opened at another revision): one
/// conversation for the schema checks.
pub struct Session {
    pub addr: SocketAddr,
    pub id: String,
    pub revision: Revision,
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
        let rev = Revision::V2025_11_25;
        Session::open_at(addr, rev, authorization, capabilities, client_info).await
    }

    /// A session of `revision`, whose `initialize` declares `capabilities`.
    pub async fn open_at(
        addr: SocketAddr,
        revision: Revision,
        authorization: Option<&str>,
        capabilities: Value,
        client_info: Value,
    ) -> Session {
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": revision.as_str(),
            "capabilities": capabilities,
            "clientInfo": client_info}});
        let checks = Checks::new(revision);
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
        assert_eq!(msg["result"]["protocolVersion"], revision.as_str());
        let s = Session {
            addr,
            id,
            revision,
            checks,
            authorization: std::sync::Mutex::new(authorization.map(str::to_owned)),
        };
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(s.post(&note).await.status, StatusCode::ACCEPTED);
        s
    }

    /// The session, its messages no longer checked against the definition `def`, for
    /// `reason` (a test that breaks the schema on purpose).
    pub fn skip_validation_of(self, def: &str, reason: &str) -> Session {
        Session {
            checks: self.checks.skip(def, reason),
            ..self
        }
    }

    /// From now on, requests carry `Authorization: <authorization>` (or none).
    pub fn authorize(&self, authorization: Option<&str>) {
        *self.authorization.lock().unwrap() = authorization.map(str::to_owned);
    }

    /// Sends a request of the session, with its `MCP-Protocol-Version` header (none at
    /// 2025-03-26, which has no such header).
    pub async fn send(&self, method: Method, body: Option<&Value>) -> Reply {
        let version = (self.revision > Revision::V2025_03_26).then(|| self.revision.as_str());
        self.send_with_version(method, body, version).await
    }

    /// [`Session::send`] with this `MCP-Protocol-Version` header, or none.
    pub async fn send_with_version(
        &self,
        method: Method,
        body: Option<&Value>,
        version: Option<&str>,
    ) -> Reply {
        let auth = self.authorization.lock().unwrap().clone();
        let mut h = vec![ACCEPT, ("mcp-session-id", self.id.as_str())];
        if let Some(v) = version {
            h.push(("mcp-protocol-version", v));
        }
        if let Some(a) = &auth {
            h.push(("authorization", a));
        }
        self.checks.send(self.addr, request(method, &h, body)).await
    }

    pub async fn post(&self, body: &Value) -> Reply {
        self.send(Method::POST, Some(body)).await
    }
}
