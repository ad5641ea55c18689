//! What one client's run is given (the plan, and how it connects) and what it gathers (its
//! run), merged into the report.

use super::report::{Client, Finding, Outcomes, Report};
use super::{Connect, TestClientBuilder, script};
use crate::protocol::Implementation;
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

/// How a client of the sweep connects: the same for its every connection.
pub(super) struct Dial {
    pub(super) connect: Connect,
    pub(super) client_info: Option<Implementation>,
    pub(super) ask_timeout: Duration,
    pub(super) max_rounds: u32,
    pub(super) call_timeout: Duration,
}

impl Dial {
    /// The builder of one connection of `client`: its capabilities (with the tasks extension
    /// too, when `tasks`), its way of answering, the sweep's rounds and timeouts.
    pub(super) fn builder(&self, client: Client, tasks: bool) -> TestClientBuilder<()> {
        let mut builder = (self.connect)(client.revision, self.ask_timeout);
        if let Some(info) = &self.client_info {
            builder = builder.client_info(info.clone());
        }
        let mut builder = builder.capabilities(client.declared.capabilities_at(client.revision));
        if tasks {
            builder = builder.with_tasks();
        }
        builder
            .script(script(client))
            .max_rounds(self.max_rounds)
            .timeout(self.call_timeout + Duration::from_secs(5))
            .lenient()
    }
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
        into.tasks += o.tasks;
        for (key, n) in o.asked {
            *into.asked.entry(key).or_default() += n;
        }
    }
    report.advertised.extend(run.advertised);
    report.skipped.extend(run.skipped);
    report.findings.extend(run.findings);
}
