//! Change notifications: the server-side hub ([`Notifier`]) and `subscriptions/listen`.
//!
//! 2026-07-28 (§ Subscriptions): a client opens a long-lived `subscriptions/listen` request
//! with a filter; the server first sends `notifications/subscriptions/acknowledged` with the
//! subset of the filter it honours, then only the notification kinds asked for, each carrying
//! `_meta["io.modelcontextprotocol/subscriptionId"]` = the listen request's id. The stream ends
//! when the client cancels it (closing the HTTP stream, `notifications/cancelled` on stdio) or,
//! gracefully, with a completion result when the server shuts down ([`Notifier::shutdown`]).
//!
//! A kind is honoured only when the server advertises it (`listChanged` / `subscribe`, see
//! [`ServerInfo::with_tools_list_changed`] and friends), so the capability set stays honest.
//! 2025-11-25 sessions over HTTP receive the same changes on their GET stream.

use crate::dispatch::{Conn, LegacySession};
use crate::handler::{Handler, ServerInfo};
use crate::protocol::{Error, JsonObject, Request, ServerCapabilities, meta, notification};
use crate::server::Server;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::sync::Arc;
use tokio::sync::broadcast;
use tokio_util::sync::{CancellationToken, WaitForCancellationFuture};

/// Events kept for a listener that falls behind; older ones are dropped (and logged).
const BACKLOG: usize = 256;

/// A change a server announces to its listeners.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Change {
    /// `notifications/tools/list_changed`.
    ToolsListChanged,
    /// `notifications/prompts/list_changed`.
    PromptsListChanged,
    /// `notifications/resources/list_changed`.
    ResourcesListChanged,
    /// `notifications/resources/updated` for this URI.
    ResourceUpdated(String),
}

impl Change {
    /// The notification's method.
    pub fn method(&self) -> &'static str {
        match self {
            Change::ToolsListChanged => "notifications/tools/list_changed",
            Change::PromptsListChanged => "notifications/prompts/list_changed",
            Change::ResourcesListChanged => "notifications/resources/list_changed",
            Change::ResourceUpdated(_) => "notifications/resources/updated",
        }
    }

    /// The notification message; on a listen stream `params._meta` carries the subscription id.
    pub(crate) fn to_message(&self, subscription: Option<&Value>) -> Value {
        let mut params = JsonObject::new();
        if let Change::ResourceUpdated(uri) = self {
            params.insert("uri".into(), json!(uri));
        }
        if let Some(id) = subscription {
            params.insert("_meta".into(), json!({ meta::SUBSCRIPTION_ID: id }));
        }
        notification(self.method(), Value::Object(params))
    }
}

/// Announces list changes and resource updates to every open listen stream (and to the GET
/// streams of 2025-11-25 HTTP sessions). Cheap to clone; get it from [`Server::notifier`] or,
/// inside a handler, from [`Cx::notifier`](crate::Cx::notifier).
#[derive(Debug, Clone)]
pub struct Notifier {
    inner: Arc<Hub>,
}

#[derive(Debug)]
struct Hub {
    tx: broadcast::Sender<Change>,
    closing: CancellationToken,
}

impl Default for Notifier {
    fn default() -> Self {
        Notifier {
            inner: Arc::new(Hub {
                tx: broadcast::channel(BACKLOG).0,
                closing: CancellationToken::new(),
            }),
        }
    }
}

impl Notifier {
    /// Announces a change. Listeners that did not ask for its kind never see it.
    pub fn announce(&self, change: Change) {
        // An error only means nobody is listening right now.
        let _ = self.inner.tx.send(change);
    }
    /// The tool list changed.
    pub fn tools_list_changed(&self) {
        self.announce(Change::ToolsListChanged);
    }
    /// The prompt list changed.
    pub fn prompts_list_changed(&self) {
        self.announce(Change::PromptsListChanged);
    }
    /// The resource list changed.
    pub fn resources_list_changed(&self) {
        self.announce(Change::ResourcesListChanged);
    }
    /// The resource at `uri` changed.
    pub fn resource_updated(&self, uri: impl Into<String>) {
        self.announce(Change::ResourceUpdated(uri.into()));
    }
    /// Ends every open listen stream with its completion result (graceful shutdown); listen
    /// requests that arrive afterwards end at once.
    pub fn shutdown(&self) {
        self.inner.closing.cancel();
    }

    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.inner.tx.subscribe()
    }
    pub(crate) fn closing(&self) -> WaitForCancellationFuture<'_> {
        self.inner.closing.cancelled()
    }
}

/// The notification kinds one listener receives.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Filter {
    pub tools: bool,
    pub prompts: bool,
    pub resources: bool,
    pub uris: BTreeSet<String>,
}

