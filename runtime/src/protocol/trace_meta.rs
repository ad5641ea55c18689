//! The W3C trace context a request may carry in `_meta` (SEP-414: `traceparent`, `tracestate`,
//! `baggage`, unprefixed), read with the `otel` feature only. A value past its bound, or not a
//! string, is dropped here, before anything parses it: it is ignored, never an error
//! (design §33).

use serde_json::Value;
use serde_json::value::RawValue;

/// The longest `traceparent` read: version `00`'s 55 characters (W3C Trace Context § 3.2). A
/// later version's extra fields are longer; none is defined, and such a header is ignored.
pub(crate) const MAX_TRACEPARENT: usize = 55;
/// The longest `tracestate` read (W3C Trace Context § 3.3.1.1: a vendor may drop one past 512).
pub(crate) const MAX_TRACESTATE: usize = 512;
/// The most `tracestate` members read (W3C Trace Context § 3.3.1.1: at most 32).
pub(crate) const MAX_TRACESTATE_MEMBERS: usize = 32;
/// The longest `baggage` read, in bytes (W3C Baggage § 3.3.1: at least 8192 must be taken; no
/// more is).
pub(crate) const MAX_BAGGAGE: usize = 8192;

/// Whether a request's trace context could be used: some `tracing` subscriber has been set (a
/// global default, or a scoped one on some thread). With none, no span is ever enabled, so the
/// keys are not read at all (one relaxed load); with one, they are read and the request's span
/// decides.
pub(crate) fn wanted() -> bool {
    tracing::dispatcher::has_been_set()
}

/// The trace keys of a `_meta`, as text; every other member is skipped. A value that is no
/// string is ignored, not an error (`from_text`).
#[derive(serde::Deserialize)]
struct TraceText<'a> {
    #[serde(default, borrow)]
    traceparent: Option<&'a RawValue>,
    #[serde(default, borrow)]
    tracestate: Option<&'a RawValue>,
    #[serde(default, borrow)]
    baggage: Option<&'a RawValue>,
}

/// The trace context of one request's `_meta`, each value within its bound.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct TraceMeta {
    /// `traceparent`.
    pub traceparent: Option<String>,
    /// `tracestate`.
    pub tracestate: Option<String>,
    /// `baggage`.
    pub baggage: Option<String>,
}

impl TraceMeta {
    /// The keys, as the `_meta` of a request names them.
    pub(crate) const TRACEPARENT: &'static str = "traceparent";
    /// See [`TraceMeta::TRACEPARENT`].
    pub(crate) const TRACESTATE: &'static str = "tracestate";
    /// See [`TraceMeta::TRACEPARENT`].
    pub(crate) const BAGGAGE: &'static str = "baggage";

