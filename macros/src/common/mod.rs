//! What `#[tool]`, `#[prompt]` and `#[resource]` share: crate path, docs, names, signatures.

pub mod expand;
pub mod signature;

use crate::diag::err_on;
use darling::error::Accumulator;
use proc_macro2::{Span, TokenStream};
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Expr, Lit, Meta};

/// Resolves `crate = path`: `::rondo_mcp` by default; a relative path is an error with a fix-it.
pub fn crate_path(given: Option<syn::Path>, acc: &mut Accumulator) -> syn::Path {
    match given {
        None => crate::paths::default_crate(),
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
            crate::paths::default_crate()
        }
    }
}

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
        Some(format!("the {what} name is empty"))
    } else if len > MAX_NAME {
        Some(format!("{what} name `{name}` is {len} characters long"))
    } else {
        bad.map(|c| format!("{what} name `{name}` contains {c:?}"))
    };
    if let Some(problem) = problem {
        acc.push(crate::diag::err_at(
            span,
            format!(
                "{problem}; {what} names are 1 to {MAX_NAME} characters of `A-Z a-z 0-9 _ . -`; \
                 choose another with `name = \"...\"`"
            ),
        ));
    }
}

/// The name of a tool or prompt: `name = ".."` when given, else the function's name; checked
/// with [`check_name`] at the literal, or at the function's identifier.
pub fn resolve_name(
    what: &str,
    given: Option<&syn::LitStr>,
    ident: &syn::Ident,
    acc: &mut Accumulator,
) -> String {
    let (name, span) = match given {
        Some(lit) => (lit.value(), lit.span()),
        None => (unraw(ident), ident.span()),
    };
    check_name(what, &name, span, acc);
    name
}

/// An identifier without its `r#` prefix.
pub fn unraw(ident: &syn::Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}
