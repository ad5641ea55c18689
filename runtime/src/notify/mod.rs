//! The change-notification hub: [`Notifier`] announces [`Change`]s to every open listen stream
//! (2026-07-28 `subscriptions/listen`) and to the standalone streams of 2025-11-25 sessions.
//! Who receives which change is decided by [`filter`]; serving a listen request is the
//! dispatcher's job (`dispatch/listen.rs`).

pub(crate) mod filter;

use crate::protocol::{JsonObject, Message, meta, notification};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
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
    pub(crate) fn to_message(&self, subscription: Option<&Value>) -> Message {
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
/// streams of 2025-11-25 HTTP sessions). Cheap to clone; get it from
/// [`Server::notifier`](crate::Server::notifier) or,
/// inside a handler, from [`Cx::notifier`](crate::Cx::notifier).
#[derive(Debug, Clone)]
pub struct Notifier {
    inner: Arc<Hub>,
}

#[derive(Debug)]
struct Hub {
    tx: broadcast::Sender<Change>,
    closing: CancellationToken,
    /// Open `subscriptions/listen` streams.
    listeners: AtomicUsize,
}

impl Default for Notifier {
    fn default() -> Self {
        Notifier {
            inner: Arc::new(Hub {
                tx: broadcast::channel(BACKLOG).0,
                closing: CancellationToken::new(),
                listeners: AtomicUsize::new(0),
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
    /// A place for one more listen stream, while fewer than `max` are open; the place is given
    /// back when the returned guard drops.
    pub(crate) fn listener(&self, max: usize) -> Option<Listener> {
        self.inner
            .listeners
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()?;
        Some(Listener(self.inner.clone()))
    }
}

/// One open listen stream's place ([`Notifier::listener`]).
pub(crate) struct Listener(Arc<Hub>);

impl Drop for Listener {
    fn drop(&mut self) {
        self.0.listeners.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_carry_the_subscription_id() {
        let m = Change::ResourceUpdated("a://b".into())
            .to_message(Some(&json!(7)))
            .to_value();
        assert_eq!(m["params"]["uri"], "a://b");
        assert_eq!(m["params"]["_meta"][meta::SUBSCRIPTION_ID], 7);
        let plain = Change::ToolsListChanged.to_message(None).to_value();
        assert_eq!(plain["params"], json!({}));
    }
}
