//! Error helpers: unknown keys with suggestions, spanned messages.

use darling::ast::NestedMeta;
use proc_macro2::Span;
use syn::spanned::Spanned;

/// Splits `metas` into the known ones and errors for the unknown ones, each spanned at the key
/// and suggesting the closest known key:
/// ``unknown `#[tool]` argument `descripton`; did you mean `description`?``.
pub fn known_keys(
    attr: &str,
    keys: &[&str],
    metas: Vec<NestedMeta>,
    acc: &mut darling::error::Accumulator,
) -> Vec<NestedMeta> {
    let mut kept = Vec::with_capacity(metas.len());
    for meta in metas {
        let NestedMeta::Meta(m) = &meta else {
            acc.push(
                darling::Error::custom(format!("`#[{attr}]` takes `key = value` arguments"))
                    .with_span(&meta),
            );
            continue;
        };
        let key = m
            .path()
            .get_ident()
            .map(|i| i.to_string().trim_start_matches("r#").to_owned());
        match key {
            Some(k) if keys.contains(&k.as_str()) => kept.push(meta),
            Some(k) => {
                let mut msg = format!("unknown `#[{attr}]` argument `{k}`");
                match suggest(&k, keys) {
                    Some(s) => msg.push_str(&format!("; did you mean `{s}`?")),
                    None => msg.push_str(&format!("; expected one of {}", list(keys))),
                }
                acc.push(darling::Error::custom(msg).with_span(&m.path()));
            }
            None => acc.push(
                darling::Error::custom(format!(
                    "unknown `#[{attr}]` argument; expected one of {}",
                    list(keys)
                ))
                .with_span(&m.path()),
            ),
        }
    }
    kept
}

fn list(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The closest key within edit distance 3 of `word`, if any.
pub fn suggest<'a>(word: &str, keys: &[&'a str]) -> Option<&'a str> {
    keys.iter()
        .map(|k| (distance(word, k), *k))
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

/// An error at a syntax node.
pub fn err_on(node: &impl Spanned, msg: impl std::fmt::Display) -> darling::Error {
    err_at(node.span(), msg)
}

#[cfg(test)]
mod tests {
    #[test]
    fn suggestions() {
        let keys = super::super::symbols::TOOL_KEYS;
        assert_eq!(super::suggest("descripton", keys), Some("description"));
        assert_eq!(
            super::suggest("readonly_hint", keys),
            Some("read_only_hint")
        );
        assert_eq!(super::suggest("zzz", keys), None);
    }
}
