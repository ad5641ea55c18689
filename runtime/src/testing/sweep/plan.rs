//! What one client's run is given (the plan) and what it gathers (its run), merged into the
//! report.

use super::report::{Finding, Outcomes, Report};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Duration;

/// What to call, and what its listing advertises it may ask.
#[derive(Debug, Clone)]
pub(super) struct Target {
    pub(super) what: What,
    /// The advertised questions (its `_meta` entries under `ASKS_META_KEY`), when the listing
    /// advertises any.
    pub(super) asks: Option<Vec<Value>>,
}

/// A tool, a prompt or a resource, with what to call it with.
#[derive(Debug, Clone)]
pub(super) enum What {
    Tool {
        name: String,
        arguments: Value,
    },
    Prompt {
        name: String,
        arguments: Value,
    },
    Resource {
        /// What the report names it: the URI, or the template it was made from.
        listed: String,
        uri: String,
    },
}

impl Target {
    pub(super) fn name(&self) -> &str {
        match &self.what {
            What::Tool { name, .. } | What::Prompt { name, .. } => name,
            What::Resource { listed, .. } => listed,
        }
    }
}

/// What one client found.
#[derive(Default)]
pub(super) struct Run {
    pub(super) calls: usize,
    pub(super) targets: BTreeMap<String, Outcomes>,
    pub(super) advertised: BTreeMap<String, Vec<Value>>,
    pub(super) skipped: Vec<String>,
    pub(super) findings: Vec<Finding>,
}

/// The settings one client's run reads.
pub(super) struct Plan {
    pub(super) tool_arguments: HashMap<String, Value>,
    pub(super) prompt_arguments: HashMap<String, Value>,
    pub(super) resource_uris: HashMap<String, String>,
    pub(super) skip: HashSet<String>,
    pub(super) call_timeout: Duration,
}

pub(super) fn merge(report: &mut Report, run: Run) {
    report.calls += run.calls;
    for (target, o) in run.targets {
        let into = report.targets.entry(target).or_default();
        into.calls += o.calls;
        into.results += o.results;
        into.errors += o.errors;
        into.refused += o.refused;
        into.unfinished += o.unfinished;
        into.failed += o.failed;
        for (key, n) in o.asked {
            *into.asked.entry(key).or_default() += n;
        }
    }
    report.advertised.extend(run.advertised);
    report.skipped.extend(run.skipped);
    report.findings.extend(run.findings);
}
