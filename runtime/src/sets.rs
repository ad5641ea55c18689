//! [`ItemSet`]: the one set type inside [`ToolSet`](crate::ToolSet),
//! [`PromptSet`](crate::PromptSet) and [`ResourceSet`](crate::ResourceSet), and the one
//! duplicate check for everything a [`Router`](crate::Router) is built from.
//!
//! The public sets stay named structs around an `ItemSet`, so documentation and compiler
//! messages say `ToolSet::with`, not the generic type.

use std::fmt;

/// One item of an [`ItemSet`]: a tool, prompt or resource as the function pointers its handler
/// trait provides, with the key that must be unique in a server.
pub(crate) trait SetEntry: Clone {
    /// What the key is, for messages: `tool name`, `prompt name` or `resource URI`.
    const KEY: &'static str;
    /// The name (or URI template) that identifies the item.
    fn key(&self) -> &str;
}

/// Tools, prompts or resources, in the order they were added.
#[derive(Clone)]
pub(crate) struct ItemSet<E> {
    entries: Vec<E>,
}

impl<E: SetEntry> ItemSet<E> {
    /// Adds an entry (the kinds' `with::<T>()` build it from the handler type).
    pub(crate) fn push(&mut self, entry: E) {
        self.entries.push(entry);
    }

    /// The entries, in the order they were added.
    pub(crate) fn entries(&self) -> impl Iterator<Item = &E> {
        self.entries.iter()
    }

    /// Whether the set has no entries.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry whose key is `key`.
    pub(crate) fn find(&self, key: &str) -> Option<&E> {
        self.entries.iter().find(|e| e.key() == key)
    }

    /// The first key of `other` that is taken here or that `other` has twice: what [`merge`]
    /// would panic on, for a change made while serving, which must fail instead.
    ///
    /// [`merge`]: ItemSet::merge
    pub(crate) fn clash<'o>(&self, other: &'o ItemSet<E>) -> Option<&'o str> {
        let mut keys = other.entries.iter().map(E::key).enumerate();
        keys.find(|&(i, k)| {
            self.find(k).is_some() || other.entries[..i].iter().any(|e| e.key() == k)
        })
        .map(|(_, k)| k)
    }

    /// Removes the entry whose key is `key`; whether there was one.
    pub(crate) fn remove(&mut self, key: &str) -> bool {
        let before = self.entries.len();
        self.entries.retain(|e| e.key() != key);
        self.entries.len() != before
    }

    /// Adds the entries of `other`.
    ///
    /// # Panics
    /// When a key is already taken (see [`ensure_unique`]).
    pub(crate) fn merge(&mut self, other: ItemSet<E>) {
        for entry in other.entries {
            ensure_unique(E::KEY, entry.key(), self.entries.iter().map(E::key));
            self.entries.push(entry);
        }
    }
}

/// The one duplicate check of a router's parts: panics when `key` is among `taken`.
///
/// A tool, prompt or resource added twice is a configuration error, so it is caught when the
/// server is assembled, before serving (as axum does for overlapping routes). Within one list
/// macro or one `#[toolbox]`, duplicates are compile errors instead.
pub(crate) fn ensure_unique<'a>(what: &str, key: &str, mut taken: impl Iterator<Item = &'a str>) {
    assert!(
        !taken.any(|k| k == key),
        "duplicate {what} `{key}`: it was already added to this router"
    );
}

impl<E> Default for ItemSet<E> {
    fn default() -> Self {
        ItemSet {
            entries: Vec::new(),
        }
    }
}

/// The keys, as a list: what the public sets show as their `Debug`.
impl<E: SetEntry> fmt::Debug for ItemSet<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(E::key))
            .finish()
    }
}

/// `const` string equality: the list macros' duplicate checks (`__private::assert_unique`) and
/// the `asks = [..]` argument collision check, both evaluated by the compiler.
pub(crate) const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
