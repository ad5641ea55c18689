//! Scope checks with a hierarchy (MCP 2026-07-28, Step-Up Authorization: "servers MUST
//! account for scope hierarchies, where a broader scope implies narrower ones").
//!
//! Rondo cannot guess a hierarchy from scope names; the operator states it as a table
//! (`broad` implies `narrow..`), closed transitively when it is built.

pub use crate::identity::OFFLINE_ACCESS;
use crate::identity::{self, Scope};
use std::collections::{BTreeMap, BTreeSet};

/// Which scopes imply which: `implies(broad, [narrow..])`, closed transitively. Cycles mean
/// equivalence.
#[derive(Debug, Clone, Default)]
pub struct ScopeHierarchy {
    closure: BTreeMap<Scope, BTreeSet<Scope>>,
}

impl ScopeHierarchy {
    /// No scope implies another.
    pub fn new() -> Self {
        Self::default()
    }

    /// `broad` implies each of `narrow` (and, transitively, what they imply).
    pub fn implies(mut self, broad: Scope, narrow: impl IntoIterator<Item = Scope>) -> Self {
        self.closure.entry(broad).or_default().extend(narrow);
        self.close();
        self
    }

    fn close(&mut self) {
        loop {
            let mut grew = false;
            let snapshot = self.closure.clone();
            for implied in self.closure.values_mut() {
                let more: Vec<Scope> = implied
                    .iter()
                    .filter_map(|s| snapshot.get(s))
                    .flatten()
                    .filter(|s| !implied.contains(*s))
                    .cloned()
                    .collect();
                grew |= !more.is_empty();
                implied.extend(more);
            }
            if !grew {
                return;
            }
        }
    }

    /// The `granted` scopes and every scope they imply: what a request with those scopes may
    /// do.
    pub fn expand(&self, granted: &BTreeSet<Scope>) -> BTreeSet<Scope> {
        let mut out = granted.clone();
        for g in granted {
            if let Some(implied) = self.closure.get(g) {
                out.extend(implied.iter().cloned());
            }
        }
        out
    }

    /// Whether the `granted` scopes satisfy `required`: it is granted, or a granted scope
    /// implies it.
    pub fn satisfied(&self, required: &Scope, granted: &BTreeSet<Scope>) -> bool {
        granted.contains(required)
            || granted
                .iter()
                .any(|g| self.closure.get(g).is_some_and(|c| c.contains(required)))
    }

    /// The scopes of `required` that `granted` does not satisfy, in `required`'s order.
    pub fn missing<'a>(&self, required: &'a [Scope], granted: &BTreeSet<Scope>) -> Vec<&'a Scope> {
        required
            .iter()
            .filter(|r| !self.satisfied(r, granted))
            .collect()
    }

    /// The scopes a 403 names: the operation's `required` scopes (all of them, at once, in
    /// their order), then the other granted ones, so that a client that replaces its scopes
    /// with the challenge's keeps what it had. `offline_access` is never named.
    pub fn challenge_scopes(&self, required: &[Scope], granted: &BTreeSet<Scope>) -> Vec<Scope> {
        identity::challenge_scopes(required, granted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(name: &'static str) -> Scope {
        Scope::from_static(name)
    }

    fn set(names: &[&'static str]) -> BTreeSet<Scope> {
        names.iter().map(|n| s(n)).collect()
    }

    #[test]
    fn a_broader_scope_satisfies_the_narrower_ones_transitively() {
        let h = ScopeHierarchy::new()
            .implies(s("admin"), [s("orders:admin")])
            .implies(s("orders:admin"), [s("orders:write"), s("orders:read")]);
        assert!(h.satisfied(&s("orders:write"), &set(&["admin"])));
        assert!(h.satisfied(&s("orders:read"), &set(&["orders:admin"])));
        assert!(!h.satisfied(&s("orders:admin"), &set(&["orders:write"])));
        assert!(!h.satisfied(&s("books:read"), &set(&["admin"])));
        let req = [s("orders:write"), s("books:read")];
        assert_eq!(
            h.missing(&req, &set(&["orders:admin"])),
            vec![&s("books:read")]
        );
        assert!(h.missing(&req, &set(&["admin", "books:read"])).is_empty());
    }

    #[test]
    fn cycles_mean_equivalence_and_terminate() {
        let h = ScopeHierarchy::new()
            .implies(s("a"), [s("b")])
            .implies(s("b"), [s("a")]);
        assert!(h.satisfied(&s("a"), &set(&["b"])));
        assert!(h.satisfied(&s("b"), &set(&["a"])));
    }

    #[test]
    fn a_challenge_names_the_required_scopes_first_then_the_granted_ones() {
        let h = ScopeHierarchy::new();
        let got = h.challenge_scopes(
            &[s("orders:write"), s("books:read")],
            &set(&["books:read", "offline_access", "profile"]),
        );
        assert_eq!(got, vec![s("orders:write"), s("books:read"), s("profile")]);
    }
}
