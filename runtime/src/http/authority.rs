//! `host[:port]` authorities: the `Host` a request names, and the hosts a server allows, split
//! once when they are configured (not again for every request).

use http::uri::Authority;
use std::fmt;
use std::net::Ipv6Addr;

/// The lowercase host and the port of an authority that is exactly `host[:port]`, parsed by
/// the `http` crate's [`Authority`]. Its `host()` stops at an IPv6 literal's `]` and its parser
/// takes userinfo, so what it returns is only trusted when host and port rebuild the whole
/// text; a bracketed host must hold an IPv6 address and a name only letters, digits, `-`, `.`
/// and `_` (no trailing dot).
pub(crate) fn split(text: &str) -> Option<(String, Option<u16>)> {
    let authority: Authority = text.parse().ok()?;
    let (host, port) = (authority.host(), authority.port());
    let rebuilt_len = host.len() + port.as_ref().map_or(0, |p| 1 + p.as_str().len());
    if authority.as_str().len() != rebuilt_len || !authority.as_str().starts_with(host) {
        return None;
    }
    let port = match port {
        Some(p) if p.as_str().bytes().all(|b| b.is_ascii_digit()) => Some(p.as_u16()),
        Some(_) => return None,
        None => None,
    };
    let valid_host = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => v6.parse::<Ipv6Addr>().is_ok(),
        None => {
            !host.is_empty()
                && !host.ends_with('.')
                && host
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'))
        }
    };
    valid_host.then(|| (host.to_ascii_lowercase(), port))
}

/// A host the server accepts as `Host` (and whose origins it accepts as `Origin`): a name or
/// address, `[v6]` in brackets, with a port or (any port) without one.
#[derive(Clone)]
pub(crate) struct AllowedHost {
    /// Its host and port; `None` when the text is no `host[:port]` (it then matches nothing).
    split: Option<(String, Option<u16>)>,
}

/// As it is matched: `"localhost"`, `"127.0.0.1:3000"`, `"[::1]"` (lowercased), or a note that
/// the text configured was no `host[:port]`.
impl fmt::Debug for AllowedHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.split {
            Some((host, Some(port))) => fmt::Debug::fmt(&format!("{host}:{port}"), f),
            Some((host, None)) => fmt::Debug::fmt(host, f),
            None => f.write_str("<no host[:port]: matches nothing>"),
        }
    }
}

impl AllowedHost {
    /// `text`, split now.
    pub(crate) fn new(text: &str) -> AllowedHost {
        AllowedHost { split: split(text) }
    }

    /// Whether a request's `host` (lowercase) and `port`, as [`split`] gives them, are this one:
    /// the definition [`admits`](Self::admits) is tested against.
    #[cfg(test)]
    pub(crate) fn matches(&self, host: &str, port: Option<u16>) -> bool {
        self.split
            .as_ref()
            .is_some_and(|(h, p)| h == host && (p.is_none() || *p == port))
    }

    /// Whether the authority `text` (a request's `Host`, an `Origin`'s authority) names this
    /// host: this host's text in any case, then nothing, or `:` and a port (ASCII digits, at
    /// most 65535) that this host allows. It accepts exactly what [`split`] followed by
    /// [`matches`](Self::matches) accepts (a test compares them over hostile inputs): this host
    /// is already a valid `host[:port]`, so what follows it is all that is left to check. It
    /// neither parses nor allocates, as it runs for every request.
    pub(crate) fn admits(&self, text: &str) -> bool {
        let Some((host, port)) = &self.split else {
            return false;
        };
        let Some(head) = text.get(..host.len()) else {
            return false;
        };
        if !head.eq_ignore_ascii_case(host) {
            return false;
        }
        let Some(digits) = text[host.len()..].strip_prefix(':') else {
            return text.len() == host.len() && port.is_none();
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
        digits
            .parse::<u16>()
            .is_ok_and(|n| port.is_none_or(|p| p == n))
    }
}