    /// Reads the three keys from a 2026-07-28 `_meta`'s text, in a pass of their own, when a
    /// subscriber could want them ([`wanted`]): a build with the `otel` feature and no
    /// subscriber reads `_meta` as one without it does. A key written twice is read where it
    /// was written last, as the `Value` reader does.
    pub(crate) fn read(meta: &RawValue) -> Option<Box<TraceMeta>> {
        if !wanted() {
            return None;
        }
        match super::members::read::<TraceText<'_>>(meta) {
            Ok(t) => Self::from_text(t.traceparent, t.tracestate, t.baggage),
            Err(_) => Self::from_value(super::members::read::<Value>(meta).ok().as_ref()),
        }
    }

    /// Reads the three keys from their text (`None` when none is there and usable): boxed, as
    /// most requests carry none and the metadata that holds it is moved by value.
    pub(crate) fn from_text(
        traceparent: Option<&RawValue>,
        tracestate: Option<&RawValue>,
        baggage: Option<&RawValue>,
    ) -> Option<Box<TraceMeta>> {
        // Most requests carry none: nothing to build, bound or drop.
        if traceparent.is_none() && tracestate.is_none() && baggage.is_none() {
            return None;
        }
        let text = |raw: Option<&RawValue>, max: usize| {
            let raw = raw?.get();
            // A string within the bound has at most `max` bytes between its quotes; longer
            // text is never decoded.
            if raw.len() > max + 2 {
                return None;
            }
            serde_json::from_str::<String>(raw).ok()
        };
        TraceMeta {
            traceparent: text(traceparent, MAX_TRACEPARENT),
            tracestate: text(tracestate, MAX_TRACESTATE),
            baggage: text(baggage, MAX_BAGGAGE),
        }
        .bounded()
    }

    /// Reads the three keys of a `_meta` object.
    pub(crate) fn from_value(meta: Option<&Value>) -> Option<Box<TraceMeta>> {
        let meta = meta?.as_object()?;
        let text = |key: &str, max: usize| {
            let s = meta.get(key)?.as_str()?;
            (s.len() <= max).then(|| s.to_owned())
        };
        TraceMeta {
            traceparent: text(Self::TRACEPARENT, MAX_TRACEPARENT),
            tracestate: text(Self::TRACESTATE, MAX_TRACESTATE),
            baggage: text(Self::BAGGAGE, MAX_BAGGAGE),
        }
        .bounded()
    }

    /// Drops a `tracestate` of too many members, and the whole when nothing is left.
    fn bounded(mut self) -> Option<Box<TraceMeta>> {
        if let Some(state) = &self.tracestate
            && state.split(',').count() > MAX_TRACESTATE_MEMBERS
        {
            self.tracestate = None;
        }
        let empty =
            self.traceparent.is_none() && self.tracestate.is_none() && self.baggage.is_none();
        (!empty).then(|| Box::new(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    #[test]
    fn values_past_their_bounds_are_dropped_before_they_are_read() {
        let long = "a".repeat(10_000);
        let meta = json!({
            "traceparent": long,
            "tracestate": "k=v",
            "baggage": "x".repeat(MAX_BAGGAGE + 1),
        });
        let read = TraceMeta::from_value(Some(&meta)).unwrap();
        assert_eq!(read.traceparent, None);
        assert_eq!(read.tracestate.as_deref(), Some("k=v"));
        assert_eq!(read.baggage, None);

        let members: Vec<String> = (0..33).map(|i| format!("k{i}=v")).collect();
        let meta = json!({ "traceparent": PARENT, "tracestate": members.join(",") });
        let read = TraceMeta::from_value(Some(&meta)).unwrap();
        assert_eq!(read.traceparent.as_deref(), Some(PARENT));
        assert_eq!(read.tracestate, None);

        assert_eq!(
            TraceMeta::from_value(Some(&json!({"traceparent": 7}))),
            None
        );
        assert_eq!(TraceMeta::from_value(Some(&json!({}))), None);
    }

    #[test]
    fn the_text_reader_agrees_with_the_value_reader() {
        let raw = |v: Value| RawValue::from_string(v.to_string()).unwrap();
        let (p, s, b) = (raw(json!(PARENT)), raw(json!("a=b")), raw(json!("k=v")));
        let read = TraceMeta::from_text(Some(&p), Some(&s), Some(&b)).unwrap();
        let meta = json!({"traceparent": PARENT, "tracestate": "a=b", "baggage": "k=v"});
        assert_eq!(Some(read), TraceMeta::from_value(Some(&meta)));
        let long = raw(json!("f".repeat(56)));
        assert_eq!(TraceMeta::from_text(Some(&long), None, None), None);
        let number = raw(json!(5));
        assert_eq!(TraceMeta::from_text(Some(&number), None, None), None);
    }

    #[test]
    fn a_meta_s_keys_are_read_in_their_own_pass_as_the_value_reader_reads_them() {
        // With a subscriber set (here a scoped one that wants nothing), the keys are read.
        tracing::subscriber::with_default(tracing::subscriber::NoSubscriber::default(), || {
            let cases = [
                r#"{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","other":{"traceparent":1},"baggage":"k=v"}"#,
                // Written twice: the last one, as a `Value` keeps it.
                r#"{"traceparent":"00-00000000000000000000000000000001-0000000000000001-01","traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}"#,
                r#"{"traceparent":7,"tracestate":"a=b"}"#,
                r#"{"protocolVersion":"2026-07-28"}"#,
            ];
            for text in cases {
                let raw = RawValue::from_string(text.to_owned()).unwrap();
                let value: Value = serde_json::from_str(text).unwrap();
                assert_eq!(
                    TraceMeta::read(&raw),
                    TraceMeta::from_value(Some(&value)),
                    "{text}"
                );
            }
        });
    }
}
