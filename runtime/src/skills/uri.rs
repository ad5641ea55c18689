//! The `skill://` URIs of a skills folder (SEP-2640, "Resource Mapping"): a file at
//! `acme/billing/refunds/examples/email.md` below the folder is
//! `skill://acme/billing/refunds/examples/email.md`, its skill's `SKILL.md` is
//! `skill://acme/billing/refunds/SKILL.md` and its folder `skill://acme/billing/refunds` (no
//! trailing slash).
//!
//! Each name is percent-encoded as a URI path segment (RFC 3986 `pchar`: everything but
//! letters, digits and `-._~!$&'()*+,;=:@` is encoded, `/` and `%` included); the first, which
//! is the URI's authority, also has `:` and `@` encoded, so it is always a valid `reg-name`.
//! These are the only URIs served: a request names a file by the exact URI its skill's
//! manifest lists, and no other spelling (`..`, `%2e`, a second slash) names anything.

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};

/// What is encoded in a path segment: all but RFC 3986's `pchar`.
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// What is encoded in the authority: a path segment's set, and `:` and `@` (RFC 3986
/// `reg-name` has neither).
const AUTHORITY: &AsciiSet = &SEGMENT.add(b':').add(b'@');

/// `skill://` and the encoded `path`.
fn of(path: &[String]) -> String {
    let mut out = String::from("skill://");
    for (i, name) in path.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        let set = if i == 0 { AUTHORITY } else { SEGMENT };
        out.extend(utf8_percent_encode(name, set));
    }
    out
}

/// The URI of the file at `path`.
pub(crate) fn file(path: &[String]) -> String {
    of(path)
}

/// The URI of the folder at `path`.
pub(crate) fn folder(path: &[String]) -> String {
    of(path)
}

/// The URI of the `SKILL.md` of the skill at `path`.
pub(crate) fn skill_md(path: &[String]) -> String {
    of(path) + "/SKILL.md"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(path: &[&str]) -> Vec<String> {
        path.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn paths_become_skill_uris() {
        assert_eq!(skill_md(&p(&["pdf"])), "skill://pdf/SKILL.md");
        assert_eq!(
            file(&p(&["acme", "billing", "refunds", "examples", "email.md"])),
            "skill://acme/billing/refunds/examples/email.md"
        );
        assert_eq!(folder(&p(&["pdf", "templates"])), "skill://pdf/templates");
    }

    #[test]
    fn names_are_encoded_as_segments_and_the_first_as_an_authority() {
        assert_eq!(
            file(&p(&["a b:c@d", "x y#z?%/é.md"])),
            "skill://a%20b%3Ac%40d/x%20y%23z%3F%25%2F%C3%A9.md"
        );
        assert_eq!(folder(&p(&["pdf", "a:b@c"])), "skill://pdf/a:b@c");
        assert_eq!(file(&p(&["p", "..."])), "skill://p/...");
    }
}
