//! `scopes = ["a", "b"]` on `#[tool]`, `#[prompt]`, `#[resource]` and a `#[toolbox]` method: the
//! OAuth scopes a call needs on a protected HTTP endpoint, all of them. Each is checked here as
//! an RFC 6749 §3.3 scope-token (what `Scope::from_static` accepts), so the expansion's
//! `Scope::from_static` never panics and the scopes written into an HTTP challenge never need
//! filtering. The list's shape (brackets, string literals, each once) is the key's rule
//! (`keys::strings`).

use crate::diag::{err_at, err_on};
use crate::keys::strings::StrList;
use crate::symbols::{OFFLINE_ACCESS, SCOPES};
use darling::error::Accumulator;
use syn::LitStr;

/// The longest scope `Scope` accepts, in bytes (the runtime's `MAX_SCOPE_BYTES`).
const MAX_SCOPE_BYTES: usize = 256;

/// The scopes of `#[attr(scopes = [..])]`, in the order written: each valid one, each invalid one
/// an error at its literal. An empty list is an error at the brackets: it would declare nothing.
pub fn model(attr: &str, given: Option<StrList>, acc: &mut Accumulator) -> Vec<String> {
    let Some(list) = given else {
        return Vec::new();
    };
    if list.strs.is_empty() {
        acc.push(err_at(
            list.span,
            format!(
                "`#[{attr}]` argument `{SCOPES}` is an empty list, which requires nothing; remove the key, or name the scopes a call needs: `{SCOPES} = [\"orders:write\"]`"
            ),
        ));
    }
    list.strs
        .iter()
        .filter_map(|lit| match problem(&lit.value()) {
            None => Some(lit.value()),
            Some(problem) => {
                acc.push(err_on(lit, message(attr, lit, &problem)));
                None
            }
        })
        .collect()
}

/// Why a string is not a scope a server may require.
#[derive(Debug, PartialEq, Eq)]
enum Problem {
    /// `""`.
    Empty,
    /// More than [`MAX_SCOPE_BYTES`].
    TooLong(usize),
    /// A space, which separates the scopes of a token's `scope`.
    Space,
    /// A character outside RFC 6749 §3.3's `%x21 / %x23-5B / %x5D-7E`.
    Char(char),
    /// `offline_access`, which asks for refresh tokens and is no resource's scope.
    OfflineAccess,
}

/// The first problem of `scope`, if it has one.
fn problem(scope: &str) -> Option<Problem> {
    if scope.is_empty() {
        return Some(Problem::Empty);
    }
    if scope.contains(' ') {
        return Some(Problem::Space);
    }
    if let Some(c) = scope.chars().find(|c| !is_scope_char(*c)) {
        return Some(Problem::Char(c));
    }
    if scope.len() > MAX_SCOPE_BYTES {
        return Some(Problem::TooLong(scope.len()));
    }
    (scope == OFFLINE_ACCESS).then_some(Problem::OfflineAccess)
}

/// RFC 6749 §3.3 `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`: printable ASCII but space,
/// `"` and `\`.
fn is_scope_char(c: char) -> bool {
    matches!(c, '\x21' | '\x23'..='\x5B' | '\x5D'..='\x7E')
}

/// The message for `lit`, a scope with `problem`: the rule, then the fix.
fn message(attr: &str, lit: &LitStr, problem: &Problem) -> String {
    let rule = "a scope is printable ASCII without spaces, `\"` or `\\` (an RFC 6749 scope-token)";
    let at = format!("`#[{attr}]` argument `{SCOPES}`");
    match problem {
        Problem::Empty => format!(
            "{at} has an empty scope; {rule}: write the scope's name, or remove the empty string"
        ),
        Problem::TooLong(len) => format!(
            "{at} has a scope of {len} bytes; a scope is at most {MAX_SCOPE_BYTES} bytes: shorten it"
        ),
        Problem::Space => {
            let parts: Vec<String> = lit
                .value()
                .split(' ')
                .filter(|p| !p.is_empty())
                .map(|p| format!("{p:?}"))
                .collect();
            format!(
                "{at}: `{}` contains a space, which separates scopes in a token; write each scope as its own string: `{SCOPES} = [{}]`",
                lit.token(),
                parts.join(", ")
            )
        }
        Problem::Char(c) => format!(
            "{at}: `{}` contains {}; {rule}: remove it or spell the scope without it",
            lit.token(),
            described(*c)
        ),
        Problem::OfflineAccess => format!(
            "{at}: `{OFFLINE_ACCESS}` is not a resource scope: it asks the authorization server for refresh tokens, and the 2026-07-28 specification says servers should not require it; remove it"
        ),
    }
}

/// `` `"` ``, `` `é` (U+00E9, not ASCII) ``, `the control character U+0009`.
fn described(c: char) -> String {
    if c.is_control() {
        format!("the control character U+{:04X}", u32::from(c))
    } else if c.is_ascii() {
        format!("`{c}`")
    } else {
        format!("`{c}` (U+{:04X}, not ASCII)", u32::from(c))
    }
}

#[cfg(test)]
mod tests {
    use super::{Problem, problem};

    #[test]
    fn the_scope_token_rule() {
        for ok in ["a", "orders:write", "!#[]~", "x".repeat(256).as_str()] {
            assert_eq!(problem(ok), None, "{ok}");
        }
        assert_eq!(problem(""), Some(Problem::Empty));
        assert_eq!(problem("a b"), Some(Problem::Space));
        assert_eq!(problem("a\"b"), Some(Problem::Char('"')));
        assert_eq!(problem("a\\b"), Some(Problem::Char('\\')));
        assert_eq!(problem("é"), Some(Problem::Char('é')));
        assert_eq!(problem("a\tb"), Some(Problem::Char('\t')));
        assert_eq!(problem("a\u{7f}"), Some(Problem::Char('\u{7f}')));
        assert_eq!(problem(&"x".repeat(257)), Some(Problem::TooLong(257)));
        assert_eq!(problem("offline_access"), Some(Problem::OfflineAccess));
    }
}
