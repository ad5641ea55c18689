//! `asks = [..]` on `#[tool]`, `#[prompt]`, `#[resource]` and `#[toolbox]` methods: the questions
//! a function may ask (docs/design.md §4).
//!
//! The function's body starts by rebinding its context to an `Asking<'_, S>` for a set type `S`
//! (a free function's hidden type, or a toolbox method's `<Self as AsksOf<N>>::Set`), which
//! every listed question implements `Declared<S>` for; the context's `ask` accepts only such
//! questions, so asking anything else is one trait error at the ask.
//!
//! The entries are resolved once, in a scope next to the handler's impl ([`scope`]): each is
//! imported under a hidden name, `__rondo_ask_G_N`, next to a fallback type (as `tools![..]`
//! entries are, `common::fallback`), so a plain function is the fallback, which is no question:
//! `Declared`'s supertrait fails at the entry ("`approve` is not a question"), and an unknown
//! path is rustc's one unresolved-import error. The checks that read the entries do so
//! through `Listed::<Q>`, which stands in defaults for a non-question, so nothing else repeats
//! its error. Questions with `fallback = args` add their form's fields to a tool's input schema,
//! and a field that has the name of a tool argument is a `const` error at the entry.

use crate::common::fallback::fallbacks;
use crate::common::signature::{Arg, Signature};
use crate::diag::{err_on, spanned_at, written};
use crate::keys::list::PathList;
use crate::paths::{NONE, PANIC, Paths, SOME, STR};
use darling::error::Accumulator;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;

/// The questions a function declares, checked.
#[derive(Default)]
pub struct Asks {
    /// The questions' paths as written, each spanned at the user's entry; distinct.
    pub paths: Vec<syn::Path>,
}

/// Checks `asks = [..]` against the signature: asking needs a context bound to a plain name.
pub fn model(attr: &str, given: Option<PathList>, sig: &Signature, acc: &mut Accumulator) -> Asks {
    let mut paths = given.map(|l| l.paths).unwrap_or_default();
    for path in &mut paths {
        check_no_arguments(path, acc);
    }
    if let Some(first) = paths.first() {
        if sig.context.is_none() {
            acc.push(err_on(
                first,
                format!(
                    "a `#[{attr}]` function asks its questions through its context; add `cx: &Cx` as the first parameter"
                ),
            ));
        } else if sig.context_binding.is_none() {
            acc.push(err_on(
                first,
                format!(
                    "a `#[{attr}]` function with `asks = [..]` asks through its context, so bind it to a name: `cx: &Cx`"
                ),
            ));
        }
    }
    Asks { paths }
}

/// A question's path has no generic arguments (its hidden type has none): an error at them,
/// and the entry is kept without them, so the asks that name it add no second error.
fn check_no_arguments(path: &mut syn::Path, acc: &mut Accumulator) {
    let Some(segment) = path.segments.iter().find(|s| !s.arguments.is_none()) else {
        return;
    };
    let arguments = segment.arguments.clone();
    for segment in &mut path.segments {
        segment.arguments = syn::PathArguments::None;
    }
    acc.push(err_on(
        &arguments,
        format!(
            "`asks = [..]` lists question functions, which take no generic arguments; write `{}`",
            written(path)
        ),
    ));
}

/// The entries of one function in a [`scope`]: `group` numbers the function among those whose
/// entries share the scope (a toolbox's methods), so each entry has its own hidden name.
#[derive(Clone, Copy)]
pub struct Group<'a> {
    /// The function's declared questions.
    pub asks: &'a Asks,
    /// Its number in the scope.
    pub index: usize,
}

impl<'a> Group<'a> {
    /// The questions of a free function, the only one in its scope.
    pub fn of(asks: &'a Asks) -> Self {
        Group { asks, index: 0 }
    }

