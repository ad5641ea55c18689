//! Error helpers: attribute keys checked with suggestions, spanned messages.

use crate::symbols::{Key, Value};
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Expr, Lit, Meta, Path};

/// Checks `metas` against the `keys` of `#[attr]` and returns the ones darling may parse. Each
/// mistake is one error at the smallest culprit: an unknown key (suggesting the closest known
/// one: ``unknown `#[tool]` argument `descripton`; did you mean `description`?``), a key given
/// twice (at the second), or a value of the wrong kind (at the value).
///
/// A misspelt key is kept under the name it suggests, so a later check ("needs a description")
/// does not report the same mistake a second time.
pub fn known_keys(
    attr: &str,
    keys: &[Key],
    metas: Vec<NestedMeta>,
    acc: &mut Accumulator,
) -> Vec<NestedMeta> {
    let written: Vec<String> = metas.iter().filter_map(key_path).map(shown).collect();
    let mut kept: Vec<NestedMeta> = Vec::with_capacity(metas.len());
    for mut meta in metas {
        let Some(path) = key_path(&meta) else {
            acc.push(err_on(&meta, positional(attr, keys)));
            continue;
        };
        let key = match keys.iter().find(|(k, _)| *k == shown(path)) {
            Some(key) => *key,
            None => match unknown(attr, keys, path, &written, acc) {
                Some(key) => key,
                None => continue,
            },
        };
        if kept
            .iter()
            .any(|m| key_path(m).is_some_and(|p| p.is_ident(key.0)))
        {
            acc.push(err_on(
                path,
                format!(
                    "`#[{attr}]` argument `{}` is given twice; remove one",
                    key.0
                ),
            ));
        } else if let Some(span) = bad_value(key.1, &meta) {
            acc.push(err_at(span, expected(attr, key)));
        } else {
            rename(&mut meta, key.0);
            kept.push(meta);
        }
    }
    kept
}

/// Reports an unknown key; returns the key it suggests when that key is not written elsewhere.
fn unknown(
    attr: &str,
    keys: &[Key],
    path: &Path,
    written: &[String],
    acc: &mut Accumulator,
) -> Option<Key> {
    let word = shown(path);
    let suggestion = path
        .get_ident()
        .and_then(|_| suggest(&word, keys))
        .and_then(|s| keys.iter().find(|(k, _)| *k == s).copied());
    let mut msg = format!("unknown `#[{attr}]` argument `{word}`");
    match suggestion {
        Some((s, _)) => msg.push_str(&format!("; did you mean `{s}`?")),
        None => msg.push_str(&format!("; expected one of {}", list(keys))),
    }
    acc.push(err_on(path, msg));
    suggestion.filter(|(s, _)| !written.iter().any(|w| w == s))
}

/// The key of a `key`, `key = value` or `key(..)` item; `None` for a bare literal.
fn key_path(meta: &NestedMeta) -> Option<&Path> {
    match meta {
        NestedMeta::Meta(m) => Some(m.path()),
        NestedMeta::NameValueInvalidExpr(nv) => Some(&nv.path),
        NestedMeta::Lit(_) => None,
    }
}

/// Renames a misspelt key to the known key it was taken for.
fn rename(meta: &mut NestedMeta, key: &str) {
    let path = match meta {
        NestedMeta::Meta(Meta::Path(p)) => p,
        NestedMeta::Meta(Meta::List(l)) => &mut l.path,
        NestedMeta::Meta(Meta::NameValue(nv)) => &mut nv.path,
        NestedMeta::NameValueInvalidExpr(nv) => &mut nv.path,
        NestedMeta::Lit(_) => return,
    };
    if !path.is_ident(key) {
        *path = syn::Ident::new(key, path.span()).into();
    }
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
        _ => false,
    }
}

/// ``"`#[tool]` argument `name` takes a string literal: `name = "..."`"``.
fn expected(attr: &str, key: Key) -> String {
    let what = match key.1 {
        Value::Str => "a string literal",
        Value::Bool => "`true` or `false`",
        Value::Path => "a path",
        Value::Expr => "an expression",
    };
    format!(
        "`#[{attr}]` argument `{}` takes {what}: write `{}`",
        key.0,
        example(key)
    )
}

/// The message for a bare literal where `key = value` was expected.
fn positional(attr: &str, keys: &[Key]) -> String {
    let example = keys.first().map(|k| example(*k)).unwrap_or_default();
    format!("`#[{attr}]` takes `key = value` arguments, not a bare literal; write e.g. `{example}`")
}

/// `name = "..."`, `read_only_hint = true`, `crate = ::rondo_mcp`.
fn example((key, value): Key) -> String {
    match value {
        Value::Str => format!("{key} = \"...\""),
        Value::Bool => format!("{key} = true"),
        Value::Path => format!("{key} = ::rondo_mcp"),
        Value::Expr => format!("{key} = ..."),
    }
}

/// A path as written, without spaces or `r#`: `hints::read_only`.
fn shown(path: &Path) -> String {
    quote::quote!(#path)
        .to_string()
        .replace(' ', "")
        .replace("r#", "")
}

fn list(keys: &[Key]) -> String {
    keys.iter()
        .map(|(k, _)| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The closest key within edit distance 3 of `word`, if any.
pub fn suggest(word: &str, keys: &[Key]) -> Option<&'static str> {
    keys.iter()
        .map(|(k, _)| (distance(word, k), *k))
        .filter(|(d, k)| *d <= 3.min(k.len() / 2 + 1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Levenshtein distance over chars.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// An error at `span`.
pub fn err_at(span: Span, msg: impl std::fmt::Display) -> darling::Error {
    darling::Error::custom(msg).with_span(&span)
}

/// An error at a syntax node (its first token, on stable).
pub fn err_on(node: &impl Spanned, msg: impl std::fmt::Display) -> darling::Error {
    err_at(node.span(), msg)
}

#[cfg(test)]
mod tests {
    use crate::symbols::TOOL_KEYS;

    #[test]
    fn suggestions() {
        assert_eq!(super::suggest("descripton", TOOL_KEYS), Some("description"));
        assert_eq!(
            super::suggest("readonly_hint", TOOL_KEYS),
            Some("read_only_hint")
        );
        assert_eq!(super::suggest("zzz", TOOL_KEYS), None);
    }
}
