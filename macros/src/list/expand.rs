//! The expansion of a list: each entry is imported under a hidden name, the duplicate check
//! compares the entries' names, and the set is built from the hidden names. Cannot fail.
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
use crate::paths::{NONE, OPTION, Paths, SOME, STR};
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

/// The set, built from each entry's hidden name, after the fallback, the imports and the
/// duplicate check.
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

/// The duplicate check (`__private::Duplicates`): one `static` holding every entry's name (or
/// URI) and path as written, which finds each repeat once, then a `const` per later entry,
/// spanned at it, that fails when an earlier entry has its key (a `static`, not a `const`: each
/// `const` would copy it). Linear in the entries (design §9). An
/// entry that is not a handler (a prompt, a resource, a plain function) has its own error at
/// the set's bound, so its key is `None` and the check skips it: `__RondoEntry::<T>::KEY` comes
/// from the inherent impl when `T` is a handler, and from the trait's default otherwise (an
/// inherent item whose bounds fail is passed over for a trait's, the way the `impls` crate
/// tells whether a type implements a trait).
fn unique_checks(kind: Kind, paths: &Paths, entries: &[Entry]) -> TokenStream {
    if entries.len() < 2 {
        return TokenStream::new();
    }
    let (handler, key) = (kind.handler(paths), kind.key());
    let duplicates = paths.duplicates();
    let keys = entries.iter().map(|e| {
        let alias = &e.alias;
        quote!(__RondoEntry::<#alias>::KEY)
    });
    let written = entries.iter().map(|e| written(e.path));
    let (same, fix) = message(kind);
    let n = entries.len();
    let checks = entries.iter().enumerate().skip(1).map(|(i, e)| {
        respan(
            quote!(const _: () = __RONDO_DUPLICATES.check(#i);),
            e.path.span(),
        )
    });
    quote! {
        #[allow(dead_code)]
        struct __RondoEntry<T>(T);
        impl<T: #handler> __RondoEntry<T> {
            const KEY: #OPTION<&'static #STR> = #SOME(<T as #handler>::#key);
        }
        #[allow(dead_code)]
        trait __RondoNotListed {
            const KEY: #OPTION<&'static #STR> = #NONE;
        }
        impl<T> __RondoNotListed for __RondoEntry<T> {}
        static __RONDO_DUPLICATES: #duplicates<#n> =
            #duplicates::new([#(#keys),*], [#(#written),*], #same, #fix);
        #(#checks)*
    }
}

/// The message when an entry has the name (or URI) of an earlier one, around the two paths as
/// written: ``"`later` {same} `earlier`, {fix}"``.
fn message(kind: Kind) -> (&'static str, &'static str) {
    match kind {
        Kind::Tools => (
            "has the same tool name as",
            "earlier in this `tools![..]`; rename one with `#[tool(name = \"...\")]`",
        ),
        Kind::Prompts => (
            "has the same prompt name as",
            "earlier in this `prompts![..]`; rename one with `#[prompt(name = \"...\")]`",
        ),
        Kind::Resources => (
            "serves the same URI as",
            "earlier in this `resources![..]`; give one another URI",
        ),
    }
}