    /// Each entry with its hidden name, `__rondo_ask_G_N`, resolving at the call site and
    /// located at the entry, so an error about it points there.
    fn entries(&self) -> impl Iterator<Item = (&'a syn::Path, syn::Ident)> {
        let group = self.index;
        self.asks.paths.iter().enumerate().map(move |(i, path)| {
            let span = Span::call_site().located_at(path.span());
            let alias = syn::Ident::new(&format!("__rondo_ask_{group}_{i}"), span);
            (path, alias)
        })
    }
}

/// `block` with the context rebound first, to an `&Asking<'_, #set>` (see the module docs);
/// unchanged when the function has no context bound to a name. Two autoref-dispatched steps
/// (`__private::RebindCx`) keep a context of the wrong type as it is, so its error (at its
/// type) is the only one. One trait of each pair goes unused, which rustc reports when the
/// crate path comes from a local `macro_rules!` (`crate = $crate::mcp`): hence the `allow`s.
pub fn rebind(
    krate: &syn::Path,
    sig: &Signature,
    set: TokenStream,
    block: &syn::Block,
) -> syn::Block {
    let Some(binding) = &sig.context_binding else {
        return block.clone();
    };
    let paths = Paths::new(krate);
    let (rebind_cx, rebind_other) = (paths.rebind_cx(), paths.rebind_other());
    let (rebind_ref, rebind_ref_other) = (paths.rebind_ref(), paths.rebind_ref_other());
    let asking = syn::Ident::new("__rondo_asking", Span::mixed_site());
    let rebind: [syn::Stmt; 2] = [
        syn::parse_quote! {
            #[allow(unused_imports)]
            let #asking = {
                use #rebind_cx as _;
                use #rebind_other as _;
                (&#binding).__rondo_asking::<#set>()
            };
        },
        syn::parse_quote! {
            #[allow(unused_imports)]
            let #binding = {
                use #rebind_ref as _;
                use #rebind_ref_other as _;
                (&#asking).__rondo_context()
            };
        },
    ];
    let mut stmts = rebind.to_vec();
    stmts.extend(block.stmts.iter().cloned());
    syn::Block {
        brace_token: block.brace_token,
        stmts,
    }
}

