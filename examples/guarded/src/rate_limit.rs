//! [`RateLimit`]: so many requests per principal, each principal its own bucket (`governor`'s
//! keyed rate limiter, a GCRA); past it, a clear error that says when to try again.

use crate::REFUSED;
use crate::refuse::{Check, Checked};
use governor::clock::{Clock as _, DefaultClock};
use governor::state::keyed::HashMapStateStore;
use governor::{Quota, RateLimiter};
use rondo_mcp::Error;
use rondo_mcp::middleware::McpRequest;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

/// The key of a request without a principal (a transport that knows no one): they share one
/// bucket, so a server that knows its users should name them (`Server::principal` on stdio,
/// a token on HTTP).
const NO_ONE: &str = "";

/// After this many checks, the buckets of principals who are back to a full quota are
/// dropped: the limiter holds at most the principals active within one quota period.
const PRUNE_EVERY: u32 = 1024;

type Limiter = RateLimiter<String, HashMapStateStore<String>, DefaultClock>;

/// The rate limit: `quota` per principal, for inbound requests the layer applies to (by
/// default `tools/call` only; [`RateLimit::every_request`] for all). Clones share the buckets,
/// so one `RateLimit` given to several servers limits a principal across them.
#[derive(Clone)]
pub struct RateLimit {
    limiter: Arc<Limiter>,
    checks: Arc<AtomicU32>,
    every_request: bool,
}

impl RateLimit {
    /// `quota` per principal: e.g. `Quota::per_minute(nonzero!(60))` with a burst of its own.
    pub fn per_principal(quota: Quota) -> Self {
        RateLimit {
            limiter: Arc::new(RateLimiter::hashmap(quota)),
            checks: Arc::default(),
            every_request: false,
        }
    }

    /// Counts every inbound request, not only tool calls (the lists, `resources/read`, ...).
    pub fn every_request(mut self) -> Self {
        self.every_request = true;
        self
    }
}

impl Check for RateLimit {
    fn check(&self, req: &McpRequest) -> Option<Error> {
        let counted = !req.is_notification()
            && req.direction() == rondo_mcp::middleware::Direction::Inbound
            && (self.every_request || req.is_tool_call());
        if !counted {
            return None;
        }
        if self.checks.fetch_add(1, Ordering::Relaxed) % PRUNE_EVERY == PRUNE_EVERY - 1 {
            self.limiter.retain_recent();
        }
        let key = req.principal().map_or(NO_ONE, |p| p.key());
        let Err(not_until) = self.limiter.check_key(&key.to_owned()) else {
            return None;
        };
        let wait = not_until.wait_time_from(DefaultClock::default().now());
        let after_ms = wait.as_millis().max(1);
        let who = req.principal().map_or("this client", |p| p.id());
        Some(
            Error::new(
                REFUSED,
                format!("rate limit: {who} has made too many requests; try again in {after_ms} ms"),
            )
            .with_data(json!({"refused": "rate_limit", "retryAfterMs": after_ms})),
        )
    }
}

impl<S> tower::Layer<S> for RateLimit {
    type Service = Checked<RateLimit, S>;
    fn layer(&self, inner: S) -> Checked<RateLimit, S> {
        Checked {
            check: self.clone(),
            inner,
        }
    }
}
