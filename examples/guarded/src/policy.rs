//! [`Policy`]: tools kept for some principals, refused to everyone else before they run.

use crate::REFUSED;
use crate::refuse::{Check, Checked};
use rondo_mcp::Error;
use rondo_mcp::middleware::McpRequest;
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Which principals may call which tools. A tool the policy does not name is open to every
/// caller; a named one only to the principals named for it (by id). A call without a principal
/// is refused every named tool.
#[derive(Clone, Default, Debug)]
pub struct Policy {
    only: Arc<BTreeMap<String, BTreeSet<String>>>,
}

impl Policy {
    /// A policy that refuses nothing.
    pub fn new() -> Self {
        Policy::default()
    }

    /// Keeps `tool` for the principals `ids` (and those of earlier calls for the same tool).
    pub fn only<I: IntoIterator<Item = impl Into<String>>>(mut self, tool: &str, ids: I) -> Self {
        Arc::make_mut(&mut self.only)
            .entry(tool.to_owned())
            .or_default()
            .extend(ids.into_iter().map(Into::into));
        self
    }
}

impl Check for Policy {
    fn check(&self, req: &McpRequest) -> Option<Error> {
        if !req.is_tool_call() {
            return None;
        }
        let tool = req.name()?;
        let allowed = self.only.get(tool)?;
        if req.principal().is_some_and(|p| allowed.contains(p.id())) {
            return None;
        }
        let who = req
            .principal()
            .map_or("a caller without a principal", |p| p.id());
        Some(
            Error::new(
                REFUSED,
                format!("policy: `{tool}` is not allowed for {who}; ask an administrator"),
            )
            .with_data(json!({"refused": "policy", "tool": tool})),
        )
    }
}

impl<S> tower::Layer<S> for Policy {
    type Service = Checked<Policy, S>;
    fn layer(&self, inner: S) -> Checked<Policy, S> {
        Checked {
            check: self.clone(),
            inner,
        }
    }
}