/// The entries of `groups` imported under their hidden names (see the module docs), then
/// `inner`, which names them: `fallback; use fallback::*; const _: () = { imports; inner };`.
/// Just `inner` when nothing is listed.
pub fn scope(paths: &Paths, groups: &[Group], inner: TokenStream) -> TokenStream {
    let entries: Vec<(&syn::Path, syn::Ident)> = groups.iter().flat_map(Group::entries).collect();
    if entries.is_empty() {
        return inner;
    }
    let fallbacks = fallbacks(entries.iter().map(|(path, alias)| (*path, alias)));
    let imports = entries
        .iter()
        .map(|(path, alias)| quote!(#[allow(unused_imports)] use #path as #alias;));
    let not_listed = paths.not_listed();
    quote! {
        #fallbacks
        const _: () = {
            #(#imports)*
            #[allow(unused_imports)]
            use #not_listed as _;
            #inner
        };
    }
}

/// `impl Declared<#set> for __rondo_ask_G_N {}` for each entry of `group`, located at the entry:
/// an entry that is not a question fails `Declared`'s supertrait there.
pub fn declare(paths: &Paths, group: Group, set: &TokenStream) -> TokenStream {
    let declared = paths.declared();
    let impls = group.entries().map(|(path, alias)| {
        spanned_at(
            quote!(#[automatically_derived] impl #declared<#set> for #alias {}),
            path.span(),
        )
    });
    quote!(#(#impls)*)
}

/// A tool's input schema with the arguments of its `fallback = args` questions added.
pub fn schema(paths: &Paths, group: Group, base: TokenStream) -> TokenStream {
    if group.asks.paths.is_empty() {
        return base;
    }
    let (with, listed) = (paths.with_question_arguments(), paths.listed());
    let each = group
        .entries()
        .map(|(_, alias)| quote!(#listed::<#alias>::argument_schema));
    quote!(#with(#base, &[#(#each),*]))
}

/// A tool's, prompt's or resource's definition with its questions advertised in its `_meta`
/// (`with_asks`), in declaration order; unchanged for one that asks nothing.
pub fn meta(paths: &Paths, group: Group, definition: TokenStream) -> TokenStream {
    if group.asks.paths.is_empty() {
        return definition;
    }
    let (with, listed) = (paths.with_asks(), paths.listed());
    let each = group
        .entries()
        .map(|(_, alias)| quote!(#listed::<#alias>::META));
    quote!(#with(#definition, &[#(#each),*]))
}

/// For each entry, a `const` error (at the entry) when a field its `fallback = args` adds has
/// the wire name of one of the tool's `args`.
pub fn collisions(paths: &Paths, group: Group, tool: &str, args: &[Arg]) -> TokenStream {
    let names: Vec<&str> = args
        .iter()
        .filter(|a| !a.flatten)
        .map(|a| a.wire.as_str())
        .collect();
    if names.is_empty() {
        return TokenStream::new();
    }
    let (collision, listed) = (paths.argument_collision(), paths.listed());
    let checks = group.entries().map(|(q, alias)| {
        let shown = written(q);
        let messages = names.iter().map(|n| {
            format!(
                "the argument `{n}` of tool `{tool}` is also a field of the form `{shown}`, which \
                 `fallback = args` adds to the tool's arguments; rename the argument with \
                 `#[arg(rename = \"...\")]` or the field with `#[elicit(rename = \"...\")]`"
            )
        });
        let check = quote! {
            const _: () = {
                const MESSAGES: &[&#STR] = &[#(#messages),*];
                match #collision(&[#(#names),*], #listed::<#alias>::ARGUMENTS) {
                    #SOME(i) => #PANIC!("{}", MESSAGES[i]),
                    #NONE => {}
                }
            };
        };
        spanned_at(check, q.span())
    });
    quote!(#(#checks)*)
}

/// For `#[prompt]` and `#[resource]`: a `const` error (at the entry) for a question whose
/// fallback is `args`, since only a tool has arguments its form's fields can join.
pub fn no_argument_fallbacks(paths: &Paths, group: Group, attr: &str) -> TokenStream {
    let listed = paths.listed();
    let checks = group.entries().map(|(q, alias)| {
        let message = format!(
            "`{}` takes `fallback = args`, which adds its form's fields to a tool's arguments, and a `#[{attr}]` has none; \
             give the question another fallback, or ask it from a tool",
            written(q)
        );
        let check = quote! {
            const _: () = if #listed::<#alias>::ARGS_FALLBACK {
                #PANIC!("{}", #message)
            };
        };
        spanned_at(check, q.span())
    });
    quote!(#(#checks)*)
}

/// A free function, its context rebound to its hidden type (the set); then `next` (the hidden
/// type, or its stub next to errors); then the scope declaring the function's questions for the
/// set around `inner` (the handler impl and its checks; empty for the stub) in a `const _` item,
/// left out when there is nothing in it. A function that asks nothing and whose `inner` holds
/// only impls (`bare`) needs no scope: the impls go beside it, one item fewer for every build
/// to resolve and hash (design §9, "Build cost").
pub fn free_fn(
    krate: &syn::Path,
    asks: &Asks,
    sig: &Signature,
    func: &syn::ItemFn,
    next: TokenStream,
    (inner, bare): (TokenStream, bool),
) -> TokenStream {
    let paths = Paths::new(krate);
    let ident = &sig.ident;
    let mut func = func.clone();
    *func.block = rebind(krate, sig, quote!(#ident), &func.block);
    let group = Group::of(asks);
    let declared = declare(&paths, group, &quote!(#ident));
    let scoped = scope(&paths, &[group], quote!(#declared #inner));
    if scoped.is_empty() || (bare && group.asks.paths.is_empty()) {
        quote!(#func #next #scoped)
    } else {
        quote!(#func #next const _: () = { #scoped };)
    }
}
