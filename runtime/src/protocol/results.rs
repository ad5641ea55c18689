//! What a server answers around a method's own result: the 2026-07-28 result envelope
//! (`resultType`, cache hints, `_meta` server info), `InputRequiredResult`, and the results of
//! the handshake methods (`initialize`, `server/discover`).

#[cfg(test)]
use super::Error;
use super::{Implementation, JsonObject, ServerCapabilities};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

/// `resultType` of a 2026-07-28 result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ResultType {
    /// The request is answered.
    Complete,
    /// The client must answer `inputRequests` and call again with `requestState`.
    InputRequired,
}

/// `cacheScope` of cacheable results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// Contains no user-specific data: any cache may share it.
    #[default]
    Public,
    /// Depends on the authenticated user.
    Private,
}

impl CacheScope {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            CacheScope::Public => "public",
            CacheScope::Private => "private",
        }
    }
}

/// `ttlMs` and `cacheScope` for the cacheable results of 2026-07-28 (`server/discover`, the
/// lists and `resources/read`). Never put on `input_required` results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CacheHint {
    /// How long a client may reuse the result, in milliseconds (0: do not reuse).
    #[serde(rename = "ttlMs")]
    pub ttl_ms: u64,
    /// Who may share it.
    #[serde(rename = "cacheScope")]
    pub scope: CacheScope,
}

impl CacheHint {
    /// The hint of a result built from the client's answers: never reused, never shared (MCP
    /// 2026-07-28 § Caching: retries carrying `inputResponses`/`requestState`).
    pub(crate) const ANSWERED: CacheHint = CacheHint {
        ttl_ms: 0,
        scope: CacheScope::Private,
    };
}

/// The server's `Implementation` as JSON text, written once (`Config::info_text`) for the
/// `_meta.serverInfo` of every 2026-07-28 result instead of serialised for each (design §23).
pub(crate) fn info_text(info: &Implementation) -> Box<RawValue> {
    // An `Implementation` is strings only: it always serialises.
    serde_json::value::to_raw_value(info).unwrap_or_else(|_| unreachable!())
}

/// The `_meta` a server adds to every 2026-07-28 result. The keys are those of
/// [`meta::SERVER_INFO`](super::meta::SERVER_INFO) and
/// [`meta::SUBSCRIPTION_ID`](super::meta::SUBSCRIPTION_ID) (serde needs them as literals).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ResultMeta<'a> {
    /// Who answered.
    #[serde(rename = "io.modelcontextprotocol/serverInfo")]
    pub server_info: &'a RawValue,
    /// The listen request a listen completion ends.
    #[serde(
        rename = "io.modelcontextprotocol/subscriptionId",
        skip_serializing_if = "Option::is_none"
    )]
    pub subscription_id: Option<&'a Value>,
}

/// The envelope of a complete 2026-07-28 result, merged into the method's own result object.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CompleteEnvelope<'a> {
    result_type: ResultType,
    /// Only on the results of cacheable methods ([`Method::is_cacheable`](super::Method::is_cacheable)).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    cache: Option<CacheHint>,
    #[serde(rename = "_meta")]
    meta: ResultMeta<'a>,
}

impl<'a> CompleteEnvelope<'a> {
    /// The envelope of a result from `server_info`, with `cache` hints for cacheable methods.
    pub(crate) fn new(server_info: &'a RawValue, cache: Option<CacheHint>) -> Self {
        CompleteEnvelope {
            result_type: ResultType::Complete,
            cache,
            meta: ResultMeta {
                server_info,
                subscription_id: None,
            },
        }
    }

    /// Tags the result as the end of the listen stream `id`.
    pub(crate) fn subscription(mut self, id: &'a Value) -> Self {
        self.meta.subscription_id = Some(id);
        self
    }