impl Filter {
    /// Parses a `SubscriptionFilter` and keeps what `caps` advertise (the honoured subset).
    fn honoured(raw: &Value, caps: &ServerCapabilities) -> Result<Filter, Error> {
        let obj = raw
            .as_object()
            .ok_or_else(|| Error::invalid_params("`notifications` must be an object"))?;
        let flag = |key: &str| -> Result<bool, Error> {
            match obj.get(key) {
                None | Some(Value::Null) => Ok(false),
                Some(Value::Bool(b)) => Ok(*b),
                Some(_) => Err(Error::invalid_params(format!("`{key}` must be a boolean"))),
            }
        };
        let uris = match obj.get("resourceSubscriptions") {
            None | Some(Value::Null) => BTreeSet::new(),
            Some(Value::Array(a)) => a
                .iter()
                .map(|u| u.as_str().map(str::to_owned))
                .collect::<Option<_>>()
                .ok_or_else(|| {
                    Error::invalid_params("`resourceSubscriptions` must be an array of strings")
                })?,
            Some(_) => {
                return Err(Error::invalid_params(
                    "`resourceSubscriptions` must be an array of strings",
                ));
            }
        };
        let adv = Advertised::of(caps);
        Ok(Filter {
            tools: flag("toolsListChanged")? && adv.tools,
            prompts: flag("promptsListChanged")? && adv.prompts,
            resources: flag("resourcesListChanged")? && adv.resources,
            uris: if adv.subscribe { uris } else { BTreeSet::new() },
        })
    }

    /// The filter as the acknowledgement reports it (only honoured kinds).
    fn to_wire(&self) -> Value {
        let mut m = JsonObject::new();
        for (key, on) in [
            ("toolsListChanged", self.tools),
            ("promptsListChanged", self.prompts),
            ("resourcesListChanged", self.resources),
        ] {
            if on {
                m.insert(key.into(), json!(true));
            }
        }
        if !self.uris.is_empty() {
            m.insert("resourceSubscriptions".into(), json!(self.uris));
        }
        Value::Object(m)
    }

    pub(crate) fn wants(&self, change: &Change) -> bool {
        match change {
            Change::ToolsListChanged => self.tools,
            Change::PromptsListChanged => self.prompts,
            Change::ResourcesListChanged => self.resources,
            Change::ResourceUpdated(uri) => self.uris.contains(uri),
        }
    }
}

/// Which change kinds the server advertises.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Advertised {
    pub tools: bool,
    pub prompts: bool,
    pub resources: bool,
    pub subscribe: bool,
}

impl Advertised {
    pub(crate) fn of(caps: &ServerCapabilities) -> Advertised {
        let on = |v: Option<bool>| v == Some(true);
        let res = caps.resources.as_ref();
        Advertised {
            tools: on(caps.tools.as_ref().and_then(|t| t.list_changed)),
            prompts: on(caps.prompts.as_ref().and_then(|p| p.list_changed)),
            resources: on(res.and_then(|r| r.list_changed)),
            subscribe: on(res.and_then(|r| r.subscribe)),
        }
    }
}

impl<H: Handler> Server<H> {
    /// The hub that announces list changes and resource updates to listeners.
    pub fn notifier(&self) -> Notifier {
        self.hub.clone()
    }

