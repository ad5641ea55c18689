//! What a sweep reports: its clients, findings and each target's outcomes.

use super::{Answering, CapabilitySet};
use crate::protocol::Revision;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

/// One client of the sweep: a revision, what it declares, how it answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Client {
    /// The revision it speaks.
    pub revision: Revision,
    /// The capabilities it declares.
    pub declared: CapabilitySet,
    /// How it answers.
    pub answering: Answering,
}

impl fmt::Display for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a {} client declaring {} that answers by {}",
            self.revision, self.declared, self.answering
        )
    }
}

/// What a sweep found wrong.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The tool, prompt or resource called (empty when the client could not list them).
    pub target: String,
    /// The client that called it.
    pub client: Client,
    /// What is wrong.
    pub problem: String,
    /// The call's messages, `->` sent and `<-` received (each cut at 400 characters; the last
    /// 24 of a longer call).
    pub transcript: Vec<String>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let target = if self.target.is_empty() {
            "listing"
        } else {
            &self.target
        };
        writeln!(f, "`{target}`, for {}: {}", self.client, self.problem)?;
        for line in &self.transcript {
            writeln!(f, "      {line}")?;
        }
        Ok(())
    }
}

/// How the calls of one target ended, and what they asked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// Calls made.
    pub calls: usize,
    /// Complete results (tools: not `isError`).
    pub results: usize,
    /// Tool results with `isError`.
    pub errors: usize,
    /// `-32021`: a capability the target requires was missing.
    pub refused: usize,
    /// Calls the client stopped following, still asked for input.
    pub unfinished: usize,
    /// Other JSON-RPC errors (a failure for a tool; see [`Sweep`](super::Sweep) for prompts and resources).
    pub failed: usize,
    /// Calls of a tool that runs only as a task, made again (at 2026-07-28) by a client that
    /// declares the tasks extension and followed through `tasks/get` and `tasks/update`; their
    /// ends count above like the others (a task still asking when the client stopped
    /// following it is `unfinished`).
    pub tasks: usize,
    /// How often each question was put, by its key (2025-11-25 requests count under their
    /// method).
    pub asked: BTreeMap<String, usize>,
}

/// What a sweep did and found. Its `Display` is a table of every target's outcomes, then the
/// findings.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub(super) calls: usize,
    pub(super) targets: BTreeMap<String, Outcomes>,
    pub(super) advertised: BTreeMap<String, Vec<Value>>,
    pub(super) skipped: Vec<String>,
    pub(super) findings: Vec<Finding>,
}

impl Report {
    /// Calls made, all targets and clients together.
    pub fn calls(&self) -> usize {
        self.calls
    }
    /// What was found wrong; empty for a server that passed.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }
    /// How the calls of `target` ended.
    pub fn outcomes(&self, target: &str) -> Option<&Outcomes> {
        self.targets.get(target)
    }
    /// How often `target` put the question `key`.
    pub fn asked(&self, target: &str, key: &str) -> usize {
        self.targets
            .get(target)
            .and_then(|o| o.asked.get(key))
            .copied()
            .unwrap_or(0)
    }
    /// The questions the listing of `tool` (a tool's or prompt's name, a resource's URI or a
    /// template's `uriTemplate`) advertises (its [`ASKS_META_KEY`](crate::ASKS_META_KEY) entries).
    pub fn advertised(&self, tool: &str) -> &[Value] {
        self.advertised.get(tool).map_or(&[], Vec::as_slice)
    }
    /// Advertised questions no client ever got, as `(tool, key)`: a question behind a
    /// condition the sweep's arguments never meet, or one the tool no longer asks.
    pub fn never_asked(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (tool, asks) in &self.advertised {
            for key in asks.iter().filter_map(|a| a["key"].as_str()) {
                if self.asked(tool, key) == 0 {
                    out.push((tool.clone(), key.to_owned()));
                }
            }
        }
        out
    }
    /// Targets left out ([`Sweep::skip`](super::Sweep::skip)).
    pub fn skipped(&self) -> &[String] {
        &self.skipped
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "capability sweep: {} calls", self.calls)?;
        for (target, o) in &self.targets {
            let asked: Vec<String> = o.asked.iter().map(|(k, n)| format!("{k} x{n}")).collect();
            writeln!(
                f,
                "  {target}: {} calls{}, {} results, {} isError, {} refused, {} unfinished, {} failed; asked {}",
                o.calls,
                if o.tasks > 0 {
                    format!(" ({} as tasks)", o.tasks)
                } else {
                    String::new()
                },
                o.results,
                o.errors,
                o.refused,
                o.unfinished,
                o.failed,
                if asked.is_empty() {
                    "nothing".to_owned()
                } else {
                    asked.join(", ")
                }
            )?;
        }
        if !self.skipped.is_empty() {
            writeln!(f, "  left out: {}", self.skipped.join(", "))?;
        }
        if !self.findings.is_empty() {
            writeln!(f, "{} findings:", self.findings.len())?;
            for (i, finding) in self.findings.iter().enumerate().take(20) {
                write!(f, "  {}. {finding}", i + 1)?;
            }
            if self.findings.len() > 20 {
                writeln!(f, "  ... and {} more", self.findings.len() - 20)?;
            }
        }
        Ok(())
    }
}
