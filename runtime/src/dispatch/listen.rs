//! `subscriptions/listen` (2026-07-28 § Subscriptions): a long-lived request that streams the
//! change notifications its filter asks for, over any transport.
//!
//! The server first sends `notifications/subscriptions/acknowledged` with the subset of the
//! filter it honours (only what it advertises, see [`ServerInfo::with_tools_list_changed`] and
//! friends), then only the notification kinds asked for, each carrying
//! `_meta["io.modelcontextprotocol/subscriptionId"]` = the listen request's id. The stream ends
//! when the client cancels it (closing the HTTP stream, `notifications/cancelled` on stdio) or,
//! gracefully, with a completion result when the server shuts down
//! ([`Notifier::shutdown`](crate::Notifier::shutdown)).
//!
//! With the tasks extension a filter may name `taskIds` (at most `max_listen_tasks`): a
//! request that does not declare the extension is refused with `-32021`; the ids the
//! listener's principal may see (the check of `tasks/get`) are acknowledged, each followed task
//! is told as it stands right after the acknowledgement, then again whenever its status, status
//! message or pending questions change, as `notifications/tasks` carrying the `DetailedTask`
//! `tasks/get` would answer (design §25). The follower reads the task store, so a listener on
//! any instance of a fleet hears a task wherever it runs: at once with the memory store, within
//! `task_poll_interval` with one that cannot wake it (Redis).
//!
//! [`ServerInfo::with_tools_list_changed`]: crate::ServerInfo::with_tools_list_changed

use super::task_run::{needs_tasks, store_error};
use super::{Answered, ClientFacts, Conn, Engine};
use crate::handler::Handler;
use crate::identity::token_expiry;
use crate::middleware::{self, View};
use crate::notify::filter::Filter;
use crate::protocol::{
    self, CompleteEnvelope, Enveloped, Error, JsonObject, Request, Revision, TASKS_EXTENSION, meta,
    notification,
};
use crate::tasks::follow::Followed;
use crate::tasks::wire;
use serde_json::json;
use tokio::sync::broadcast;

impl<H: Handler> Engine<H> {
    /// Serves one `subscriptions/listen` until it is cancelled (`Ok(None)`, nothing more may be
    /// sent) or the server shuts down (the completion result).
    pub(super) async fn listen(&self, req: &Request, conn: &Conn, facts: ClientFacts) -> Answered {
        let raw = req
            .params
            .other()
            .and_then(|p| p.get("notifications"))
            .ok_or_else(|| Error::invalid_params("`notifications` filter is required"))?;
        let cfg = &self.config;
        let caps = &cfg.info.capabilities;
        let mut filter = Filter::honoured(raw, caps, cfg.max_listen_uris, cfg.max_listen_tasks)?;
        let follows_tasks = !filter.asked_tasks().is_empty();
        if follows_tasks && !facts.capabilities().declares_extension(TASKS_EXTENSION) {
            return Err(needs_tasks());
        }
        let Some(_place) = self.hub.listener(cfg.max_listens) else {
            return Err(Error::internal(format!(
                "Too many listen streams: this server holds at most {} open at once; close one \
                 first",
                cfg.max_listens
            )));
        };
        // Subscribe before acknowledging so nothing announced after the ack is missed.
        let mut events = self.hub.subscribe();
        let store = &*cfg.tasks.store;
        let principal = conn.principal.as_ref().map(|p| p.key());
        let (mut followed, first) = if follows_tasks {
            let now = cfg.clock.now_ms();
            Followed::open(store, filter.asked_tasks(), principal, now)
                .await
                .map_err(store_error)?
        } else {
            Default::default()
        };
        filter.honour_tasks(first.iter().map(|r| r.id.to_string()).collect());
        let sub = json!(req.id);
        let ack = notification(
            "notifications/subscriptions/acknowledged",
            json!({ "notifications": filter.to_wire(), "_meta": { meta::SUBSCRIPTION_ID: sub } }),
        );
        if !conn.out.send(ack).await {
            return Ok(None);
        }
        // What the middleware sees of a notification the stream sends.
        let layers = cfg.layers.as_ref();
        let view = |method: &str| {
            let client = Some(facts.client.clone());
            View::change(
                method,
                Revision::V2026_07_28,
                client,
                conn.principal.clone(),
            )
        };
        for record in &first {
            let msg = wire::notification(record, &sub);
            if !middleware::send(layers, &conn.out, msg, || view(wire::NOTIFICATION)).await {
                return Ok(None);
            }
        }
        tracing::debug!(filter = ?filter, "listen stream open");
        let expired = token_expiry(conn.principal.as_ref());
        tokio::pin!(expired);
        let every = cfg.tasks.poll_interval;
        loop {
            tokio::select! {
                biased;
                _ = conn.cancel.cancelled() => return Ok(None),
                _ = self.hub.closing() => break,
                // The token that opened the stream is no longer accepted: the stream ends as
                // at shutdown, and the client listens again with a fresh token.
                _ = &mut expired => break,
                event = events.recv() => match event {
                    Ok(change) if filter.wants(&change) => {
                        let msg = change.to_message(Some(&sub));
                        if !middleware::send(layers, &conn.out, msg, || view(change.method())).await {
                            return Ok(None);
                        }
                    }
                    Ok(_) => {}
                    Err(broadcast::error::RecvError::Lagged(n)) => {
                        tracing::warn!(missed = n, "listen stream fell behind; changes dropped");
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                _ = followed.changed(store, every), if !followed.is_empty() => {
                    let now = cfg.clock.now_ms();
                    for record in followed.look(store, principal, now).await {
                        let msg = wire::notification(&record, &sub);
                        if !middleware::send(layers, &conn.out, msg, || view(wire::NOTIFICATION)).await {
                            return Ok(None);
                        }
                    }
                }
            }
        }
        let info = &self.config.info_text;
        let end = CompleteEnvelope::new(info, None).subscription(&sub);
        let result = Enveloped {
            result: &JsonObject::new(),
            envelope: &end,
        };
        protocol::write(&result).map(Some)
    }
}
