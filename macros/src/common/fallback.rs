//! Fallback types for listed paths (`tools![..]` entries, `asks = [..]` entries), so that an
//! entry naming only a function is an error from a trait bound with its own message, not
//! rustc's "expected type, found function" (docs/design.md §9).
//!
//! Each entry is imported as `use path as <alias>;`, which brings every namespace the path has,
//! in a block below this glob import of a fallback struct offered under the same alias. The
//! explicit import wins per namespace: an item's hidden type is the alias's type, and a plain
//! function (a value only) leaves the fallback, a struct named after the function that
//! implements nothing. A path that does not resolve is one unresolved-import error, whose stand-in
//! binding shadows the glob (in the glob's own block the glob would win, and the entry would
//! fail its bound a second time).

use crate::diag::spanned_at;
use proc_macro2::TokenStream;
use quote::quote;

/// `mod __rondo_fallback { mod functions { pub struct search {} } pub use
/// self::functions::search as <alias>; } use __rondo_fallback::*;` for `(path, alias)` pairs.
/// The structs sit in a private module, so the glob brings only the aliases, never a name the
/// user's paths could resolve to. Each struct is written at its name in the entry, so rustc's
/// "not implemented for `search`" points there. Nothing when there are no entries.
pub fn fallbacks<'a>(
    entries: impl IntoIterator<Item = (&'a syn::Path, &'a syn::Ident)>,
) -> TokenStream {
    let mut names: Vec<&syn::Ident> = Vec::new();
    let mut aliases = Vec::new();
    for (path, alias) in entries {
        let Some(name) = path.segments.last().map(|s| &s.ident) else {
            continue;
        };
        if !names.contains(&name) {
            names.push(name);
        }
        aliases.push(quote!(pub use self::functions::#name as #alias;));
    }
    if aliases.is_empty() {
        return TokenStream::new();
    }
    let structs = names
        .iter()
        .map(|name| spanned_at(quote!(pub struct #name {}), name.span()));
    quote! {
        #[allow(non_camel_case_types, dead_code, unused_imports, unreachable_pub)]
        mod __rondo_fallback {
            mod functions {
                #(#structs)*
            }
            #(#aliases)*
        }
        #[allow(unused_imports)]
        use __rondo_fallback::*;
    }
}
