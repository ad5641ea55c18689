//! The `x-mcp-header` annotations of a tool's input schema: which arguments a 2026-07-28 HTTP
//! client mirrors into `Mcp-Param-*` headers (§ Schema Extension). Computed once per tool, when
//! a [`Router`](crate::Router) is built, and looked up by name per call.

use super::{JsonObject, Tool};
use serde_json::Value;

/// One argument a tool's schema marks with `x-mcp-header`: a 2026-07-28 HTTP client sends its
/// value in the `Mcp-Param-{name}` header too, and the server checks that they agree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderParam {
    /// The property path from the schema's root (`["deep", "on"]` for a nested property).
    pub path: Vec<String>,
    /// The header name's suffix, as the schema spells it (`Region` for `Mcp-Param-Region`).
    pub name: String,
    /// The full header name in lower case (`mcp-param-region`).
    header: String,
    /// The header name as the specification writes it (`Mcp-Param-Region`).
    display: String,
}

impl HeaderParam {
    /// The annotated arguments of `tool`. Only properties reached through `properties` chains
    /// count; an annotation that is not a valid header-name token is ignored (clients must
    /// drop such tools anyway).
    pub fn of(tool: &Tool) -> Vec<HeaderParam> {
        let mut out = Vec::new();
        walk(&tool.input_schema, &mut Vec::new(), &mut out);
        out
    }

    /// The full header name in lower case, as `http` stores header names.
    pub fn header(&self) -> &str {
        &self.header
    }

    /// The header name as the specification writes it (`Mcp-Param-Region`).
    pub fn display(&self) -> &str {
        &self.display
    }

    /// The argument's value in `arguments`, if present and not `null`.
    pub fn value_in<'a>(&self, arguments: &'a JsonObject) -> Option<&'a Value> {
        let (first, rest) = self.path.split_first()?;
        let mut v = arguments.get(first)?;
        for key in rest {
            v = v.as_object()?.get(key)?;
        }
        Some(v).filter(|v| !v.is_null())
    }
}

fn walk(schema: &JsonObject, path: &mut Vec<String>, out: &mut Vec<HeaderParam>) {
    let Some(Value::Object(props)) = schema.get("properties") else {
        return;
    };
    for (key, prop) in props {
        let Value::Object(prop) = prop else { continue };
        path.push(key.clone());
        if let Some(Value::String(name)) = prop.get("x-mcp-header")
            && is_token(name)
        {
            out.push(HeaderParam {
                path: path.clone(),
                name: name.clone(),
                header: format!("mcp-param-{}", name.to_ascii_lowercase()),
                display: format!("Mcp-Param-{name}"),
            });
        }
        walk(prop, path, out);
        path.pop();
    }
}

/// An HTTP header-name token (RFC 9110 `tchar`s), not empty.
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}
