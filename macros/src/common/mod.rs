//! What `#[tool]`, `#[prompt]` and `#[resource]` share: crate path, docs, names, signatures.

pub mod expand;
pub mod signature;

use crate::diag::err_on;
use darling::error::Accumulator;
use proc_macro2::Span;
use syn::{Attribute, Expr, Lit, Meta};

/// Resolves `crate = path`: `::rondo_mcp` by default; a relative path is an error with a fix-it.
pub fn crate_path(given: Option<syn::Path>, acc: &mut Accumulator) -> syn::Path {
    match given {
        None => syn::parse_quote!(::rondo_mcp),
        Some(p)
            if p.leading_colon.is_some()
                || p.segments.first().is_some_and(|s| s.ident == "crate") =>
        {
            p
        }
        Some(p) => {
            let shown = quote::quote!(#p).to_string().replace(' ', "");
            acc.push(err_on(
                &p,
                format!("`crate` must be an absolute path; write `crate = ::{shown}`"),
            ));
            syn::parse_quote!(::rondo_mcp)
        }
    }
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

/// The longest tool or prompt name the macros accept: the spec's 1-128 intersected with what the
/// conformance suite checks (SEP-986: 1-64 of `[A-Za-z0-9_.-]`).
pub const MAX_NAME: usize = 64;

/// Checks a tool or prompt name; the error is spanned at `span` (the name literal, or the
/// function's identifier when the name was derived from it).
pub fn check_name(what: &str, name: &str, span: Span, acc: &mut Accumulator) {
    let bad = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')));
    let len = name.chars().count();
    let problem = if len == 0 {
        Some("is empty".to_owned())
    } else if len > MAX_NAME {
        Some(format!("is {len} characters long"))
    } else {
        bad.map(|c| format!("contains {c:?}"))
    };
    if let Some(problem) = problem {
        acc.push(crate::diag::err_at(
            span,
            format!(
                "{what} name `{name}` {problem}; {what} names are 1 to {MAX_NAME} characters of `A-Z a-z 0-9 _ . -`; \
                 choose another with `name = \"...\"`"
            ),
        ));
    }
}

/// An identifier without its `r#` prefix.
pub fn unraw(ident: &syn::Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}