    /// Serves one `subscriptions/listen` (2026-07-28) until it is cancelled (`Ok(None)`, nothing
    /// more may be sent) or the server shuts down (the completion result).
    pub(crate) async fn listen(&self, req: &Request, conn: &Conn) -> Result<Option<Value>, Error> {
        let raw = req
            .params
            .as_ref()
            .and_then(|p| p.get("notifications"))
            .ok_or_else(|| Error::invalid_params("`notifications` filter is required"))?;
        let filter = Filter::honoured(raw, &self.config.info.capabilities)?;
        // Subscribe before acknowledging so nothing announced after the ack is missed.
        let mut events = self.hub.subscribe();
        let sub = json!(req.id);
        let ack = notification(
            "notifications/subscriptions/acknowledged",
            json!({ "notifications": filter.to_wire(), "_meta": { meta::SUBSCRIPTION_ID: sub } }),
        );
        if !conn.out.send(ack).await {
            return Ok(None);
        }
        tracing::debug!(filter = ?filter, "listen stream open");
        loop {
            tokio::select! {
                biased;
                _ = conn.cancel.cancelled() => return Ok(None),
                _ = self.hub.closing() => break,
                event = events.recv() => match event {
                    Ok(change) if filter.wants(&change) => {
                        if !conn.out.send(change.to_message(Some(&sub))).await {
                            return Ok(None);
                        }
                    }
                    Ok(_) => {}
                    Err(broadcast::error::RecvError::Lagged(n)) => {
                        tracing::warn!(missed = n, "listen stream fell behind; changes dropped");
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
            }
        }
        let info = &self.config.info.implementation;
        Ok(Some(json!({
            "resultType": "complete",
            "_meta": { meta::SUBSCRIPTION_ID: sub, meta::SERVER_INFO: info },
        })))
    }
}

/// Opt-in builders for change notifications: each also declares the capability it extends.
/// Announce the changes with [`Notifier`].
impl ServerInfo {
    /// Declares tools with `listChanged: true`.
    pub fn with_tools_list_changed(mut self) -> Self {
        self.capabilities
            .tools
            .get_or_insert_with(Default::default)
            .list_changed = Some(true);
        self
    }
    /// Declares prompts with `listChanged: true`.
    pub fn with_prompts_list_changed(mut self) -> Self {
        let p = self
            .capabilities
            .prompts
            .get_or_insert_with(Default::default);
        p.list_changed = Some(true);
        self
    }
    /// Declares resources with `listChanged: true`.
    pub fn with_resources_list_changed(mut self) -> Self {
        let r = self
            .capabilities
            .resources
            .get_or_insert_with(Default::default);
        r.list_changed = Some(true);
        self
    }
    /// Declares resources with `subscribe: true` (2026-07-28 `resourceSubscriptions`,
    /// 2025-11-25 `resources/subscribe`).
    pub fn with_resource_subscriptions(mut self) -> Self {
        let r = self
            .capabilities
            .resources
            .get_or_insert_with(Default::default);
        r.subscribe = Some(true);
        self
    }
}

/// What a 2025-11-25 session receives outside any request: list changes the server advertises,
/// and updates of the URIs the session `resources/subscribe`d (HTTP GET stream, stdio).
pub(crate) fn legacy_wants(adv: Advertised, session: &LegacySession, change: &Change) -> bool {
    match change {
        Change::ToolsListChanged => adv.tools,
        Change::PromptsListChanged => adv.prompts,
        Change::ResourcesListChanged => adv.resources,
        Change::ResourceUpdated(uri) => {
            adv.subscribe
                && session
                    .subscriptions
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .contains(uri)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_advertised_kinds_are_honoured() {
        let caps = ServerInfo::new("t", "1")
            .with_tools_list_changed()
            .with_prompts()
            .capabilities;
        let raw = json!({"toolsListChanged": true, "promptsListChanged": true,
                         "resourceSubscriptions": ["a://b"]});
        let f = Filter::honoured(&raw, &caps).unwrap();
        assert_eq!(f.to_wire(), json!({"toolsListChanged": true}));
        assert!(f.wants(&Change::ToolsListChanged));
        assert!(!f.wants(&Change::PromptsListChanged));
        assert!(Filter::honoured(&json!({"toolsListChanged": 1}), &caps).is_err());
    }

    /// The same dispatcher path serves stdio: ack, a filtered change, and nothing after
    /// `notifications/cancelled`.
    #[tokio::test]
    async fn listen_over_newline_framing() {
        use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
        struct H;
        impl Handler for H {
            fn info(&self) -> ServerInfo {
                ServerInfo::new("t", "1").with_tools_list_changed()
            }
        }
        let server = Server::new(H);
        let notifier = server.notifier();
        let (client, end) = tokio::io::duplex(1 << 16);
        let (sr, sw) = tokio::io::split(end);
        let serving = tokio::spawn(server.serve_io(sr, sw));
        let (cr, mut cw) = tokio::io::split(client);
        let mut lines = BufReader::new(cr).lines();
        let limit = std::time::Duration::from_secs(10);
        let mut next = async || -> Option<Value> {
            let line = tokio::time::timeout(limit, lines.next_line())
                .await
                .ok()?
                .ok()??;
            serde_json::from_str(&line).ok()
        };
        let listen = json!({"jsonrpc": "2.0", "id": 5, "method": "subscriptions/listen", "params": {
            "_meta": {meta::PROTOCOL_VERSION: "2026-07-28", meta::CLIENT_CAPABILITIES: {}},
            "notifications": {"toolsListChanged": true, "promptsListChanged": true}}});
        cw.write_all(format!("{listen}\n").as_bytes())
            .await
            .unwrap();
        let ack = next().await.expect("ack");
        assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
        assert_eq!(
            ack["params"]["notifications"],
            json!({"toolsListChanged": true})
        );
        notifier.prompts_list_changed();
        notifier.tools_list_changed();
        let changed = next().await.expect("change");
        assert_eq!(changed["method"], "notifications/tools/list_changed");
        assert_eq!(changed["params"]["_meta"][meta::SUBSCRIPTION_ID], 5);
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                            "params": {"requestId": 5}});
        cw.write_all(format!("{cancel}\n").as_bytes())
            .await
            .unwrap();
        cw.shutdown().await.unwrap();
        assert_eq!(next().await, None, "nothing is sent for a cancelled listen");
        let served = tokio::time::timeout(limit, serving).await;
        assert!(matches!(served, Ok(Ok(Ok(())))));
    }

    #[test]
    fn messages_carry_the_subscription_id() {
        let m = Change::ResourceUpdated("a://b".into()).to_message(Some(&json!(7)));
        assert_eq!(m["params"]["uri"], "a://b");
        assert_eq!(m["params"]["_meta"][meta::SUBSCRIPTION_ID], 7);
        let plain = Change::ToolsListChanged.to_message(None);
        assert_eq!(plain["params"], json!({}));
    }
}
