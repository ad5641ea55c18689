//! What the value of a key must be (`symbols::Value`), and the message when it is not.

use super::{list, strings, word};
use crate::diag::{err_at, err_on};
use crate::symbols::{ELICIT, FALLBACK, FALLBACK_ARGS, Key, REFUSE, Value};
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Expr, Lit, Meta};

/// Checks the value of `meta` (whose key is `key`); the meta darling may read, or `None` once
/// the error is reported. A list keeps its good elements (`list::prune`); a lone path where a
/// list goes is an error and is kept as a list of one.
pub fn check(attr: &str, key: Key, meta: NestedMeta, acc: &mut Accumulator) -> Option<NestedMeta> {
    if let Value::Word(words) = key.1 {
        return Some(word::check(attr, key.0, words, meta, acc));
    }
    match meta {
        NestedMeta::Meta(Meta::NameValue(mut nv))
            if matches!(key.1, Value::PathList | Value::StrList) =>
        {
            let kept = list_value(attr, key, &mut nv.value, acc);
            kept.then(|| NestedMeta::Meta(Meta::NameValue(nv)))
        }
        meta => match bad_value(key.1, &meta) {
            Some(span) => {
                acc.push(err_at(span, expected(attr, key)));
                None
            }
            None => Some(meta),
        },
    }
}

/// The value of a list key, pruned in place; `false` when nothing of it can be kept. A lone
/// element (a path for a path list, a string for a string list) is an error and is kept as a
/// list of one, so a later check on the list reads it.
fn list_value(attr: &str, key: Key, value: &mut Expr, acc: &mut Accumulator) -> bool {
    match value {
        Expr::Group(g) => list_value(attr, key, &mut g.expr, acc),
        Expr::Array(array) if key.1 == Value::StrList => strings::prune(attr, key.0, array, acc),
        Expr::Array(array) => {
            list::prune(attr, key.0, array, acc);
            true
        }
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) if key.1 == Value::StrList => {
            let msg = format!(
                "`#[{attr}]` argument `{}` takes a list of string literals, not a single string: write `{} = [{}]`",
                key.0,
                key.0,
                s.token()
            );
            acc.push(err_on(&*value, msg));
            *value = syn::parse_quote!([#value]);
            true
        }
        Expr::Path(p) if p.qself.is_none() && key.1 == Value::PathList => {
            acc.push(err_on(value, expected(attr, key)));
            *value = syn::parse_quote!([#value]);
            true
        }
        other => {
            acc.push(err_on(other, expected(attr, key)));
            false
        }
    }
}

/// Whether what `meta` gives is a value of `key`'s kind; a list fits when it is a list at all.
pub fn fits(key: Key, meta: &NestedMeta) -> bool {
    bad_value(key.1, meta).is_none()
}

/// Where the value of `meta` is not a `value`, if it is not.
fn bad_value(value: Value, meta: &NestedMeta) -> Option<Span> {
    match meta {
        NestedMeta::Meta(Meta::Path(p)) => (value != Value::Bool).then(|| p.span()),
        NestedMeta::Meta(Meta::List(l)) => Some(l.path.span()),
        NestedMeta::Meta(Meta::NameValue(nv)) => {
            (!accepts(value, &nv.value)).then(|| nv.value.span())
        }
        NestedMeta::NameValueInvalidExpr(nv) => Some(
            nv.value
                .clone()
                .into_iter()
                .next()
                .map_or(nv.eq_token.span, |t| t.span()),
        ),
        NestedMeta::Lit(_) => None,
    }
}

/// Whether `expr` is a `value`; invisible groups (from `macro_rules!` fragments) are looked through.
fn accepts(value: Value, expr: &Expr) -> bool {
    match (value, expr) {
        (_, Expr::Group(g)) => accepts(value, &g.expr),
        (Value::Expr, _) => true,
        (Value::Str, Expr::Lit(l)) => matches!(l.lit, Lit::Str(_)),
        (Value::Bool, Expr::Lit(l)) => matches!(l.lit, Lit::Bool(_)),
        (Value::Path, Expr::Path(p)) => p.qself.is_none(),
        (Value::PathList | Value::StrList, Expr::Array(_)) => true,
        (Value::Word(words), Expr::Path(p)) => p
            .path
            .get_ident()
            .is_some_and(|i| words.iter().any(|w| i == w)),
        _ => false,
    }
}

/// ``"`#[tool]` argument `name` takes a string literal: write `name = "..."`"``.
fn expected(attr: &str, key: Key) -> String {
    let what = match key.1 {
        Value::Str => "a string literal",
        Value::Bool => "`true` or `false`",
        Value::Path => "a path",
        Value::PathList => "a list of paths",
        Value::StrList => "a list of string literals",
        Value::Expr => "an expression",
        Value::Word(words) => return word::expected(attr, key.0, words),
    };
    format!(
        "`#[{attr}]` argument `{}` takes {what}: write {}",
        key.0,
        example(attr, key)
    )
}

/// The message for a bare literal where `key = value` was expected.
pub fn positional(attr: &str, keys: &[Key]) -> String {
    let example = keys.first().map(|k| example(attr, *k)).unwrap_or_default();
    format!("`#[{attr}]` takes `key = value` arguments, not a bare literal; write e.g. {example}")
}

/// `` `name = "..."` ``, `` `read_only_hint = true` ``, `` `crate = ::rondo_mcp` ``,
/// `` `asks = [..]` ``; for `fallback`, its forms (`args` only where `attr` takes it).
fn example(attr: &str, (key, value): Key) -> String {
    match value {
        Value::Str => format!("`{key} = \"...\"`"),
        Value::Bool => format!("`{key} = true`"),
        Value::Path if key == FALLBACK && attr == ELICIT => {
            format!("`{key} = some_fn`, `{key} = {FALLBACK_ARGS}` or `{key} = {REFUSE}`")
        }
        Value::Path if key == FALLBACK => format!("`{key} = some_fn` or `{key} = {REFUSE}`"),
        Value::Path => format!("`{key} = ::rondo_mcp`"),
        Value::PathList => format!("`{key} = [..]`"),
        Value::StrList => format!("`{key} = [\"...\"]`"),
        Value::Expr => format!("`{key} = ...`"),
        Value::Word(words) => format!("`{key} = {}`", words[0]),
    }
}
