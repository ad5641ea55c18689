//! The URI template of `#[resource("uri")]`: its RFC 6570 level-1 `{variables}`, and the
//! parameters that must match them.

use crate::common::signature::Signature;
use crate::diag::{err_at, err_on};
use darling::error::Accumulator;

/// The `{variables}` of the template in `lit`, checked for balance and plain names; `None` when
/// the template is malformed (each problem is reported at `lit`).
pub fn template_vars(lit: &syn::LitStr, acc: &mut Accumulator) -> Option<Vec<String>> {
    let uri = lit.value();
    if uri.is_empty() || !uri.contains(':') {
        acc.push(err_on(
            lit,
            format!("`{uri}` is not a URI; write `scheme:rest`, e.g. `file:///notes/{{id}}`"),
        ));
    }
    let mut vars = Vec::new();
    let mut ok = true;
    let mut rest = uri.as_str();
    while let Some(open) = rest.find(['{', '}']) {
        if rest.as_bytes()[open] == b'}' {
            acc.push(err_on(
                lit,
                format!(
                    "unbalanced `}}` in the URI template `{uri}`; remove it or open it with `{{`"
                ),
            ));
            return None;
        }
        let Some(close) = rest[open..].find('}') else {
            acc.push(err_on(
                lit,
                format!("unclosed `{{` in the URI template `{uri}`; close it with `}}`"),
            ));
            return None;
        };
        let name = &rest[open + 1..open + close];
        ok &= check_var(name, &vars, &uri, lit, acc);
        vars.push(name.to_owned());
        rest = &rest[open + close + 1..];
    }
    ok.then_some(vars)
}

/// Checks one template variable against the ones before it.
fn check_var(
    name: &str,
    earlier: &[String],
    uri: &str,
    lit: &syn::LitStr,
    acc: &mut Accumulator,
) -> bool {
    let plain = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let msg = if !plain {
        format!(
            "`{{{name}}}` in `{uri}` is not a plain name; template variables are `A-Z a-z 0-9 _`, such as `{{id}}`"
        )
    } else if earlier.iter().any(|v| v == name) {
        format!("variable `{name}` appears twice in `{uri}`; rename one")
    } else {
        return true;
    };
    acc.push(err_on(lit, msg));
    false
}

/// An error at each parameter that is not a variable of the template.
pub fn check_params(uri: &str, vars: &[String], sig: &Signature, acc: &mut Accumulator) {
    for a in sig
        .args
        .iter()
        .filter(|a| !a.flatten && !vars.contains(&a.wire))
    {
        let wire = &a.wire;
        let msg = if vars.is_empty() {
            format!(
                "`{wire}` is not a variable of `{uri}`, which has none; a fixed resource takes only \
                 the context (add `{{{wire}}}` to the URI to make it a template)"
            )
        } else {
            let names: Vec<String> = vars.iter().map(|v| format!("`{v}`")).collect();
            format!(
                "`{wire}` is not a variable of the URI template `{uri}`; name the parameter after \
                 {} or add `{{{wire}}}` to the template",
                names.join(" or ")
            )
        };
        acc.push(err_at(a.span, msg));
    }
}
