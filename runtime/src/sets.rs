//! [`ItemSet`]: the one set type behind [`ToolSet`](crate::ToolSet),
//! [`PromptSet`](crate::PromptSet) and [`ResourceSet`](crate::ResourceSet), and the one
//! duplicate check for everything a [`Router`](crate::Router) is built from.

use std::fmt;

mod sealed {
    /// Keeps [`SetEntry`](super::SetEntry) to the crate's three kinds.
    pub trait Sealed {}
}

pub(crate) use sealed::Sealed;

/// One item of an [`ItemSet`]: a tool, prompt or resource as the function pointers its handler
/// trait provides, with the key that must be unique in a server.
pub trait SetEntry: Sealed + Clone + Send + Sync + 'static {
    /// What the key is, for messages: `tool name`, `prompt name` or `resource URI`.
    const KEY: &'static str;
    /// The name (or URI template) that identifies the item.
    fn key(&self) -> &str;
}

/// A set of tools, prompts or resources, built by the list macros (`tools![..]`, `prompts![..]`,
/// `resources![..]`) or by hand with `new()` and `with::<T>()`. Used through its aliases
/// [`ToolSet`](crate::ToolSet), [`PromptSet`](crate::PromptSet) and
/// [`ResourceSet`](crate::ResourceSet).
pub struct ItemSet<E: SetEntry> {
    entries: Vec<E>,
}

impl<E: SetEntry> ItemSet<E> {
    /// An empty set.
    pub fn new() -> Self {
        ItemSet {
            entries: Vec::new(),
        }
    }

    /// Adds an entry (the kinds' `with::<T>()` build it from the handler type).
    pub(crate) fn push(mut self, entry: E) -> Self {
        self.entries.push(entry);
        self
    }

    /// The entries, in the order they were added.
    pub(crate) fn entries(&self) -> impl Iterator<Item = &E> {
        self.entries.iter()
    }

    /// The entry whose key is `key`.
    pub(crate) fn find(&self, key: &str) -> Option<&E> {
        self.entries.iter().find(|e| e.key() == key)
    }

    /// Adds the entries of `other`.
    ///
    /// # Panics
    /// When a key is already taken (see [`ensure_unique`]).
    pub(crate) fn merge(mut self, other: ItemSet<E>) -> Self {
        for entry in other.entries {
            ensure_unique(E::KEY, entry.key(), self.entries.iter().map(E::key));
            self.entries.push(entry);
        }
        self
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

impl<E: SetEntry> Default for ItemSet<E> {
    fn default() -> Self {
        ItemSet::new()
    }
}

impl<E: SetEntry> Clone for ItemSet<E> {
    fn clone(&self) -> Self {
        ItemSet {
            entries: self.entries.clone(),
        }
    }
}

impl<E: SetEntry> fmt::Debug for ItemSet<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(E::key))
            .finish()
    }
}
