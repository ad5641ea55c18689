//! `asks = [..]` on `#[tool]`, `#[prompt]`, `#[resource]` and `#[toolbox]` methods: the questions
//! a function may ask (docs/design.md, "Typed questions").
//!
//! The function's body starts by rebinding its context to an `Asking<'_, S>` for a hidden set
//! type `S` defined in the body, which every listed question implements `Declared<S>` for; the
//! context's `ask` accepts only such questions, so asking anything else is one trait error at
//! the ask. Questions with `fallback = args` add their form's fields to a tool's input schema,
//! and a field that has the name of a tool argument is a `const` error at the list entry.

use crate::common::signature::{Arg, Signature};
use crate::diag::err_on;
use crate::keys::list::PathList;
use crate::paths::{NONE, PANIC, Paths, SOME, STR};
use darling::error::Accumulator;
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// The questions a function declares, checked.
#[derive(Default)]
pub struct Asks {
    /// The questions' paths as written, each spanned at the user's entry; distinct.
    pub paths: Vec<syn::Path>,
}

/// Checks `asks = [..]` against the signature: asking needs a context bound to a plain name.
pub fn model(attr: &str, given: Option<PathList>, sig: &Signature, acc: &mut Accumulator) -> Asks {
    let paths = given.map(|l| l.paths).unwrap_or_default();
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

/// The hidden set type, local to the function's body.
fn set_ident() -> syn::Ident {
    syn::Ident::new("__RondoAsks", Span::mixed_site())
}

/// `block` with the context rebound first (see the module docs); unchanged when the function has
/// no context to rebind.
pub fn rebind(krate: &syn::Path, asks: &Asks, sig: &Signature, block: &syn::Block) -> syn::Block {
    let Some(binding) = &sig.context_binding else {
        return block.clone();
    };
    let paths = Paths::new(krate);
    let (set, asking) = (set_ident(), paths.asking());
    let impls = asks.paths.iter().map(|q| {
        let declared = paths.declared().at(q.span());
        quote_spanned!(q.span()=> impl #declared<#set> for #q {})
    });
    let prelude: TokenStream = quote! {
        #[allow(non_camel_case_types, dead_code)]
        struct #set;
        #(#impls)*
        let #binding = &#asking::<#set>::new(#binding);
    };
    let mut stmts: Vec<syn::Stmt> = match syn::parse2::<syn::Block>(quote!({ #prelude })) {
        Ok(b) => b.stmts,
        Err(_) => Vec::new(),
    };
    stmts.extend(block.stmts.iter().cloned());
    syn::Block {
        brace_token: block.brace_token,
        stmts,
    }
}

/// A tool's input schema with the arguments of its `fallback = args` questions added.
pub fn schema(paths: &Paths, asks: &Asks, base: TokenStream) -> TokenStream {
    if asks.paths.is_empty() {
        return base;
    }
    let (with, decl) = (paths.with_question_arguments(), paths.question_decl());
    let each = asks
        .paths
        .iter()
        .map(|q| quote!(<#q as #decl>::argument_schema));
    quote!(#with(#base, &[#(#each),*]))
}

/// For each entry, a `const` error (at the entry) when a field its `fallback = args` adds has
/// the wire name of one of the tool's `args`.
pub fn collisions(paths: &Paths, asks: &Asks, tool: &str, args: &[Arg]) -> TokenStream {
    let names: Vec<&str> = args
        .iter()
        .filter(|a| !a.flatten)
        .map(|a| a.wire.as_str())
        .collect();
    if names.is_empty() {
        return TokenStream::new();
    }
    let (collision, decl) = (paths.argument_collision(), paths.question_decl());
    let checks = asks.paths.iter().map(|q| {
        let shown = crate::diag::written(q);
        let messages = names.iter().map(|n| {
            format!(
                "the argument `{n}` of tool `{tool}` is also a field of the form `{shown}`, which \
                 `fallback = args` adds to the tool's arguments; rename the argument with \
                 `#[arg(rename = \"...\")]` or the field with `#[elicit(rename = \"...\")]`"
            )
        });
        quote_spanned! {q.span()=>
            const _: () = {
                const MESSAGES: &[&#STR] = &[#(#messages),*];
                match #collision(&[#(#names),*], <#q as #decl>::ARGUMENTS) {
                    #SOME(i) => #PANIC!("{}", MESSAGES[i]),
                    #NONE => {}
                }
            };
        }
    });
    quote!(#(#checks)*)
}

/// For `#[prompt]` and `#[resource]`: a `const` error (at the entry) for a question whose
/// fallback is `args`, since only a tool has arguments its form's fields can join.
pub fn no_argument_fallbacks(paths: &Paths, asks: &Asks, attr: &str) -> TokenStream {
    let decl = paths.question_decl();
    let checks = asks.paths.iter().map(|q| {
        let message = format!(
            "`{}` takes `fallback = args`, which adds its form's fields to a tool's arguments, and a `#[{attr}]` has none; \
             give the question another fallback, or ask it from a tool",
            crate::diag::written(q)
        );
        quote_spanned! {q.span()=>
            const _: () = if <#q as #decl>::ARGS_FALLBACK {
                #PANIC!("{}", #message)
            };
        }
    });
    quote!(#(#checks)*)
}
