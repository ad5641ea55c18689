//! [`ItemSet`]: the one set type inside [`ToolSet`](crate::ToolSet),
//! [`PromptSet`](crate::PromptSet) and [`ResourceSet`](crate::ResourceSet), the one
//! duplicate check for everything a [`Router`](crate::Router) is built from, and
//! [`Duplicates`], the compile-time check of one list macro.
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

/// `const` string equality (`==` on `str` is not `const`): the lists' duplicate checks and the
/// `asks = [..]` argument collision check, evaluated by the compiler.
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

/// The duplicate check of one list macro (`tools![..]`, `prompts![..]`, `resources![..]`),
/// evaluated by the compiler: the list's keys go once through hash buckets, in one `static` of
/// this type, so the check costs O(N) steps and its expansion O(N) tokens (it was one assertion
/// per pair of entries, with a message each, which grew as N²). Each later entry then has a
/// `const` of its own, spanned at it, calling [`Duplicates::check`] on the `static` (a `const`
/// would be copied into each of them), so the error points at the entry that repeats a key; the
/// message is put together only for it.
pub struct Duplicates<const N: usize> {
    /// For each entry, the index of the first entry with its key; [`NO_DUPLICATE`] when there
    /// is none before it (or it is no handler, whose key is `None`: it has its own error).
    first: [usize; N],
    /// Each entry's path as written in the list.
    written: [&'static str; N],
    /// What the entries share, between the two paths: `has the same tool name as`.
    same: &'static str,
    /// The rest of the message: where, and the fix.
    fix: &'static str,
}

/// [`Duplicates::first`] of an entry whose key no earlier entry has.
const NO_DUPLICATE: usize = usize::MAX;

impl<const N: usize> Duplicates<N> {
    /// The check of a list whose entries have `keys` (`None` for an entry that is no handler)
    /// and were written as `written`; the message is ``"`later` {same} `earlier`, {fix}"``.
    pub const fn new(
        keys: [Option<&'static str>; N],
        written: [&'static str; N],
        same: &'static str,
        fix: &'static str,
    ) -> Self {
        // Chained hash buckets of the first entry of each key: N buckets, so a key meets one
        // other on average. The compiler's interpreter runs this; a sort (N log N string
        // comparisons) cost it ~1.7 G instructions at 300 tools, on every `cargo check`.
        let mut head = [NO_DUPLICATE; N];
        let mut next = [NO_DUPLICATE; N];
        let mut first = [NO_DUPLICATE; N];
        let mut i = 0;
        while i < N {
            if let Some(key) = keys[i] {
                let bucket = (fnv1a(key) % (N as u64)) as usize;
                let mut j = head[bucket];
                while j != NO_DUPLICATE && !matches!(keys[j], Some(k) if str_eq(k, key)) {
                    j = next[j];
                }
                if j == NO_DUPLICATE {
                    next[i] = head[bucket];
                    head[bucket] = i;
                } else {
                    first[i] = j;
                }
            }
            i += 1;
        }
        Duplicates {
            first,
            written,
            same,
            fix,
        }
    }

    /// Fails compilation when entry `i` has the key of an earlier entry, naming both.
    pub const fn check(&self, i: usize) {
        let earlier = self.first[i];
        if earlier == NO_DUPLICATE {
            return;
        }
        let parts = [
            "`",
            self.written[i],
            "` ",
            self.same,
            " `",
            self.written[earlier],
            "`, ",
            self.fix,
        ];
        // `const` code cannot allocate, so the message is joined in a buffer (a path longer
        // than it is cut at a character boundary).
        let mut buf = [0u8; 1024];
        let mut len = 0;
        let mut p = 0;
        while p < parts.len() {
            let bytes = parts[p].as_bytes();
            let mut b = 0;
            while b < bytes.len() && len < buf.len() {
                buf[len] = bytes[b];
                (len, b) = (len + 1, b + 1);
            }
            p += 1;
        }
        let joined = buf.split_at(len).0;
        let message = match std::str::from_utf8(joined) {
            Ok(s) => s,
            Err(e) => match std::str::from_utf8(joined.split_at(e.valid_up_to()).0) {
                Ok(s) => s,
                Err(_) => "",
            },
        };
        panic!("{}", message);
    }
}

/// FNV-1a, 64 bits: a `const` hash of a key, for [`Duplicates::new`]'s buckets.
const fn fnv1a(key: &str) -> u64 {
    let bytes = key.as_bytes();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash = (hash ^ bytes[i] as u64).wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first entry each entry repeats the key of, as `Duplicates::new` finds it.
    fn firsts<const N: usize>(keys: [Option<&'static str>; N]) -> Vec<Option<usize>> {
        let d = Duplicates::new(keys, [""; N], "", "");
        d.first
            .iter()
            .map(|&f| (f != NO_DUPLICATE).then_some(f))
            .collect()
    }

    #[test]
    fn each_repeat_names_the_first_entry_with_its_key_and_no_handler_is_skipped() {
        assert_eq!(firsts([Some("a"), Some("b")]), [None, None]);
        assert_eq!(
            firsts([
                Some("b"),
                Some("a"),
                Some("c"),
                Some("a"),
                Some("b"),
                Some("a")
            ]),
            [None, None, None, Some(1), Some(0), Some(1)]
        );
        // Not handlers: no key, never a duplicate of each other.
        assert_eq!(
            firsts([None, Some("x"), None, Some("x"), None]),
            [None, None, None, Some(1), None]
        );
        // Prefixes and lengths order, they do not match.
        assert_eq!(
            firsts([Some("ab"), Some("a"), Some("abc"), Some(""), Some("a")]),
            [None, None, None, None, Some(1)]
        );
        assert_eq!(firsts::<0>([]), Vec::<Option<usize>>::new());
    }

    #[test]
    fn many_keys_find_what_a_hash_map_finds() {
        // 300 names in a scrambled order, many repeated later: the const buckets find exactly
        // the repeats a hash map finds.
        let names: Vec<&'static str> = (0..300)
            .map(|i| &*Box::leak(format!("t{}", (i * 37) % 257).into_boxed_str()))
            .collect();
        let keys: [Option<&'static str>; 300] = std::array::from_fn(|i| Some(names[i]));
        let mut seen = std::collections::HashMap::new();
        let expected: Vec<Option<usize>> = names
            .iter()
            .enumerate()
            .map(|(i, n)| match seen.get(n) {
                Some(&first) => Some(first),
                None => {
                    seen.insert(*n, i);
                    None
                }
            })
            .collect();
        assert!(expected.iter().filter(|e| e.is_some()).count() > 30);
        assert_eq!(firsts(keys), expected);
    }

    #[test]
    #[should_panic(expected = "`b::find` has the same tool name as `search`, earlier in this list")]
    fn the_message_names_both_paths_as_written() {
        Duplicates::new(
            [Some("s"), Some("t"), Some("s")],
            ["search", "other", "b::find"],
            "has the same tool name as",
            "earlier in this list",
        )
        .check(2);
    }
}
