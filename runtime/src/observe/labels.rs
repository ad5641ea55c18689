//! The label values of the question events and metrics, each set bounded.

use crate::protocol::Revision;
use crate::sync::lock;
use std::collections::BTreeSet;
use std::sync::Mutex;

/// At most this many distinct client names get a label of their own; later ones are `other`.
pub(crate) const MAX_CLIENT_LABELS: usize = 64;
/// At most this many distinct tool, prompt or resource names (a resource template's URIs are
/// the client's to choose); later ones are `other`.
pub(crate) const MAX_NAME_LABELS: usize = 256;
/// A client label is cut to this many characters.
const CLIENT_LABEL_CHARS: usize = 64;
/// A name label is cut to this many characters.
const NAME_LABEL_CHARS: usize = 128;

/// The label values a server has given out. A client's name comes from the wire, and so can a
/// resource's URI: each label set is bounded, so no client can grow the metrics without end.
#[derive(Debug, Default)]
pub(crate) struct Labels {
    clients: Mutex<BTreeSet<String>>,
    names: Mutex<BTreeSet<String>>,
}

impl Labels {
    /// The label of a client's `clientInfo.name`: `none` without one (or an empty one), the
    /// name with every character outside `[A-Za-z0-9 ._-]` made `_` and cut to 64 characters,
    /// or `other` once 64 distinct labels are out.
    pub(crate) fn client(&self, name: Option<&str>) -> String {
        match name {
            None | Some("") => "none".to_owned(),
            Some(name) => given(
                &self.clients,
                clean(name, CLIENT_LABEL_CHARS),
                MAX_CLIENT_LABELS,
            ),
        }
    }

    /// The label of a tool, prompt or resource name: as [`Labels::client`], cut to 128
    /// characters and bounded at 256.
    pub(crate) fn name(&self, name: &str) -> String {
        given(&self.names, clean(name, NAME_LABEL_CHARS), MAX_NAME_LABELS)
    }
}

/// `value` if it was given out before or there is room for it, else `other`.
fn given(set: &Mutex<BTreeSet<String>>, value: String, max: usize) -> String {
    let mut set = lock(set);
    if set.contains(&value) {
        return value;
    }
    if set.len() >= max {
        return "other".to_owned();
    }
    set.insert(value.clone());
    value
}

fn clean(s: &str, max_chars: usize) -> String {
    s.chars()
        .take(max_chars)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, ' ' | '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The call a pass belongs to, as its decisions are labelled.
pub(crate) struct Call<'a> {
    /// The request's revision.
    pub revision: Revision,
    /// `tools/call`, `prompts/get` or `resources/read`.
    pub method: &'a str,
    /// The tool, prompt or resource.
    pub name: &'a str,
    /// The client's `clientInfo.name`.
    pub client: Option<&'a str>,
}

/// The label values of one call.
pub(super) struct Labelled {
    pub(super) revision: &'static str,
    pub(super) method: String,
    pub(super) name: String,
    pub(super) client: String,
}

impl Labelled {
    pub(super) fn of(labels: &Labels, call: &Call<'_>) -> Labelled {
        Labelled {
            revision: call.revision.as_str(),
            method: call.method.to_owned(),
            name: labels.name(call.name),
            client: labels.client(call.client),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_labels_are_cleaned_cut_and_bounded() {
        let labels = Labels::default();
        assert_eq!(labels.client(None), "none");
        assert_eq!(labels.client(Some("")), "none");
        assert_eq!(labels.client(Some("Claude Desktop")), "Claude Desktop");
        assert_eq!(labels.client(Some("a\"b}\nc{x=\"y\"}")), "a_b__c_x__y__");
        let long = "x".repeat(500);
        assert_eq!(labels.client(Some(&long)).len(), CLIENT_LABEL_CHARS);
        assert_eq!(labels.client(Some("é")), "_");
        // 5 distinct so far; fill up to the cap, then every new name is `other`.
        for i in 0..MAX_CLIENT_LABELS - 4 {
            let _ = labels.client(Some(&format!("client-{i}")));
        }
        assert_eq!(labels.client(Some("one more")), "other");
        assert_eq!(labels.client(Some("Claude Desktop")), "Claude Desktop");
        assert_eq!(labels.client(Some("client-0")), "client-0");
        assert_eq!(lock(&labels.clients).len(), MAX_CLIENT_LABELS);
    }

    #[test]
    fn name_labels_are_bounded_apart_from_clients() {
        let labels = Labels::default();
        for i in 0..MAX_NAME_LABELS {
            assert_eq!(
                labels.name(&format!("test://r/{i}")),
                format!("test___r_{i}")
            );
        }
        assert_eq!(labels.name("test://r/new"), "other");
        assert_eq!(labels.client(Some("still room")), "still room");
    }
}
