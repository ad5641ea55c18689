//! The 2026-07-28 request metadata headers and their check against the body (2026-07-28
//! § Streamable HTTP, Request Metadata and Server Validation): `MCP-Protocol-Version`,
//! `Mcp-Method`, `Mcp-Name` and the `Mcp-Param-*` headers of `x-mcp-header` tool arguments.
//! Any failure is `-32020 HeaderMismatch` (HTTP 400). Header names are case-insensitive
//! (`HeaderMap` lowercases them), values case-sensitive, surrounding whitespace ignored.

use crate::protocol::{Error, HeaderParam, JsonObject, Request, echo};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use http::HeaderMap;
use http::header::{AsHeaderName, HeaderName};
use serde_json::Value;
use std::borrow::Cow;

// Names made once: a lookup by `&str` parses and lowercases the name on every request.
pub(crate) static PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
pub(crate) static SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
static METHOD: HeaderName = HeaderName::from_static("mcp-method");
static NAME: HeaderName = HeaderName::from_static("mcp-name");

/// Error messages quote at most this much of a header value.
const QUOTE: usize = 80;

fn mismatch(message: String) -> Error {
    Error::header_mismatch(message)
}

fn quote(s: &str) -> String {
    s.chars().take(QUOTE).collect()
}

/// The one value of header `name`, trimmed; `Ok(None)` when absent. A repeated header or
/// one with characters outside visible ASCII, space and tab is malformed.
pub(crate) fn single<'a>(
    headers: &'a HeaderMap,
    name: impl AsHeaderName,
    display: &str,
) -> Result<Option<&'a str>, Error> {
    let mut all = headers.get_all(name).iter();
    let Some(v) = all.next() else {
        return Ok(None);
    };
    if all.next().is_some() {
        return Err(mismatch(format!("Header {display} is repeated")));
    }
    let v = v
        .to_str()
        .map_err(|_| mismatch(format!("Header {display} contains invalid characters")))?;
    Ok(Some(v.trim_matches([' ', '\t'])))
}

fn required<'a>(
    headers: &'a HeaderMap,
    name: &HeaderName,
    display: &str,
) -> Result<&'a str, Error> {
    single(headers, name, display)?
        .ok_or_else(|| mismatch(format!("Missing required {display} header")))
}

fn differs(display: &str, header: &str, body: &str) -> Error {
    mismatch(format!(
        "Header mismatch: {display} header value '{}' does not match body value '{}'",
        echo(quote(header)),
        echo(quote(body))
    ))
}

/// Decodes the `=?base64?…?=` sentinel (strict: canonical padding, valid UTF-8); any other
/// value is literal (§ Value Encoding).
fn decode<'a>(value: &'a str, display: &str) -> Result<Cow<'a, str>, Error> {
    let Some(b64) = value
        .strip_prefix("=?base64?")
        .and_then(|r| r.strip_suffix("?="))
    else {
        return Ok(Cow::Borrowed(value));
    };
    STANDARD
        .decode(b64)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .map(Cow::Owned)
        .ok_or_else(|| mismatch(format!("Header {display} has an invalid Base64 value")))
}

/// `MCP-Protocol-Version` must be present and equal the `_meta` version.
pub(crate) fn check_version(headers: &HeaderMap, body: &str) -> Result<(), Error> {
    let display = "MCP-Protocol-Version";
    let h = required(headers, &PROTOCOL_VERSION, display)?;
    if h == body {
        Ok(())
    } else {
        Err(differs(display, h, body))
    }
}

/// `Mcp-Method` (required on every request) must equal the body's method, and `Mcp-Name`
/// the `params.name` of `tools/call` / `prompts/get`, the `params.uri` of `resources/read`, or
/// the `params.taskId` of `tasks/get`, `tasks/update` and `tasks/cancel`.
pub(crate) fn check_method_and_name(headers: &HeaderMap, req: &Request) -> Result<(), Error> {
    let m = required(headers, &METHOD, "Mcp-Method")?;
    let method = req.method.as_str();
    if m != method {
        return Err(differs("Mcp-Method", m, method));
    }
    // A body without the field is a `-32602`, not a header problem.
    let Some(body) = req.params.routing_name() else {
        return Ok(());
    };
    let h = decode(required(headers, &NAME, "Mcp-Name")?, "Mcp-Name")?;
    if h == body {
        Ok(())
    } else {
        Err(differs("Mcp-Name", &h, body))
    }
}

