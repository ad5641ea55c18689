//! Attribute keys, checked against a macro's key table (`symbols.rs`) before darling reads them,
//! so every message is ours and names the attribute: an unknown key (with a suggestion), a key
//! given twice, a value of the wrong kind (`value.rs`), a bad element of a list of paths
//! (`list.rs`) or of strings (`strings.rs`), a word that is not one of the key's (`word.rs`).

pub mod list;
pub mod strings;
mod value;
pub mod word;

use crate::diag::{err_on, written};
use crate::symbols::{ITEM_KEYS, Key};
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use syn::spanned::Spanned;
use syn::{Meta, Path};

/// Checks `metas` against the `keys` of `#[attr]` and returns the ones darling may parse. Each
/// mistake is one error at the smallest culprit: an unknown key (suggesting the closest known
/// one: ``unknown `#[tool]` argument `descripton`; did you mean `description`?``), a key given
/// twice (at the second), or a value of the wrong kind (at the value).
///
/// A misspelt key is kept under the name it suggests, and a list keeps its good elements, so a
/// later check ("needs a description", "asks a question not in `asks`") does not report the same
/// mistake a second time.
pub fn known_keys(
    attr: &str,
    keys: &[Key],
    metas: Vec<NestedMeta>,
    acc: &mut Accumulator,
) -> Vec<NestedMeta> {
    let given: Vec<String> = metas.iter().filter_map(key_path).map(shown).collect();
    let mut kept: Vec<NestedMeta> = Vec::with_capacity(metas.len());
    for mut meta in metas {
        let Some(path) = key_path(&meta) else {
            acc.push(err_on(&meta, value::positional(attr, keys)));
            continue;
        };
        let key = match keys.iter().find(|(k, _)| *k == shown(path)) {
            Some(key) => *key,
            None => match unknown(attr, keys, &meta, &given, acc) {
                Some(key) => key,
                None => continue,
            },
        };
        if kept
            .iter()
            .any(|m| key_path(m).is_some_and(|p| p.is_ident(key.0)))
        {
            let msg = format!(
                "`#[{attr}]` argument `{}` is given twice; remove one",
                key.0
            );
            acc.push(err_on(path, msg));
            continue;
        }
        rename(&mut meta, key.0);
        kept.extend(value::check(attr, key, meta, acc));
    }
    kept
}

/// Reports an unknown key; returns the key it suggests when that key is not given elsewhere.
fn unknown(
    attr: &str,
    keys: &[Key],
    meta: &NestedMeta,
    given: &[String],
    acc: &mut Accumulator,
) -> Option<Key> {
    let path = key_path(meta)?;
    let word = shown(path);
    let owners = owners(attr, &word);
    let suggestion = path
        .get_ident()
        .filter(|_| owners.is_none())
        .and_then(|_| suggest(&word, keys, |k| value::fits(k, meta)));
    let mut msg = format!("unknown `#[{attr}]` argument `{word}`");
    if let Some(owners) = owners {
        msg.push_str(&format!(" (a {owners} argument)"));
    }
    match suggestion {
        Some((s, _)) => msg.push_str(&format!("; did you mean `{s}`?")),
        None => msg.push_str(&format!("; expected one of {}", listed(keys))),
    }
    acc.push(err_on(path, msg));
    suggestion.filter(|(s, _)| !given.iter().any(|w| w == s))
}

/// When `attr` is an item attribute, the other item attributes that take the key `word`, as
/// `` `#[tool]` ``: for `#[prompt(task = ..)]` the key is misplaced, not misspelt.
fn owners(attr: &str, word: &str) -> Option<String> {
    if !ITEM_KEYS.iter().any(|(a, _)| *a == attr) {
        return None;
    }
    let owners: Vec<String> = ITEM_KEYS
        .iter()
        .filter(|(a, keys)| *a != attr && keys.iter().any(|(k, _)| *k == word))
        .map(|(a, _)| format!("`#[{a}]`"))
        .collect();
    (!owners.is_empty()).then(|| word::either(owners.into_iter()))
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

/// A key path as written, without `r#`: `hints::read_only`.
fn shown(path: &Path) -> String {
    written(path).replace("r#", "")
}

/// `` `name`, `title` ``: the keys, for the message about an unknown one.
fn listed(keys: &[Key]) -> String {
    keys.iter()
        .map(|(k, _)| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The closest key within edit distance 3 of `word`, if any; among equally close keys, one whose
/// value kind `fits` what is written (so `aks = [..]` suggests a list key over a string key).
pub fn suggest(word: &str, keys: &[Key], fits: impl Fn(Key) -> bool) -> Option<Key> {
    // `destructive` for `destructive_hint`: a hint's name without its suffix is one edit away.
    let near = |key: &str| {
        let full = distance(word, key);
        key.strip_suffix("_hint")
            .map_or(full, |stem| full.min(distance(word, stem) + 1))
    };
    keys.iter()
        .map(|key| (near(key.0), !fits(*key), *key))
        .filter(|(d, _, (k, _))| *d <= 3.min(k.len() / 2 + 1))
        .min_by_key(|(d, misfit, _)| (*d, *misfit))
        .map(|(_, _, key)| key)
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

#[cfg(test)]
mod tests;
