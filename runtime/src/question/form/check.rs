//! The checks a field's attributes add to its type's own: number bounds, string lengths and
//! formats, item counts. Formats are checked loosely: enough to catch a wrong kind of answer,
//! not a full RFC parser.

use super::error::{FieldProblem, StringFormat};
use serde_json::{Number, Value};
use std::cmp::Ordering;

/// A number bound written in `#[elicit(min = .., max = ..)]`, or an integer type's range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// An integer literal.
    Int(i128),
    /// A float literal.
    Float(f64),
}

impl Bound {
    /// The bound of a JSON number (an integer when it is one).
    pub fn of(n: &Number) -> Bound {
        match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Bound::Int(i.into()),
            (_, Some(u)) => Bound::Int(u.into()),
            _ => Bound::Float(n.as_f64().unwrap_or(f64::NAN)),
        }
    }

    /// The bound as a JSON number: an integer when it fits, else a float.
    pub fn number(self) -> Number {
        match self {
            Bound::Int(i) => i64::try_from(i)
                .map(Number::from)
                .or_else(|_| u64::try_from(i).map(Number::from))
                .unwrap_or_else(|_| float(i as f64)),
            Bound::Float(f) => float(f),
        }
    }

    /// Compares two bounds, exactly when both are integers.
    pub fn compare(self, other: Bound) -> Ordering {
        match (self, other) {
            (Bound::Int(a), Bound::Int(b)) => a.cmp(&b),
            // `partial_cmp` so that `-0.0` equals 0; NaN (never a JSON number) orders by
            // `total_cmp`.
            (a, b) => a
                .float()
                .partial_cmp(&b.float())
                .unwrap_or_else(|| a.float().total_cmp(&b.float())),
        }
    }

    fn float(self) -> f64 {
        match self {
            Bound::Int(i) => i as f64,
            Bound::Float(f) => f,
        }
    }
}

/// A finite float as a JSON number (0 for the non-finite values no literal can write).
fn float(f: f64) -> Number {
    Number::from_f64(f).unwrap_or_else(|| Number::from(0))
}

/// A number against `min`/`max`.
pub fn bounds(n: &Number, min: Option<Bound>, max: Option<Bound>) -> Result<(), FieldProblem> {
    let v = Bound::of(n);
    if let Some(min) = min.filter(|m| v.compare(*m) == Ordering::Less) {
        return Err(FieldProblem::TooSmall {
            minimum: min.number(),
            found: n.clone(),
        });
    }
    if let Some(max) = max.filter(|m| v.compare(*m) == Ordering::Greater) {
        return Err(FieldProblem::TooLarge {
            maximum: max.number(),
            found: n.clone(),
        });
    }
    Ok(())
}

/// A string's length in characters (Unicode scalar values, as JSON Schema counts) against
/// `min_length`/`max_length`.
pub fn length(s: &str, min: Option<u64>, max: Option<u64>) -> Result<(), FieldProblem> {
    let found = s.chars().count() as u64;
    match (min, max) {
        (Some(min_length), _) if found < min_length => {
            Err(FieldProblem::TooShort { min_length, found })
        }
        (_, Some(max_length)) if found > max_length => {
            Err(FieldProblem::TooLong { max_length, found })
        }
        _ => Ok(()),
    }
}

/// A multi-select's item count against `min_items`/`max_items`.
pub fn items(list: &[Value], min: Option<u64>, max: Option<u64>) -> Result<(), FieldProblem> {
    let found = list.len() as u64;
    match (min, max) {
        (Some(min_items), _) if found < min_items => {
            Err(FieldProblem::TooFewItems { min_items, found })
        }
        (_, Some(max_items)) if found > max_items => {
            Err(FieldProblem::TooManyItems { max_items, found })
        }
        _ => Ok(()),
    }
}

/// A string against its `format`.
pub fn format(s: &str, format: StringFormat) -> Result<(), FieldProblem> {
    let ok = match format {
        StringFormat::Email => is_email(s),
        StringFormat::Uri => is_uri(s),
        StringFormat::Date => is_date(s),
        StringFormat::DateTime => is_date_time(s),
    };
    if ok {
        Ok(())
    } else {
        Err(FieldProblem::BadFormat { format })
    }
}