/// Every annotated argument present (and not `null`) in the body needs its `Mcp-Param-*`
/// header with an equal value; a header without a body value is a mismatch too.
pub(crate) fn check_params(
    headers: &HeaderMap,
    params: &[HeaderParam],
    arguments: &JsonObject,
) -> Result<(), Error> {
    for param in params {
        let display = param.display();
        let header = single(headers, param.header(), display)?;
        let body = param.value_in(arguments);
        match (header, body) {
            (None, None) => {}
            (None, Some(_)) => return Err(mismatch(format!("Missing required {display} header"))),
            (Some(_), None) => {
                return Err(mismatch(format!(
                    "Header mismatch: {display} header is set but the argument is absent"
                )));
            }
            (Some(h), Some(b)) => {
                let h = decode(h, display)?;
                if !same(&h, b) {
                    return Err(differs(display, &h, &b.to_string()));
                }
            }
        }
    }
    Ok(())
}

/// Header vs body value (§ Value Encoding, Server Validation): strings exactly, booleans as
/// `true`/`false`, numbers numerically (`42.0` equals `42`). Other types cannot be annotated
/// and are not compared.
fn same(header: &str, body: &Value) -> bool {
    match body {
        Value::String(s) => header == s,
        Value::Bool(b) => header == if *b { "true" } else { "false" },
        Value::Number(n) => {
            if let (Some(b), Ok(h)) = (n.as_i64(), header.parse::<i64>()) {
                return b == h;
            }
            match (n.as_f64(), header.parse::<f64>()) {
                (Some(b), Ok(h)) => h.is_finite() && b == h,
                _ => false,
            }
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Tool;
    use http::header::HeaderName;
    use serde_json::json;

    fn tool() -> Tool {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "n": {"type": "integer", "x-mcp-header": "N"},
            "deep": {"type": "object", "properties": {"on": {"type": "boolean", "x-mcp-header": "On"}}},
            "bad": {"type": "string", "x-mcp-header": "has space"}
        }});
        Tool::new("t", "t", schema.as_object().cloned().unwrap_or_default())
    }

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(
                HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().unwrap(),
            );
        }
        h
    }

    #[test]
    fn sentinel_decoding_is_strict() {
        assert_eq!(decode("=?base64?SGVsbG8=?=", "x").unwrap(), "Hello");
        assert!(decode("=?base64?SGVsbG8?=", "x").is_err());
        assert!(decode("=?base64?SGVs!!!bG8=?=", "x").is_err());
        assert_eq!(decode("Hello", "x").unwrap(), "Hello");
    }

    #[test]
    fn annotated_paths_follow_properties_only() {
        let a = HeaderParam::of(&tool());
        let mut names: Vec<_> = a.iter().map(|p| (p.path.join("."), p.header())).collect();
        names.sort();
        assert_eq!(
            names,
            [
                ("deep.on".to_owned(), "mcp-param-on"),
                ("n".to_owned(), "mcp-param-n"),
                ("region".to_owned(), "mcp-param-region")
            ]
        );
    }

    #[test]
    fn params_compare_by_type() {
        let t = tool();
        let args = json!({"region": "us-west1", "n": 42, "deep": {"on": true}});
        let args = args.as_object().expect("an object");
        let ok = headers(&[
            ("mcp-param-region", "us-west1"),
            ("MCP-PARAM-N", "42.0"),
            ("mcp-param-on", "true"),
        ]);
        let t = HeaderParam::of(&t);
        assert!(check_params(&ok, &t, args).is_ok());
        let missing = headers(&[("mcp-param-region", "us-west1"), ("mcp-param-n", "42")]);
        assert!(check_params(&missing, &t, args).is_err());
        let wrong = headers(&[
            ("mcp-param-region", "US-WEST1"),
            ("mcp-param-n", "42"),
            ("mcp-param-on", "true"),
        ]);
        assert_eq!(check_params(&wrong, &t, args).unwrap_err().code, -32020);
        let null = json!({"n": null});
        let null = null.as_object().expect("an object");
        assert!(check_params(&HeaderMap::new(), &t, null).is_ok());
    }

    #[test]
    fn method_and_name() {
        let method: crate::protocol::Method = "tools/call".into();
        let params = json!({"name": "get weather"}).as_object().cloned();
        let req = Request {
            id: crate::protocol::RequestId::Number(1),
            params: crate::protocol::Params::parse(&method, params),
            method,
        };
        let b64 = format!("=?base64?{}?=", STANDARD.encode("get weather"));
        assert!(
            check_method_and_name(
                &headers(&[("mcp-method", "tools/call"), ("mcp-name", &b64)]),
                &req
            )
            .is_ok()
        );
        assert!(
            check_method_and_name(
                &headers(&[("mcp-method", "TOOLS/CALL"), ("mcp-name", &b64)]),
                &req
            )
            .is_err()
        );
        assert!(check_method_and_name(&headers(&[("mcp-method", "tools/call")]), &req).is_err());
        assert!(check_method_and_name(&headers(&[("mcp-name", &b64)]), &req).is_err());
    }
}
