//! String-list values, `key = ["a", "b"]`: the elements are string literals, each written once.
//! Each bad element is one error at it and is dropped; the rest of the list stays, so a later
//! check on the list (the model's) does not report the same mistake again. What the strings
//! must be is the model's rule (`common::scopes`), not the key's.

use crate::diag::{err_on, written};
use darling::FromMeta;
use darling::error::Accumulator;
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Expr, ExprArray, Lit, LitStr};

/// A list of string literals as darling reads it, after [`prune`]: `scopes = ["a", "b"]`.
#[derive(Clone, Debug)]
pub struct StrList {
    /// The literals, in the order written, distinct; each keeps its own span, so an error about
    /// one element points at it.
    pub strs: Vec<LitStr>,
    /// Where the list is written (its brackets), for a rule about the list as a whole.
    pub span: Span,
}

impl FromMeta for StrList {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        match expr {
            Expr::Group(g) => Self::from_expr(&g.expr),
            Expr::Array(array) => {
                let strs = array.elems.iter().map(element).collect::<Option<_>>();
                strs.map(|strs| StrList {
                    strs,
                    span: array.span(),
                })
                .ok_or_else(|| {
                    darling::Error::custom("expected a list of string literals").with_span(expr)
                })
            }
            _ => Err(darling::Error::unexpected_expr_type(expr)),
        }
    }
}

/// Reports each element of `array` that is not a string literal (at it) and each string given a
/// second time (at the second), and removes them: `#[attr]` argument `key` keeps its distinct
/// strings. `false` when the list had elements and none is left, so that the key is dropped
/// rather than read as an empty list (whose own rule would report the same mistake again).
pub fn prune(attr: &str, key: &str, array: &mut ExprArray, acc: &mut Accumulator) -> bool {
    let mut seen: Vec<String> = Vec::new();
    let elems = std::mem::take(&mut array.elems);
    let written_any = !elems.is_empty();
    for elem in elems {
        let Some(lit) = element(&elem) else {
            acc.push(err_on(&elem, not_a_string(attr, key, &elem)));
            continue;
        };
        if seen.contains(&lit.value()) {
            let msg = format!(
                "`{}` is listed twice in `#[{attr}]` argument `{key}`; remove one",
                lit.token()
            );
            acc.push(err_on(&elem, msg));
            continue;
        }
        seen.push(lit.value());
        array.elems.push(elem);
    }
    !(written_any && array.elems.is_empty())
}

/// The message for an element that is not a string literal: a bare word or another literal is
/// told to take quotes (`"a"`), anything else to be written out as a string.
fn not_a_string(attr: &str, key: &str, elem: &Expr) -> String {
    let rule = format!(
        "`#[{attr}]` argument `{key}` takes a list of string literals, and this element is not one"
    );
    match ungrouped(elem) {
        Expr::Path(p) if p.qself.is_none() => {
            format!("{rule}; write it in quotes: `\"{}\"`", written(&p.path))
        }
        Expr::Lit(l) if matches!(l.lit, Lit::Int(_) | Lit::Float(_) | Lit::Bool(_)) => {
            format!("{rule}; write it in quotes: `\"{}\"`", written(&l.lit))
        }
        Expr::Lit(syn::ExprLit {
            lit: Lit::Char(c), ..
        }) => format!("{rule}; write it in double quotes: `\"{}\"`", c.value()),
        _ => format!(
            "{rule}: the value is checked when the macro expands, so it must be written out; write a literal such as `\"orders:write\"`"
        ),
    }
}

/// The string literal an element is, looking through the invisible group of a `macro_rules!`
/// fragment; `None` for anything else.
fn element(elem: &Expr) -> Option<LitStr> {
    match ungrouped(elem) {
        Expr::Lit(l) => match &l.lit {
            Lit::Str(s) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// The expression inside the invisible groups of `macro_rules!` fragments.
fn ungrouped(expr: &Expr) -> &Expr {
    match expr {
        Expr::Group(g) => ungrouped(&g.expr),
        other => other,
    }
}
