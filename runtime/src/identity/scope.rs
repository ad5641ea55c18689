//! [`Scope`]: an OAuth scope, checked; the scopes a step-up's challenge names.

use std::borrow::Cow;
use std::fmt;

/// The scope that a refresh token is asked for; never a resource's scope (2026-07-28:
/// servers SHOULD NOT put it in a challenge or in `scopes_supported`).
pub const OFFLINE_ACCESS: &str = "offline_access";

/// The scopes a `403 insufficient_scope` names: the operation's `required` scopes (all of
/// them, at once, in their order), then the other `granted` ones, so that a client that
/// replaces its scopes with the challenge's keeps what it had. `offline_access` is never named.
pub(crate) fn challenge_scopes<'a>(
    required: &'a [Scope],
    granted: impl IntoIterator<Item = &'a Scope>,
) -> Vec<Scope> {
    let mut out: Vec<Scope> = Vec::new();
    for s in required.iter().chain(granted) {
        if s.as_str() != OFFLINE_ACCESS && !out.contains(s) {
            out.push(s.clone());
        }
    }
    out
}

/// An OAuth scope: a non-empty scope-token of printable ASCII without space, `"` or `\`
/// (RFC 6749 §3.3), so it can be written into a `WWW-Authenticate` challenge as it is.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Scope(Cow<'static, str>);

/// Why a string is not a [`Scope`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeError {
    reason: &'static str,
}

impl fmt::Display for ScopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.reason)
    }
}

impl std::error::Error for ScopeError {}

/// The longest scope Rondo accepts, in bytes.
const MAX_SCOPE_BYTES: usize = 256;

const fn check_scope(s: &str) -> Result<(), &'static str> {
    let b = s.as_bytes();
    if b.is_empty() {
        return Err("a scope cannot be empty");
    }
    if b.len() > MAX_SCOPE_BYTES {
        return Err("a scope is at most 256 bytes");
    }
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' => return Err("a scope cannot contain a space: write two scopes"),
            b'"' | b'\\' => return Err("a scope cannot contain `\"` or `\\` (RFC 6749 §3.3)"),
            0x21..=0x7e => {}
            _ => {
                return Err(
                    "a scope is printable ASCII without space, `\"` or `\\` (RFC 6749 §3.3)",
                );
            }
        }
        i += 1;
    }
    Ok(())
}

impl Scope {
    /// A scope from a string, checked.
    pub fn new(s: impl Into<Cow<'static, str>>) -> Result<Scope, ScopeError> {
        let s = s.into();
        match check_scope(&s) {
            Ok(()) => Ok(Scope(s)),
            Err(reason) => Err(ScopeError { reason }),
        }
    }
    /// A scope from a literal; checked at compile time in a `const` (a bad literal fails the
    /// build), at run time otherwise (it panics: use [`Scope::new`] for values read at run
    /// time).
    pub const fn from_static(s: &'static str) -> Scope {
        match check_scope(s) {
            Ok(()) => Scope(Cow::Borrowed(s)),
            Err(reason) => panic!("{}", reason),
        }
    }
    /// The scope as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for Scope {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Scope {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for Scope {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for Scope {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}
