//! What the attribute macros read the same way: the argument list, `crate = path`, the name
//! (given or the function's) and the description (given or the doc comment).

use super::{docs, unraw};
use crate::diag::{err_on, written};
use crate::keys::known_keys;
use crate::symbols::Key;
use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use proc_macro2::{Span, TokenStream};

/// Where `key = ..` is written among `metas`: the key's own token, if it is.
pub fn key_span(metas: &[NestedMeta], key: &str) -> Option<Span> {
    metas.iter().find_map(|meta| match meta {
        NestedMeta::Meta(syn::Meta::NameValue(nv)) if nv.path.is_ident(key) => {
            Some(syn::spanned::Spanned::span(&nv.path))
        }
        _ => None,
    })
}

/// Splits an attribute's tokens into items; `None` when they do not parse (the error is reported).
pub fn meta_list(args: TokenStream, acc: &mut Accumulator) -> Option<Vec<NestedMeta>> {
    acc.handle(NestedMeta::parse_meta_list(args).map_err(darling::Error::from))
}

/// Checks the keys of `#[attr(..)]` against `keys` (with suggestions), then lets darling read the
/// ones kept; `None` when darling fails (the error is reported).
pub fn from_metas<T: FromMeta>(
    attr: &str,
    keys: &[Key],
    metas: Vec<NestedMeta>,
    acc: &mut Accumulator,
) -> Option<T> {
    let metas = known_keys(attr, keys, metas, acc);
    acc.handle(T::from_list(&metas))
}

/// The `crate = ::path;` that may open a function-like macro's input (`tools![crate = ::p; a]`,
/// `skills!(crate = ::p; "skills")`), consumed when present.
pub fn crate_prefix(input: syn::parse::ParseStream) -> syn::Result<Option<syn::Path>> {
    if !(input.peek(syn::Token![crate]) && input.peek2(syn::Token![=])) {
        return Ok(None);
    }
    input.parse::<syn::Token![crate]>()?;
    input.parse::<syn::Token![=]>()?;
    let path = input.parse()?;
    input.parse::<syn::Token![;]>()?;
    Ok(Some(path))
}

/// Resolves `crate = path`: `::rondo_mcp` by default. The path must be absolute, so that no item of
/// the user's can capture it (CONTRIBUTING.md, "Paths and hygiene"): `::a`, `crate::a`, or
/// `$crate::a`, which is how a wrapper crate's `macro_rules!` names itself. A relative path is an
/// error with a fix-it.
pub fn crate_path(given: Option<syn::Path>, acc: &mut Accumulator) -> syn::Path {
    let Some(path) = given else {
        return crate::paths::default_crate();
    };
    match relative(&path) {
        None => path,
        Some(msg) => {
            acc.push(err_on(&path, msg));
            crate::paths::default_crate()
        }
    }
}

/// The message for a relative `crate = path`, or `None` for an absolute one.
fn relative(path: &syn::Path) -> Option<String> {
    let first = path.segments.first()?.ident.to_string();
    if path.leading_colon.is_some() || first == "crate" || first == "$crate" {
        return None;
    }
    let shown = written(path);
    Some(match first.as_str() {
        "self" | "super" => format!(
            "`crate` must be an absolute path, and `{first}` is relative to this module; write the path from the crate root: `crate = crate::...`"
        ),
        _ => format!(
            "`crate` must be an absolute path; write `crate = ::{shown}` for a crate, or `crate = crate::{shown}` for an item at the crate root"
        ),
    })
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
    let (name, span) = name_or_ident(given, ident);
    check_name(what, &name, span, acc);
    name
}

/// `name = ".."` when given, else the function's name (without `r#`), with the span to report a
/// problem with it at: the literal, or the function's identifier.
pub fn name_or_ident(given: Option<&syn::LitStr>, ident: &syn::Ident) -> (String, Span) {
    match given {
        Some(lit) => (lit.value(), lit.span()),
        None => (unraw(ident), ident.span()),
    }
}

/// `description = ".."` when given (even blank), else the doc comment; `None` when neither is
/// written. Whether a description is required is the caller's rule.
pub fn description_or_docs(
    given: Option<&syn::LitStr>,
    attrs: &[syn::Attribute],
) -> Option<String> {
    given.map(syn::LitStr::value).or_else(|| docs(attrs))
}
