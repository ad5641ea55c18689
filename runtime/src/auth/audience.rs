//! The canonical URL of a protected server and the audience check (RFC 8707 §2, MCP
//! Authorization § Canonical Server URI).
//!
//! The configured public URL is validated once and stored in canonical form: scheme and host
//! lowercased, a default port (`:443` for `https`, `:80` for `http`) dropped, the path as
//! written except that a lone `/` is removed. A token's audience value matches when,
//! normalised the same way (and with one trailing `/` removed from its path), it equals the
//! canonical URL byte for byte: no percent-decoding, no prefix matching, paths are
//! case-sensitive.

use std::fmt;

/// Why a URL cannot be a protected server's canonical URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlError(&'static str);

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for UrlError {}

/// A server's canonical URL: absolute, `https` (or `http` on a loopback host), with a host,
/// without userinfo, query or fragment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CanonicalUrl {
    text: String,
    /// Where the path starts in `text` (`text.len()` when there is none).
    path_at: usize,
}

/// The parts of an absolute URL, normalised: `scheme://authority` lowercased with the
/// default port dropped, and the path as written.
fn split(url: &str) -> Option<(String, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    if scheme.is_empty()
        || !scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    {
        return None;
    }
    let scheme = scheme.to_ascii_lowercase();
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(end);
    let mut authority = authority.to_ascii_lowercase();
    let default = match scheme.as_str() {
        "https" => Some(":443"),
        "http" => Some(":80"),
        _ => None,
    };
    if let Some(port) = default
        && authority.ends_with(port)
    {
        authority.truncate(authority.len() - port.len());
    }
    Some((format!("{scheme}://{authority}"), path))
}

/// The host of a lowercased authority (`[v6]` kept in brackets), without the port.
fn host_of(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.find(']').map_or(authority, |i| &authority[..i + 2]);
    }
    authority.rsplit_once(':').map_or(authority, |(h, _)| h)
}

fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host.ends_with(".localhost")
        || host == "[::1]"
        || host
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|a| a.is_loopback())
}

impl CanonicalUrl {
    /// Validates `url` and puts it in canonical form.
    pub fn parse(url: &str) -> Result<CanonicalUrl, UrlError> {
        let (origin, path) = split(url).ok_or(UrlError(
            "the public URL must be absolute, e.g. `https://mcp.example.com/mcp`",
        ))?;
        let (scheme, authority) = origin.split_once("://").unwrap_or_default();
        if path.contains('#') {
            return Err(UrlError("the public URL cannot have a fragment"));
        }
        if path.contains('?') {
            return Err(UrlError(
                "the public URL should not have a query (RFC 8707 §2)",
            ));
        }
        if authority.contains('@') {
            return Err(UrlError(
                "the public URL cannot carry a user name or password",
            ));
        }
        let host = host_of(authority);
        if host.is_empty() {
            return Err(UrlError("the public URL needs a host"));
        }
        match scheme {
            "https" => {}
            "http" if is_loopback(host) => {}
            "http" => {
                return Err(UrlError(
                    "the public URL must be https (http only on a loopback host)",
                ));
            }
            _ => return Err(UrlError("the public URL must be https")),
        }
        if url.bytes().any(|b| !(0x21..=0x7e).contains(&b)) {
            return Err(UrlError(
                "the public URL must be ASCII without spaces (percent-encode the rest)",
            ));
        }
        let path = if path == "/" { "" } else { path };
        Ok(CanonicalUrl {
            path_at: origin.len(),
            text: format!("{origin}{path}"),
        })
    }

    /// The URL, in canonical form.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// `scheme://authority`.
    pub fn origin(&self) -> &str {
        &self.text[..self.path_at]
    }

    /// The path (empty for a URL without one).
    pub fn path(&self) -> &str {
        &self.text[self.path_at..]
    }

    /// Whether an audience value names this URL (see the module's docs).
    pub fn is_named_by(&self, audience: &str) -> bool {
        let Some((origin, path)) = split(audience) else {
            return false;
        };
        let path = path.strip_suffix('/').unwrap_or(path);
        origin == self.origin() && path == self.path()
    }

