//! The values written in `#[elicit(..)]` (number and count literals, formats) and the texts of
//! doc comments, checked: every mistake is an error at the value.

use super::parse::FieldArgs;
use crate::common::docs;
use crate::diag::err_on;
use crate::keys::suggest;
use crate::symbols::{ELICIT, Value};
use darling::error::Accumulator;
use syn::{Expr, Lit, LitStr, UnOp};

/// A number literal of `min`/`max`.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Number {
    /// An integer.
    Int(i128),
    /// A float.
    Float(f64),
}

impl Number {
    /// The value as a float, to compare a minimum with its maximum.
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }
}

/// A string format the spec allows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// `email`.
    Email,
    /// `uri`.
    Uri,
    /// `date`.
    Date,
    /// `date-time`.
    DateTime,
}

/// The formats by name.
const FORMATS: &[(&str, Format)] = &[
    ("email", Format::Email),
    ("uri", Format::Uri),
    ("date", Format::Date),
    ("date-time", Format::DateTime),
];

/// `min_length`, `max_length`, `min_items`, `max_items`, each a non-negative integer, with each
/// minimum checked against its maximum.
pub fn counts(a: &FieldArgs, acc: &mut Accumulator) -> [Option<u64>; 4] {
    let c = [
        count(a.min_length.as_ref().map(|e| &e.0), "min_length", acc),
        count(a.max_length.as_ref().map(|e| &e.0), "max_length", acc),
        count(a.min_items.as_ref().map(|e| &e.0), "min_items", acc),
        count(a.max_items.as_ref().map(|e| &e.0), "max_items", acc),
    ];
    let f = |n: Option<u64>| n.map(|n| n as f64);
    let pairs = [
        (0, 1, ("min_length", "max_length"), &a.max_length),
        (2, 3, ("min_items", "max_items"), &a.max_items),
    ];
    for (lo, hi, keys, at) in pairs {
        let at = at.as_ref().map(|e| &e.0);
        check_order(f(c[lo]), f(c[hi]), keys, at, acc);
    }
    c
}

/// A minimum above its maximum is an error at the maximum's value.
pub fn check_order(
    min: Option<f64>,
    max: Option<f64>,
    keys: (&str, &str),
    at: Option<&Expr>,
    acc: &mut Accumulator,
) {
    if let (Some(lo), Some(hi), Some(at)) = (min, max, at)
        && lo > hi
    {
        acc.push(err_on(
            at,
            format!(
                "`{}` is greater than `{}`, so no answer fits; swap them or fix one",
                keys.0, keys.1
            ),
        ));
    }
}

/// `title` and `description`: the attributes win; the doc comment's first paragraph is the
/// title and the rest the description, or all of it the description when `title` is given.
pub fn texts(
    title: Option<&LitStr>,
    description: Option<&LitStr>,
    attrs: &[syn::Attribute],
) -> (Option<String>, Option<String>) {
    let doc = docs(attrs).unwrap_or_default();
    let paragraphs: Vec<String> = doc
        .split("\n\n")
        .map(|p| {
            p.split('\n')
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" ")
                .trim()
                .to_owned()
        })
        .filter(|p| !p.is_empty())
        .collect();
    let (doc_title, doc_rest) = match (title, paragraphs.split_first()) {
        (None, Some((first, rest))) => (Some(first.clone()), rest.join("\n\n")),
        _ => (None, paragraphs.join("\n\n")),
    };
    let title = title.map(LitStr::value).or(doc_title);
    let description = description
        .map(LitStr::value)
        .or((!doc_rest.is_empty()).then_some(doc_rest));
    (title, description)
}

/// `min`/`max`: an integer or float literal, possibly negative.
pub fn number(expr: Option<&Expr>, key: &str, acc: &mut Accumulator) -> Option<Number> {
    let expr = expr?;
    let n = literal_number(expr);
    if n.is_none() {
        acc.push(err_on(expr, format!("`#[{ELICIT}]` argument `{key}` takes a number literal: write `{key} = 10` or `{key} = 0.5`")));
    }
    n
}

fn literal_number(expr: &Expr) -> Option<Number> {
    match expr {
        Expr::Group(g) => literal_number(&g.expr),
        Expr::Paren(p) => literal_number(&p.expr),
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => match literal_number(&u.expr)? {
            Number::Int(i) => Some(Number::Int(-i)),
            Number::Float(f) => Some(Number::Float(-f)),
        },
        Expr::Lit(l) => match &l.lit {
            Lit::Int(i) => i.base10_parse().ok().map(Number::Int),
            Lit::Float(f) => f
                .base10_parse()
                .ok()
                .filter(|f: &f64| f.is_finite())
                .map(Number::Float),
            _ => None,
        },
        _ => None,
    }
}

/// `min_length` and the like: a non-negative integer literal.
fn count(expr: Option<&Expr>, key: &str, acc: &mut Accumulator) -> Option<u64> {
    let expr = expr?;
    let n = match literal_number(expr) {
        Some(Number::Int(i)) => u64::try_from(i).ok(),
        _ => None,
    };
    if n.is_none() {
        acc.push(err_on(expr, format!("`#[{ELICIT}]` argument `{key}` takes a non-negative integer literal: write `{key} = 1`")));
    }
    n
}

/// `format = ".."`: one of the four formats of the spec's string schema.
pub fn format(lit: Option<&LitStr>, acc: &mut Accumulator) -> Option<Format> {
    let lit = lit?;
    let name = lit.value();
    let found = FORMATS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f);
    if found.is_none() {
        let keys: Vec<(&'static str, Value)> =
            FORMATS.iter().map(|(n, _)| (*n, Value::Str)).collect();
        let hint = match suggest(&name, &keys, |_| true) {
            Some((s, _)) => format!("; did you mean `{s}`?"),
            None => String::new(),
        };
        acc.push(err_on(lit, format!("unknown `format` `{name}`: MCP forms know `email`, `uri`, `date` and `date-time`{hint}")));
    }
    found
}