/// `local@domain.tld`: one `@` with text before it, and a dot after it with text on both sides;
/// no spaces.
fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    let dotted = domain
        .rsplit_once('.')
        .is_some_and(|(host, tld)| !host.is_empty() && !tld.is_empty());
    !local.is_empty() && !domain.contains('@') && dotted && !s.contains(char::is_whitespace)
}

/// A scheme (a letter, then letters, digits, `+`, `-`, `.`), a colon and more; no spaces.
fn is_uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !rest.is_empty()
        && !s.contains(char::is_whitespace)
}

/// `YYYY-MM-DD`, a day that exists (leap years included).
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(y), Some(m), Some(d)) = (digits(&b[0..4]), digits(&b[5..7]), digits(&b[8..10]))
    else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// RFC 3339 `date-time`: a date, `T` (or `t`, or a space as RFC 3339 allows), `HH:MM:SS`, an
/// optional fraction, and `Z` or `±HH:MM`.
fn is_date_time(s: &str) -> bool {
    if s.len() < 20 || !s.is_char_boundary(10) || !s.is_char_boundary(11) {
        return false;
    }
    let (date, sep, rest) = (&s[..10], &s[10..11], &s[11..]);
    is_date(date) && matches!(sep, "T" | "t" | " ") && is_time(rest)
}

/// `HH:MM:SS[.frac](Z|±HH:MM)`.
fn is_time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let hms = (digits(&b[0..2]), digits(&b[3..5]), digits(&b[6..8]));
    let (Some(h), Some(m), Some(sec)) = hms else {
        return false;
    };
    let mut rest = &b[8..];
    if let Some(frac) = rest.strip_prefix(b".") {
        let n = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    h < 24 && m < 60 && sec <= 60 && is_offset(rest)
}

/// `Z`, `z` or `±HH:MM`.
fn is_offset(b: &[u8]) -> bool {
    match b {
        b"Z" | b"z" => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => {
            let (h, m) = (digits(&[*h1, *h2]), digits(&[*m1, *m2]));
            h.is_some_and(|h| h < 24) && m.is_some_and(|m| m < 60)
        }
        _ => false,
    }
}

/// ASCII digits as a number; `None` if any byte is not a digit.
fn digits(b: &[u8]) -> Option<u32> {
    b.iter().try_fold(0u32, |n, c| {
        c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        for ok in ["ada@example.com", "a.b+c@mail.example.org"] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in [
            "ada",
            "@example.com",
            "ada@example",
            "ada@.com",
            "ada@com.",
            "a b@c.d",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
    }

    #[test]
    fn uris() {
        for ok in [
            "https://example.com",
            "mailto:ada@example.com",
            "urn:isbn:123",
        ] {
            assert!(is_uri(ok), "{ok}");
        }
        for bad in ["example.com", "://x", "1http://x", "https:", "https://a b"] {
            assert!(!is_uri(bad), "{bad}");
        }
    }

    #[test]
    fn dates() {
        for ok in ["2026-07-28", "2024-02-29", "2000-02-29"] {
            assert!(is_date(ok), "{ok}");
        }
        for bad in [
            "2026-7-28",
            "2026-13-01",
            "2025-02-29",
            "1900-02-29",
            "2026-04-31",
            "x",
        ] {
            assert!(!is_date(bad), "{bad}");
        }
    }

    #[test]
    fn date_times() {
        for ok in [
            "2026-07-28T09:30:00Z",
            "2026-07-28t09:30:00.123+02:00",
            "2026-07-28 23:59:60-05:30",
        ] {
            assert!(is_date_time(ok), "{ok}");
        }
        for bad in [
            "2026-07-28",
            "2026-07-28T09:30:00",
            "2026-07-28T24:00:00Z",
            "2026-07-28T09:30:00.Z",
            "2026-07-28T09:30:00+2:00",
            "2026-07-28é09:30:00Z",
        ] {
            assert!(!is_date_time(bad), "{bad}");
        }
    }

    #[test]
    fn bounds_compare_integers_exactly() {
        let big = Number::from(u64::MAX);
        assert!(bounds(&big, None, Some(Bound::Int(u64::MAX.into()))).is_ok());
        assert!(bounds(&Number::from(5), Some(Bound::Float(5.5)), None).is_err());
        assert_eq!(Bound::Int(-3).number(), Number::from(-3));
        assert_eq!(Bound::Float(0.5).number().as_f64(), Some(0.5));
    }
}
