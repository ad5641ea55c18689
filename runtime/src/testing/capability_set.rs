//! The client capabilities that decide what a server may ask, one combination at a time.

use crate::protocol::{
    ClientCapabilities, ElicitationCapability, JsonObject, Revision, SamplingCapability,
};
use serde_json::Value;
use std::fmt;

/// One combination of the client capabilities a question can need, down to the mode:
/// elicitation's form and URL modes, sampling with and without tools, and roots.
///
/// [`CapabilitySet::all`] gives the 24 that can be declared (`sampling.tools` only with
/// `sampling`); [`CapabilitySet::permits`] says whether a client that declared this combination
/// could have been sent a given request.
///
/// ```
/// use rondo_mcp::testing::CapabilitySet;
/// use serde_json::json;
/// let form_only = CapabilitySet { form: true, ..CapabilitySet::NONE };
/// let url = json!({"method": "elicitation/create", "params": {"mode": "url", "message": "Pay",
///     "url": "https://pay.example/1", "elicitationId": "1"}});
/// assert!(form_only.permits(&url).is_err());
/// assert_eq!(CapabilitySet::all().len(), 24);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CapabilitySet {
    /// `elicitation.form`.
    pub form: bool,
    /// `elicitation.url`.
    pub url: bool,
    /// `sampling`.
    pub sampling: bool,
    /// `sampling.tools` (only with `sampling`).
    pub sampling_tools: bool,
    /// `roots`.
    pub roots: bool,
}

impl CapabilitySet {
    /// Nothing declared.
    pub const NONE: CapabilitySet = CapabilitySet {
        form: false,
        url: false,
        sampling: false,
        sampling_tools: false,
        roots: false,
    };

    /// Every combination that can be declared, nothing declared first.
    pub fn all() -> Vec<CapabilitySet> {
        (0..32u32)
            .map(|bits| CapabilitySet {
                form: bits & 1 != 0,
                url: bits & 2 != 0,
                sampling: bits & 4 != 0,
                sampling_tools: bits & 8 != 0,
                roots: bits & 16 != 0,
            })
            .filter(|d| d.sampling || !d.sampling_tools)
            .collect()
    }

    /// The capabilities a client declaring this combination sends (each mode spelled out).
    pub fn capabilities(self) -> ClientCapabilities {
        let mut caps = ClientCapabilities::default();
        if self.form || self.url {
            caps.elicitation = Some(ElicitationCapability {
                form: self.form.then(JsonObject::new),
                url: self.url.then(JsonObject::new),
            });
        }
        if self.sampling {
            caps.sampling = Some(SamplingCapability {
                context: None,
                tools: self.sampling_tools.then(JsonObject::new),
            });
        }
        if self.roots {
            caps.roots = Some(JsonObject::new());
        }
        caps
    }

    /// Whether a client of `revision` can declare this combination: before 2025-06-18 there
    /// is no elicitation, and before 2025-11-25 no URL mode and no sampling with tools.
    pub fn declarable_at(self, revision: Revision) -> bool {
        let (elicitation, newest) = (
            revision >= Revision::V2025_06_18,
            revision >= Revision::V2025_11_25,
        );
        (elicitation || !self.form) && (newest || (!self.url && !self.sampling_tools))
    }

    /// The capabilities a client of `revision` declaring this combination sends, in that
    /// revision's words: a 2025-06-18 client declares form elicitation as `elicitation: {}`
    /// (its only mode); later ones spell each mode out.
    pub fn capabilities_at(self, revision: Revision) -> ClientCapabilities {
        let mut caps = self.capabilities();
        if revision < Revision::V2025_11_25
            && let Some(e) = &mut caps.elicitation
        {
            *e = ElicitationCapability::default();
        }
        caps
    }

