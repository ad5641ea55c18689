//! The expansion of a list: each entry is imported under a hidden name, the duplicate checks
//! compare the entries' names, and the set is built from the hidden names. Cannot fail.
//!
//! An entry that names only a function (one without `#[tool]`: no hidden type, so nothing in
//! the type namespace) would be rustc's bare E0747, "constant provided when a type was
//! expected". So each entry is imported under its hidden name next to a fallback type
//! (`common::fallback`): a plain function leaves the fallback, a struct named after the function
//! that is no tool, so the set's `T: ToolHandler` bound fails with the trait's
//! `on_unimplemented` message at the entry ("`search` is not a tool", with the note to add
//! `#[tool]`). A type that is not a tool fails the same bound under its own name.

use super::{Kind, List};
use crate::diag::{respan, written};
use crate::paths::{BOOL, Paths, STR};
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Path;
use syn::spanned::Spanned;

/// One listed path and the hidden name it is imported under.
struct Entry<'a> {
    /// The path as written.
    path: &'a Path,
    /// `__rondo_entry_N`, resolving at the call site and located at the path, so an error about
    /// the entry points at it.
    alias: syn::Ident,
}

impl<'a> Entry<'a> {
    fn new(index: usize, path: &'a Path) -> Self {
        let span = Span::call_site().located_at(path.span());
        let alias = syn::Ident::new(&format!("__rondo_entry_{index}"), span);
        Entry { path, alias }
    }

    /// Whether `use` can import the path: it has no generic arguments (`Echo<u8>`, which only a
    /// hand-written handler can have, is aliased with `type` instead, and needs no fallback).
    fn importable(&self) -> bool {
        self.path.segments.iter().all(|s| s.arguments.is_none())
    }
}

/// The set, built from each entry's hidden name, after the fallback, the imports and a `const`
/// uniqueness check per later entry.
pub fn expand(kind: Kind, list: &List) -> TokenStream {
    let paths = Paths::new(&list.krate);
    let entries: Vec<Entry> = list
        .items
        .iter()
        .enumerate()
        .map(|(i, p)| Entry::new(i, p))
        .collect();
    let fallback = fallback(&entries);
    let imports = entries.iter().map(import);
    let checks = unique_checks(kind, &paths, &entries);
    let set = kind.set(&paths);
    // Each `.with` at its entry, so a failed bound is reported there and nowhere else.
    let with = entries.iter().map(|e| {
        let alias = &e.alias;
        respan(quote!(.with::<#alias>()), e.path.span())
    });
    // The imports sit a block below the fallback's glob import (see `common::fallback`).
    quote! {{
        #fallback
        {
            #(#imports)*
            #checks
            #set::new() #(#with)*
        }
    }}
}

/// `use path as __rondo_entry_N;`, or `type __rondo_entry_N = path;` for a path `use` cannot take.
fn import(entry: &Entry) -> TokenStream {
    let (path, alias) = (entry.path, &entry.alias);
    if entry.importable() {
        // Unused for a plain function, which has only a value: the fallback type is used.
        quote!(#[allow(unused_imports)] use #path as #alias;)
    } else {
        quote!(#[allow(non_camel_case_types)] type #alias = #path;)
    }
}

/// The fallback types for the entries `use` can import (`common::fallback`).
fn fallback(entries: &[Entry]) -> TokenStream {
    crate::common::fallback::fallbacks(
        entries
            .iter()
            .filter(|e| e.importable())
            .map(|e| (e.path, &e.alias)),
    )
}

/// A `const` check per later entry that its name (or URI) is not an earlier entry's. An entry
/// that is not a tool (prompt, resource) has its own error at the set's bound, so the checks
/// skip it: `__RondoEntry::<T>::LISTED` and `KEY` come from the inherent impl when `T` is a
/// handler, and from the trait's defaults otherwise (an inherent item whose bounds fail is
/// passed over for a trait's, the way the `impls` crate tells whether a type implements a trait).
fn unique_checks(kind: Kind, paths: &Paths, entries: &[Entry]) -> TokenStream {
    if entries.len() < 2 {
        return TokenStream::new();
    }
    let (handler, key) = (kind.handler(paths), kind.key());
    let checks = (1..entries.len()).map(|i| unique_check(kind, paths, &entries[i], &entries[..i]));
    quote! {
        #[allow(dead_code)]
        struct __RondoEntry<T>(T);
        impl<T: #handler> __RondoEntry<T> {
            const LISTED: #BOOL = true;
            const KEY: &'static #STR = <T as #handler>::#key;
        }
        #[allow(dead_code)]
        trait __RondoNotListed {
            const LISTED: #BOOL = false;
            const KEY: &'static #STR = "";
        }
        impl<T> __RondoNotListed for __RondoEntry<T> {}
        #(#checks)*
    }
}

/// `const _: () = if listed(later) { assert_unique(later's key, [earlier keys with messages]) };`,
/// every token at `later`, so rustc's const-evaluation error points at it.
fn unique_check(kind: Kind, paths: &Paths, later: &Entry, earlier: &[Entry]) -> TokenStream {
    let assert_unique = paths.assert_unique();
    let key = |e: &Entry| {
        let alias = &e.alias;
        quote!(__RondoEntry::<#alias>::KEY)
    };
    let earlier_keys = earlier.iter().map(|e| {
        let (key, msg) = (key(e), duplicate_message(kind, later.path, e.path));
        quote!((#key, #msg))
    });
    let (later_key, alias) = (key(later), &later.alias);
    let check = quote! {
        const _: () = if __RondoEntry::<#alias>::LISTED {
            #assert_unique(#later_key, &[#(#earlier_keys),*])
        };
    };
    respan(check, later.path.span())
}

/// The message when `later` has the name (or URI) of `earlier`, both as written in the list.
fn duplicate_message(kind: Kind, later: &Path, earlier: &Path) -> String {
    let (later, earlier) = (written(later), written(earlier));
    match kind {
        Kind::Tools => format!(
            "`{later}` has the same tool name as `{earlier}`, earlier in this `tools![..]`; \
             rename one with `#[tool(name = \"...\")]`"
        ),
        Kind::Prompts => format!(
            "`{later}` has the same prompt name as `{earlier}`, earlier in this `prompts![..]`; \
             rename one with `#[prompt(name = \"...\")]`"
        ),
        Kind::Resources => format!(
            "`{later}` serves the same URI as `{earlier}`, earlier in this `resources![..]`; \
             give one another URI"
        ),
    }
}
