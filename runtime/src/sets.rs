//! [`ItemSet`]: the one set type inside [`ToolSet`](crate::ToolSet),
//! [`PromptSet`](crate::PromptSet) and [`ResourceSet`](crate::ResourceSet), the one
//! duplicate check for everything a [`Router`](crate::Router) is built from, and
//! [`Duplicates`], the compile-time check of one list macro.
//!
//! The public sets stay named structs around an `ItemSet`, so documentation and compiler
//! messages say `ToolSet::with`, not the generic type.

use std::cmp::Ordering;
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

/// `const` string equality: the `asks = [..]` argument collision check, evaluated by the
/// compiler.
pub(crate) const fn str_eq(a: &str, b: &str) -> bool {
    matches!(str_cmp(a, b), Ordering::Equal)
}

/// `const` byte-wise string order (what `str::cmp` does, which is not `const`).
const fn str_cmp(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return if a[i] < b[i] {
                Ordering::Less
            } else {
                Ordering::Greater
            };
        }
        i += 1;
    }
    if a.len() < b.len() {
        Ordering::Less
    } else if a.len() > b.len() {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

/// The duplicate check of one list macro (`tools![..]`, `prompts![..]`, `resources![..]`),
/// evaluated by the compiler: the list's keys are sorted once, in one `const` of this type, so
/// the check costs O(N log N) comparisons and its expansion O(N) tokens (it was one assertion per
/// pair of entries, with a message each, which grew as N²). Each later entry then has a `const`
/// of its own, spanned at it, calling [`Duplicates::check`], so the error points at the entry
/// that repeats a key; the message is put together only for it.
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
        let order = sorted(&keys);
        let mut first = [NO_DUPLICATE; N];
        // Equal keys are neighbours in `order`: each run's smallest index is the first entry.
        let mut start = 0;
        while start < N {
            let Some(key) = keys[order[start]] else {
                break; // the `None`s sort last
            };
            let (mut end, mut min) = (start + 1, order[start]);
            while end < N && matches!(keys[order[end]], Some(k) if str_eq(k, key)) {
                if order[end] < min {
                    min = order[end];
                }
                end += 1;
            }
            let mut j = start;
            while j < end {
                if order[j] != min {
                    first[order[j]] = min;
                }
                j += 1;
            }
            start = end;
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

/// The indices of `keys`, sorted by key (heapsort: `const`, no allocation), `None`s last.
const fn sorted<const N: usize>(keys: &[Option<&str>; N]) -> [usize; N] {
    let mut order = [0; N];
    let mut i = 0;
    while i < N {
        order[i] = i;
        i += 1;
    }
    let mut start = N / 2;
    while start > 0 {
        start -= 1;
        sift_down(keys, &mut order, start, N);
    }
    let mut end = N;
    while end > 1 {
        end -= 1;
        order.swap(0, end);
        sift_down(keys, &mut order, 0, end);
    }
    order
}

/// Heapsort's step: moves `order[root]` down the max-heap `order[..end]`.
const fn sift_down<const N: usize>(
    keys: &[Option<&str>; N],
    order: &mut [usize; N],
    mut root: usize,
    end: usize,
) {
    loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && less(keys[order[child]], keys[order[child + 1]]) {
            child += 1;
        }
        if !less(keys[order[root]], keys[order[child]]) {
            return;
        }
        order.swap(root, child);
        root = child;
    }
}

/// The order of [`sorted`]: by key, `None` after every key.
const fn less(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => matches!(str_cmp(a, b), Ordering::Less),
        (Some(_), None) => true,
        (None, _) => false,
    }
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
    fn many_keys_sort_like_the_standard_library() {
        // 300 names in a scrambled order, every seventh repeated later: the const heapsort
        // finds exactly the repeats a hash set finds.
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
