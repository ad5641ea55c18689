//! List values, `key = [a, b::c]`: the elements are paths, each written once. Each bad element
//! is one error at it and is dropped; the rest of the list stays, so a later check on the list
//! does not report the same mistake again.

use crate::diag::{err_on, written};
use darling::FromMeta;
use darling::error::Accumulator;
use syn::{Expr, ExprArray, Path};

/// A list of paths as darling reads it, after [`prune`]: `asks = [approve, travel::confirm]`.
#[derive(Clone, Debug, Default)]
#[cfg_attr(
    not(test),
    expect(
        dead_code,
        reason = "read by the first list key, `asks = [..]`, with the question macros"
    )
)]
pub struct PathList {
    /// The paths, in the order written, distinct; each keeps its own spans, so an error about
    /// one element (an unknown path, a collision) points at it.
    pub paths: Vec<Path>,
}

impl FromMeta for PathList {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        match expr {
            Expr::Group(g) => Self::from_expr(&g.expr),
            Expr::Array(array) => {
                let paths = array.elems.iter().map(element).collect::<Option<_>>();
                paths.map(|paths| PathList { paths }).ok_or_else(|| {
                    darling::Error::custom("expected a list of paths").with_span(expr)
                })
            }
            _ => Err(darling::Error::unexpected_expr_type(expr)),
        }
    }
}

/// Reports each element of `array` that is not a path (at it) and each path given a second time
/// (at the second), and removes them: `#[attr]` argument `key` keeps its distinct paths.
pub fn prune(attr: &str, key: &str, array: &mut ExprArray, acc: &mut Accumulator) {
    let mut seen: Vec<Path> = Vec::new();
    let elems = std::mem::take(&mut array.elems);
    for elem in elems {
        let Some(path) = element(&elem) else {
            acc.push(err_on(
                &elem,
                format!(
                    "`#[{attr}]` argument `{key}` takes a list of paths, and this element is not a path; write one such as `name` or `module::name`"
                ),
            ));
            continue;
        };
        if seen.contains(&path) {
            let msg = format!(
                "`{}` is listed twice in `#[{attr}]` argument `{key}`; remove one",
                written(&path)
            );
            acc.push(err_on(&elem, msg));
            continue;
        }
        seen.push(path);
        array.elems.push(elem);
    }
}

/// The path an element is, looking through the invisible group of a `macro_rules!` fragment;
/// `None` for anything else, a qualified path `<T as Trait>::x` included.
fn element(elem: &Expr) -> Option<Path> {
    match elem {
        Expr::Group(g) => element(&g.expr),
        Expr::Path(p) if p.qself.is_none() => Some(p.path.clone()),
        _ => None,
    }
}
