//! The capabilities a rule can remove ([`Capability`]), sets of them, and the narrowing that
//! only ever removes.

use super::PolicyError;
use crate::protocol::ClientCapabilities;
use std::fmt;
use std::str::FromStr;

/// A client capability a [`ClientRule`](super::ClientRule) can remove, down to the mode.
///
/// In a policy file each has its dotted name ([`Capability::name`]): `elicitation`,
/// `elicitation.form`, `elicitation.url`, `sampling`, `sampling.tools`, `roots`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Capability {
    /// `elicitation`: both modes.
    Elicitation,
    /// `elicitation.form`: form mode (what `elicitation: {}` declares). Removing it from a
    /// client that declared only forms removes elicitation.
    ElicitationForm,
    /// `elicitation.url`: URL mode.
    ElicitationUrl,
    /// `sampling`: all of it, tools included.
    Sampling,
    /// `sampling.tools`: sampling requests that carry tools; plain sampling stays.
    SamplingTools,
    /// `roots`.
    Roots,
}

impl Capability {
    /// Every capability, in the order of their bits.
    pub const ALL: [Capability; 6] = [
        Capability::Elicitation,
        Capability::ElicitationForm,
        Capability::ElicitationUrl,
        Capability::Sampling,
        Capability::SamplingTools,
        Capability::Roots,
    ];

    /// The dotted name, as a policy file writes it.
    pub fn name(self) -> &'static str {
        match self {
            Capability::Elicitation => "elicitation",
            Capability::ElicitationForm => "elicitation.form",
            Capability::ElicitationUrl => "elicitation.url",
            Capability::Sampling => "sampling",
            Capability::SamplingTools => "sampling.tools",
            Capability::Roots => "roots",
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Capability {
    type Err = PolicyError;

    /// A dotted name; anything else is an error listing the names.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Capability::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| PolicyError(unknown_capability(s)))
    }
}

fn unknown_capability(s: &str) -> String {
    let names: Vec<&str> = Capability::ALL.iter().map(|c| c.name()).collect();
    format!(
        "unknown capability `{}`: expected one of {}",
        s.escape_debug(),
        names.join(", ")
    )
}

/// A set of [`Capability`]s as bits: what a rule removes, what a client declares, and what the
/// policy removed from one request (`RequestFacts`), which the fallback path reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct CapSet(pub(super) u8);

impl CapSet {
    /// Nothing.
    pub(crate) const EMPTY: CapSet = CapSet(0);

    /// What `caps` declares, read as the questions read it: `elicitation.form` for
    /// `elicitation: {}`, `sampling.tools` only with `sampling`.
    pub(crate) fn declared(caps: &ClientCapabilities) -> CapSet {
        let mut set = CapSet::EMPTY;
        let mut put = |c: Capability, on: bool| {
            if on {
                set.0 |= c.bit();
            }
        };
        put(Capability::Elicitation, caps.elicitation.is_some());
        put(Capability::ElicitationForm, caps.elicitation_form());
        put(Capability::ElicitationUrl, caps.elicitation_url());
        put(Capability::Sampling, caps.sampling());
        put(Capability::SamplingTools, caps.sampling_tools());
        put(Capability::Roots, caps.roots());
        set
    }

    /// What a question that needs `need` (a capabilities object, as
    /// [`ClientCapabilities::missing`] takes and returns) needs, down to the mode.
    pub(crate) fn needed(need: &ClientCapabilities) -> CapSet {
        let mut set = CapSet::EMPTY;
        if let Some(e) = &need.elicitation {
            if e.form.is_some() || e.url.is_none() {
                set = set.with(Capability::ElicitationForm);
            }
            if e.url.is_some() {
                set = set.with(Capability::ElicitationUrl);
            }
        }
        if let Some(s) = &need.sampling {
            set = set.with(Capability::Sampling);
            if s.tools.is_some() {
                set = set.with(Capability::SamplingTools);
            }
        }
        if need.roots.is_some() {
            set = set.with(Capability::Roots);
        }
        set
    }

    /// Whether the policy that removed `self` from a client, leaving `left`, is why a question
    /// that needs `missing` cannot be asked: the client had declared all of it.
    pub(crate) fn explains(self, left: &ClientCapabilities, missing: &ClientCapabilities) -> bool {
        let had = CapSet::declared(left).union(self);
        !self.is_empty() && CapSet::needed(missing).minus(had).is_empty()
    }

    /// Whether `c` is in the set.
    pub(crate) fn contains(self, c: Capability) -> bool {
        self.0 & c.bit() != 0
    }

    /// Whether the set is empty.
    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub(super) fn with(self, c: Capability) -> CapSet {
        CapSet(self.0 | c.bit())
    }

    /// What is in `self` and not in `other`.
    pub(super) fn minus(self, other: CapSet) -> CapSet {
        CapSet(self.0 & !other.0)
    }

    pub(super) fn union(self, other: CapSet) -> CapSet {
        CapSet(self.0 | other.0)
    }

    pub(super) fn iter(self) -> impl Iterator<Item = Capability> {
        Capability::ALL
            .into_iter()
            .filter(move |c| self.contains(*c))
    }
}

impl fmt::Display for CapSet {
    /// The dotted names, comma-separated; `nothing` for the empty set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("nothing");
        }
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(c.name())?;
        }
        Ok(())
    }
}

/// Removes `remove` from `caps`, never adding anything: a mode is dropped only when it was
/// declared, and an elicitation left with no mode is removed as a whole (an empty
/// `elicitation: {}` would mean form mode).
pub(super) fn narrow(caps: &mut ClientCapabilities, remove: CapSet) {
    let all_elicitation = remove.contains(Capability::Elicitation);
    if caps.elicitation.is_some() {
        let keep_form = caps.elicitation_form()
            && !(all_elicitation || remove.contains(Capability::ElicitationForm));
        let keep_url = caps.elicitation_url()
            && !(all_elicitation || remove.contains(Capability::ElicitationUrl));
        match caps.elicitation.as_mut() {
            Some(_) if !keep_form && !keep_url => caps.elicitation = None,
            Some(e) => {
                if !keep_url {
                    // Left with form mode: `{form}` or `{}` (which means form), both as declared.
                    e.url = None;
                }
                if !keep_form {
                    // Left with URL mode, which was declared: `{url}` means URL only.
                    e.form = None;
                }
            }
            None => {}
        }
    }
    if remove.contains(Capability::Sampling) {
        caps.sampling = None;
    } else if remove.contains(Capability::SamplingTools)
        && let Some(s) = caps.sampling.as_mut()
    {
        s.tools = None;
    }
    if remove.contains(Capability::Roots) {
        caps.roots = None;
    }
}