    /// The `_meta` keys it adds.
    pub(crate) fn meta(&self) -> &ResultMeta<'a> {
        &self.meta
    }

    /// Writes its members into a result object being serialised (`_meta` unless the result
    /// had its own, into which [`meta`](Self::meta) was merged).
    pub(crate) fn write_members<M: serde::ser::SerializeMap>(
        &self,
        map: &mut M,
        with_meta: bool,
    ) -> Result<(), M::Error> {
        map.serialize_entry("resultType", &self.result_type)?;
        if let Some(cache) = &self.cache {
            map.serialize_entry("ttlMs", &cache.ttl_ms)?;
            map.serialize_entry("cacheScope", &cache.scope)?;
        }
        if with_meta {
            map.serialize_entry("_meta", &self.meta)?;
        }
        Ok(())
    }

    /// Merges the envelope into `result`: its fields are set, and its `_meta` keys are added
    /// where the result's own `_meta` does not already have them. (What [`Enveloped`] writes
    /// in one pass; the tests compare the two.)
    ///
    /// [`Enveloped`]: super::enveloped::Enveloped
    #[cfg(test)]
    pub(crate) fn wrap(&self, result: Value) -> Result<Value, Error> {
        let Value::Object(mut obj) = result else {
            return Ok(result);
        };
        for (key, value) in to_object(self)? {
            match (obj.get_mut(&key), value) {
                (Some(Value::Object(own)), Value::Object(added)) if key == "_meta" => {
                    for (k, v) in added {
                        own.entry(k).or_insert(v);
                    }
                }
                (Some(_), _) if key == "_meta" => {}
                (_, value) => {
                    obj.insert(key, value);
                }
            }
        }
        Ok(Value::Object(obj))
    }
}

/// `InputRequiredResult` (2026-07-28 § Multi Round-Trip Requests).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InputRequiredResult<'a> {
    result_type: ResultType,
    /// The questions, by wire key. `None` is a state-only result, which asks nothing and only
    /// carries `requestState` to the next round.
    #[serde(skip_serializing_if = "Option::is_none")]
    input_requests: Option<JsonObject>,
    /// The sealed state the client sends back with its answers.
    request_state: String,
    #[serde(rename = "_meta")]
    meta: ResultMeta<'a>,
}

impl<'a> InputRequiredResult<'a> {
    /// Asks `input_requests`, carrying `request_state` to the next round.
    pub(crate) fn new(
        server_info: &'a RawValue,
        input_requests: Option<JsonObject>,
        request_state: String,
    ) -> Self {
        InputRequiredResult {
            result_type: ResultType::InputRequired,
            input_requests,
            request_state,
            meta: ResultMeta {
                server_info,
                subscription_id: None,
            },
        }
    }
}

/// `InitializeResult` (2025-11-25).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InitializeResult<'a> {
    /// The negotiated version.
    pub protocol_version: &'a str,
    /// What the server offers; `extensions` are a 2026-07-28 field and are left out.
    pub capabilities: ServerCapabilities,
    /// Who the server is.
    pub server_info: &'a Implementation,
    /// Instructions for the client's model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<&'a str>,
}

/// `DiscoverResult` (2026-07-28), before its envelope.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DiscoverResult<'a> {
    /// The versions served through per-request `_meta`.
    pub supported_versions: &'a [&'a str],
    /// What the server offers.
    pub capabilities: &'a ServerCapabilities,
    /// Instructions for the client's model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<&'a str>,
}

/// Serialises a result as a JSON object; a failure is an internal error.
#[cfg(test)]
pub(crate) fn to_object(value: &impl Serialize) -> Result<JsonObject, Error> {
    match serde_json::to_value(value) {
        Ok(Value::Object(obj)) => Ok(obj),
        Ok(other) => Err(Error::internal(format!(
            "result is not a JSON object: {other}"
        ))),
        Err(e) => Err(Error::internal(format!("result does not serialise: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::meta;
    use serde_json::json;

    #[test]
    fn envelope_merges_meta_and_skips_cache_fields_when_not_cacheable() {
        let info = info_text(&Implementation::new("s", "1"));
        let own = json!({"content": [], "_meta": {"x": 1, meta::SERVER_INFO: "kept"}});
        let plain = CompleteEnvelope::new(&info, None).wrap(own).unwrap();
        assert_eq!(
            plain,
            json!({"content": [], "resultType": "complete",
                   "_meta": {"x": 1, meta::SERVER_INFO: "kept"}})
        );
        let cached = CompleteEnvelope::new(&info, Some(CacheHint::ANSWERED))
            .wrap(json!({}))
            .unwrap();
        assert_eq!(cached["ttlMs"], 0);
        assert_eq!(cached["cacheScope"], "private");
        assert_eq!(cached["_meta"][meta::SERVER_INFO], json!(info));
    }

    #[test]
    fn meta_keys_are_the_reserved_ones() {
        let info = info_text(&Implementation::new("s", "1"));
        let id = json!(3);
        let end = CompleteEnvelope::new(&info, None).subscription(&id);
        let v = end.wrap(json!({})).unwrap();
        assert_eq!(v["_meta"][meta::SUBSCRIPTION_ID], 3);
        assert_eq!(v["_meta"][meta::SERVER_INFO]["name"], "s");
    }
}