    /// `Ok` when a client that declared this combination may be sent `request` (a
    /// `{"method", "params"}` object: a 2025-11-25 request, or a 2026-07-28 input request);
    /// otherwise what it lacks. Sampling with `tools` or `toolChoice` needs `sampling.tools`,
    /// and `includeContext` other than `none` needs `sampling.context`, which no combination
    /// declares. `ping` is always permitted; any other method is not a request a server may
    /// send a client.
    pub fn permits(self, request: &Value) -> Result<(), String> {
        let params = &request["params"];
        let method = request["method"].as_str().unwrap_or_default();
        let lacks = match method {
            "elicitation/create" => match params["mode"].as_str().unwrap_or("form") {
                "url" => (!self.url).then_some("elicitation.url"),
                _ => (!self.form).then_some("elicitation.form"),
            },
            "sampling/createMessage" => {
                let tools = params.get("tools").is_some() || params.get("toolChoice").is_some();
                let context = params.get("includeContext").is_some_and(|c| c != "none");
                if !self.sampling {
                    Some("sampling")
                } else if tools && !self.sampling_tools {
                    Some("sampling.tools")
                } else if context {
                    Some("sampling.context")
                } else {
                    None
                }
            }
            "roots/list" => (!self.roots).then_some("roots"),
            // Either side may ping; every client answers.
            "ping" => None,
            _ => Some("a capability for it: it is no question a server may put to a client"),
        };
        match lacks {
            None => Ok(()),
            Some(lacks) => Err(format!(
                "`{method}` sent to a client that did not declare {lacks}"
            )),
        }
    }
}

impl fmt::Display for CapabilitySet {
    /// `{elicitation.form, sampling}`, `{}` for nothing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = [
            (self.form, "elicitation.form"),
            (self.url, "elicitation.url"),
            (self.sampling && !self.sampling_tools, "sampling"),
            (self.sampling_tools, "sampling.tools"),
            (self.roots, "roots"),
        ];
        let on: Vec<&str> = names
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, n)| *n)
            .collect();
        write!(f, "{{{}}}", on.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sampling_with_tools_needs_its_own_capability() {
        let sampling = CapabilitySet {
            sampling: true,
            ..CapabilitySet::NONE
        };
        let with_tools = json!({"method": "sampling/createMessage", "params": {
            "messages": [], "maxTokens": 1, "tools": []}});
        let err = sampling.permits(&with_tools).unwrap_err();
        assert!(err.contains("sampling.tools"), "{err}");
        let all = CapabilitySet {
            sampling_tools: true,
            ..sampling
        };
        assert_eq!(all.permits(&with_tools), Ok(()));
        let context = json!({"method": "sampling/createMessage", "params": {
            "messages": [], "maxTokens": 1, "includeContext": "thisServer"}});
        assert!(all.permits(&context).is_err());
    }

    #[test]
    fn a_form_is_the_default_mode_and_only_questions_and_ping_are_sent() {
        let url = CapabilitySet {
            url: true,
            ..CapabilitySet::NONE
        };
        let form = json!({"method": "elicitation/create", "params": {"message": "m"}});
        assert!(url.permits(&form).is_err());
        let other = json!({"method": "tools/list"});
        let all = CapabilitySet {
            form: true,
            url: true,
            sampling: true,
            sampling_tools: true,
            roots: true,
        };
        assert!(all.permits(&other).is_err());
        assert_eq!(
            CapabilitySet::NONE.permits(&json!({"method": "ping"})),
            Ok(())
        );
        assert_eq!(
            all.to_string(),
            "{elicitation.form, elicitation.url, sampling.tools, roots}"
        );
        assert_eq!(CapabilitySet::NONE.to_string(), "{}");
    }

    #[test]
    fn each_revision_declares_what_it_has_in_its_own_words() {
        let count = |r| {
            CapabilitySet::all()
                .into_iter()
                .filter(|c| c.declarable_at(r))
                .count()
        };
        assert_eq!(count(Revision::V2024_11_05), 4);
        assert_eq!(count(Revision::V2025_03_26), 4);
        assert_eq!(count(Revision::V2025_06_18), 8);
        assert_eq!(count(Revision::V2025_11_25), 24);
        assert_eq!(count(Revision::V2026_07_28), 24);
        let form = CapabilitySet {
            form: true,
            ..CapabilitySet::NONE
        };
        let wire = |r| serde_json::to_value(form.capabilities_at(r)).unwrap();
        assert_eq!(wire(Revision::V2025_06_18), json!({"elicitation": {}}));
        assert_eq!(
            wire(Revision::V2025_11_25),
            json!({"elicitation": {"form": {}}})
        );
    }
}
