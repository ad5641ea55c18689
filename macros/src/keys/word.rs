//! Word values, `task = optional`: one of the few bare words a key lists (`Value::Word`). Any
//! other value is one error at it: a near miss suggests the word it is close to, a string is
//! told to lose its quotes. The key is then kept with the word it is taken for (the suggestion,
//! else the first word), so a later check that reads the key (`task_start` needs `task`) does not
//! report it missing; a macro with errors expands no further than its stub, so the stand-in
//! word never reaches generated code.

use super::suggest;
use crate::diag::err_at;
use crate::symbols::Value;
use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Expr, Lit, Meta, Path};

/// A word value as darling reads it, after [`check`]: `task = optional`.
#[derive(Clone, Debug)]
pub struct Word {
    /// The word, one of the key's.
    pub word: String,
    /// Where the key is written, for a rule about the key as a whole.
    pub key: Span,
}

impl FromMeta for Word {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        match item {
            Meta::NameValue(nv) => Ok(Word {
                word: syn::Ident::from_expr(&nv.value)?.to_string(),
                key: nv.path.span(),
            }),
            _ => Err(darling::Error::unsupported_format("a bare word").with_span(item)),
        }
    }
}

/// Checks the value of `meta`, whose key is `key` taking one of `words`; the meta darling may
/// read, the key given a word either way (see the module's note).
pub fn check(
    attr: &str,
    key: &'static str,
    words: &'static [&'static str],
    meta: NestedMeta,
    acc: &mut Accumulator,
) -> NestedMeta {
    let (path, value) = match &meta {
        NestedMeta::Meta(Meta::NameValue(nv)) => (&nv.path, Some(&nv.value)),
        NestedMeta::Meta(Meta::Path(p)) => (p, None),
        NestedMeta::Meta(Meta::List(l)) => (&l.path, None),
        NestedMeta::NameValueInvalidExpr(nv) => (&nv.path, None),
        NestedMeta::Lit(_) => return meta,
    };
    let Some(value) = value.map(ungrouped) else {
        acc.push(err_at(path.span(), expected(attr, key, words)));
        return with_word(path, words[0], path.span());
    };
    let (problem, taken) = match value {
        Expr::Path(p) if p.qself.is_none() && p.path.get_ident().is_some() => {
            let written = p.path.segments[0].ident.to_string();
            if words.contains(&written.as_str()) {
                return meta;
            }
            match closest(&written, words) {
                Some(word) => (
                    format!(
                        "`#[{attr}]` argument `{key}` takes {}; did you mean `{word}`?",
                        alternatives(words)
                    ),
                    Some(word),
                ),
                None => (expected(attr, key, words), None),
            }
        }
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => {
            let content = s.value();
            let taken = words
                .iter()
                .copied()
                .find(|w| *w == content)
                .or_else(|| closest(&content, words));
            let fix = match taken {
                Some(word) => format!("`{key} = {word}`"),
                None => examples(key, words),
            };
            (
                format!(
                    "`#[{attr}]` argument `{key}` takes {} as a bare word, not a string: write {fix}",
                    alternatives(words)
                ),
                taken,
            )
        }
        _ => (expected(attr, key, words), None),
    };
    acc.push(err_at(value.span(), problem));
    with_word(path, taken.unwrap_or(words[0]), value.span())
}

/// `key = word`, the word at `span`.
fn with_word(path: &Path, word: &str, span: Span) -> NestedMeta {
    let word = syn::Ident::new(word, span);
    NestedMeta::Meta(syn::parse_quote!(#path = #word))
}

/// The expression inside the invisible groups of `macro_rules!` fragments.
fn ungrouped(expr: &Expr) -> &Expr {
    match expr {
        Expr::Group(g) => ungrouped(&g.expr),
        other => other,
    }
}

/// The word of `words` closest to `written`, if one is close enough to be a misspelling.
fn closest(written: &str, words: &'static [&'static str]) -> Option<&'static str> {
    let keys: Vec<(&'static str, Value)> = words.iter().map(|w| (*w, Value::Word(words))).collect();
    suggest(written, &keys, |_| true).map(|(w, _)| w)
}

/// ``"`#[tool]` argument `task` takes `optional` or `required`: write `task = optional` or
/// `task = required`"``.
pub fn expected(attr: &str, key: &str, words: &[&str]) -> String {
    format!(
        "`#[{attr}]` argument `{key}` takes {}: write {}",
        alternatives(words),
        examples(key, words)
    )
}

/// `` `optional` or `required` ``.
fn alternatives(words: &[&str]) -> String {
    either(words.iter().map(|w| format!("`{w}`")))
}

/// `` `task = optional` or `task = required` ``.
fn examples(key: &str, words: &[&str]) -> String {
    either(words.iter().map(|w| format!("`{key} = {w}`")))
}

/// `a`, `a or b`, `a, b or c`.
pub fn either(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}
