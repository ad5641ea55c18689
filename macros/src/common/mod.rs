//! What the attribute macros share: the entry driver (`entry`), argument reading (`args`), docs,
//! function parsing, signatures, and naming the elided lifetimes of question inputs (`lifetimes`).

pub mod args;
pub mod asks;
pub mod entry;
pub mod expand;
pub mod fallback;
pub mod lifetimes;
pub mod scopes;
pub mod signature;

use proc_macro2::TokenStream;
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Expr, Lit, Meta};

/// Parses the function an attribute is on. A function whose body does not parse keeps its
/// signature and its body verbatim: rustc reports the syntax error itself, and the expansion goes
/// on so that nothing naming the function adds a second error. `None` when it is not a function.
pub fn parse_fn(item: TokenStream) -> Option<syn::ItemFn> {
    syn::parse2(item.clone()).ok().or_else(|| {
        let (attrs, vis, sig, block) = Parser::parse2(verbatim_fn, item).ok()?;
        Some(syn::ItemFn {
            attrs,
            vis,
            modifiers: syn::FnModifiers::default(),
            sig,
            block: Box::new(block),
        })
    })
}

/// A function (or method) with its body kept as unparsed tokens; see [`parse_fn`].
pub fn verbatim_fn(
    input: ParseStream,
) -> syn::Result<(Vec<Attribute>, syn::Visibility, syn::Signature, syn::Block)> {
    let attrs = input.call(Attribute::parse_outer)?;
    let vis = input.parse()?;
    let sig = input.parse()?;
    let body: proc_macro2::Group = input.parse()?;
    let block = syn::Block {
        brace_token: syn::token::Brace(body.delim_span()),
        stmts: vec![syn::Stmt::Item(syn::Item::Verbatim(body.stream()))],
    };
    Ok((attrs, vis, sig, block))
}

/// The doc comment of an item: `///` lines joined with newlines, one leading space per line
/// removed, trimmed; `None` when there is none.
pub fn docs(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(l) => match &l.lit {
                    Lit::Str(s) => Some(s.value()),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .map(|l| l.strip_prefix(' ').unwrap_or(&l).trim_end().to_owned())
        .collect();
    let text = lines.join("\n").trim().to_owned();
    (!text.is_empty()).then_some(text)
}

/// An identifier without its `r#` prefix.
pub fn unraw(ident: &syn::Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}