    /// The Protected Resource Metadata URLs (RFC 9728 §3.1): the path-inserted one, which
    /// challenges name, then the root one (the same for a URL without a path).
    pub fn metadata_urls(&self) -> (String, String) {
        const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";
        let root = format!("{}{WELL_KNOWN}", self.origin());
        (format!("{root}{}", self.path()), root)
    }
}

impl fmt::Display for CanonicalUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_url_is_validated_and_made_canonical() {
        for (given, canonical) in [
            ("https://h.example/mcp", "https://h.example/mcp"),
            ("HTTPS://H.Example/mcp", "https://h.example/mcp"),
            ("https://h.example:443/mcp", "https://h.example/mcp"),
            ("https://h.example:8443/mcp", "https://h.example:8443/mcp"),
            ("https://h.example/", "https://h.example"),
            ("https://h.example", "https://h.example"),
            ("http://127.0.0.1:3000/mcp", "http://127.0.0.1:3000/mcp"),
            ("http://localhost:80/mcp", "http://localhost/mcp"),
            ("http://[::1]:9/mcp", "http://[::1]:9/mcp"),
            ("https://h.example/MCP/", "https://h.example/MCP/"),
        ] {
            assert_eq!(
                CanonicalUrl::parse(given).unwrap().as_str(),
                canonical,
                "{given}"
            );
        }
        for bad in [
            "h.example/mcp",
            "https:///mcp",
            "https://h.example/mcp#x",
            "https://h.example/mcp?tenant=a",
            "https://user@h.example/mcp",
            "http://h.example/mcp",
            "ftp://h.example/mcp",
            "https://h.example/m cp",
        ] {
            assert!(CanonicalUrl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_audience_matches_the_canonical_url_and_nothing_near_it() {
        let url = CanonicalUrl::parse("https://h.example/mcp").unwrap();
        for yes in [
            "https://h.example/mcp",
            "https://H.Example/mcp",
            "HTTPS://h.example/mcp",
            "https://h.example/mcp/",
            "https://h.example:443/mcp",
        ] {
            assert!(url.is_named_by(yes), "{yes}");
        }
        for no in [
            "https://h.example/mcp/other",
            "https://h.example",
            "https://h.example/MCP",
            "https://h.example/mc",
            "https://h.example:8443/mcp",
            "http://h.example/mcp",
            "https://h.example.evil/mcp",
            "https://h.example/mcp?x",
            "https://h.example/mcp//",
            "api://h.example/mcp",
            "h.example/mcp",
            "",
        ] {
            assert!(!url.is_named_by(no), "{no}");
        }
        let root = CanonicalUrl::parse("https://h.example/").unwrap();
        assert!(root.is_named_by("https://h.example"));
        assert!(root.is_named_by("https://h.example/"));
        assert!(!root.is_named_by("https://h.example/mcp"));
    }

    #[test]
    fn normalising_twice_changes_nothing() {
        for u in [
            "HTTPS://H.EXAMPLE:443/a/B",
            "http://LOCALHOST:80/",
            "https://x.example:1/",
        ] {
            let once = CanonicalUrl::parse(u).unwrap();
            let twice = CanonicalUrl::parse(once.as_str()).unwrap();
            assert_eq!(once, twice);
            assert!(once.is_named_by(u), "{u}");
        }
    }

    #[test]
    fn metadata_urls_insert_the_well_known_suffix_before_the_path() {
        let u = CanonicalUrl::parse("https://h.example/tenant/a/mcp").unwrap();
        assert_eq!(
            u.metadata_urls(),
            (
                "https://h.example/.well-known/oauth-protected-resource/tenant/a/mcp".into(),
                "https://h.example/.well-known/oauth-protected-resource".into()
            )
        );
        let root = CanonicalUrl::parse("https://h.example").unwrap();
        let (inserted, plain) = root.metadata_urls();
        assert_eq!(inserted, plain);
    }
}
