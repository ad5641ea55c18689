//! Each revision's shape of what Rondo writes: fields a revision does not define are left out.

use super::*;
use serde_json::json;

fn shaped<T: Shape + serde::Serialize>(mut t: T, r: Revision) -> Value {
    t.shape(r);
    serde_json::to_value(&t).unwrap()
}

fn full_tool() -> Tool {
    serde_json::from_value(json!({
        "name": "t", "title": "T", "description": "d",
        "inputSchema": {"type": "object"},
        "outputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": true},
        "icons": [{"src": "https://example.com/i.png"}],
        "_meta": {"k": 1}
    }))
    .unwrap()
}

#[test]
fn a_tool_loses_what_each_revision_lacks() {
    let keys = |r| {
        let v = shaped(full_tool(), r);
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k.join(",")
    };
    assert_eq!(keys(Revision::V2024_11_05), "description,inputSchema,name");
    assert_eq!(
        keys(Revision::V2025_03_26),
        "annotations,description,inputSchema,name"
    );
    assert_eq!(
        keys(Revision::V2025_06_18),
        "_meta,annotations,description,inputSchema,name,outputSchema,title"
    );
    assert_eq!(
        keys(Revision::V2025_11_25),
        "_meta,annotations,description,icons,inputSchema,name,outputSchema,title"
    );
    assert_eq!(
        shaped(full_tool(), Revision::V2026_07_28),
        json!(full_tool())
    );
}

#[test]
fn content_a_revision_has_no_type_for_becomes_text() {
    let result = CallToolResult {
        content: vec![
            Content::audio("AAAA", "audio/wav"),
            Content::resource_link(Resource {
                mime_type: Some("text/plain".into()),
                ..Resource::new("file:///a.txt", "a")
            }),
        ],
        structured_content: Some(json!({"x": 1})),
        ..Default::default()
    };
    let old = shaped(result.clone(), Revision::V2024_11_05);
    assert_eq!(
        old,
        json!({"content": [
            {"type": "text", "text": "[An audio clip (audio/wav) was left out: this client's protocol revision, 2024-11-05, has no audio content.]"},
            {"type": "text", "text": "Resource `a`: file:///a.txt (text/plain)"}
        ]})
    );
    let mid = shaped(result.clone(), Revision::V2025_03_26);
    assert_eq!(mid["content"][0]["type"], "audio");
    assert_eq!(mid["content"][1]["type"], "text");
    assert!(mid.get("structuredContent").is_none());
    let new = shaped(result, Revision::V2025_06_18);
    assert_eq!(new["content"][1]["type"], "resource_link");
    assert_eq!(new["structuredContent"], json!({"x": 1}));
}

#[test]
fn capabilities_are_read_with_the_revision_s_meaning() {
    let everything: ClientCapabilities = serde_json::from_value(json!({
        "elicitation": {"url": {}},
        "sampling": {"tools": {}, "context": {}},
        "roots": {"listChanged": true},
        "tasks": {}
    }))
    .unwrap();
    let at = |r| serde_json::to_value(everything.clone().read_at(r)).unwrap();
    assert_eq!(
        at(Revision::V2024_11_05),
        json!({"sampling": {}, "roots": {"listChanged": true}})
    );
    assert_eq!(
        at(Revision::V2025_06_18),
        json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {"listChanged": true}})
    );
    assert_eq!(at(Revision::V2025_11_25), json!(everything));
}

#[test]
fn server_capabilities_and_info_per_revision() {
    let mut caps = ServerCapabilities {
        completions: Some(JsonObject::new()),
        ..Default::default()
    };
    caps.shape(Revision::V2024_11_05);
    assert!(caps.completions.is_none());
    let info = Implementation {
        title: Some("T".into()),
        description: Some("d".into()),
        ..Implementation::new("n", "1")
    };
    assert_eq!(
        shaped(info.clone(), Revision::V2025_06_18),
        json!({"name": "n", "version": "1", "title": "T"})
    );
    assert_eq!(
        shaped(info, Revision::V2025_03_26),
        json!({"name": "n", "version": "1"})
    );
}

#[test]
fn a_form_at_2025_06_18_has_enum_names_and_no_defaults_but_booleans() {
    let form = InputRequest::Elicit(ElicitRequest::Form {
        message: "m".into(),
        requested_schema: serde_json::from_value(json!({
            "type": "object",
            "properties": {
                "seat": {"type": "string", "oneOf": [
                    {"const": "w", "title": "Window"}, {"const": "a", "title": "Aisle"}]},
                "name": {"type": "string", "default": "Ada"},
                "ok": {"type": "boolean", "default": true}
            }
        }))
        .unwrap(),
    });
    let at = form.clone().at(Revision::V2025_06_18).unwrap();
    assert_eq!(
        at.params_at(Revision::V2025_06_18).unwrap(),
        json!({"message": "m", "requestedSchema": {"type": "object", "properties": {
            "seat": {"type": "string", "enum": ["w", "a"], "enumNames": ["Window", "Aisle"]},
            "name": {"type": "string"},
            "ok": {"type": "boolean", "default": true}
        }}})
    );
    assert_eq!(form.clone().at(Revision::V2025_11_25), Ok(form.clone()));
    assert_eq!(
        form.params_at(Revision::V2025_11_25).unwrap()["mode"],
        "form"
    );
    let multi = InputRequest::Elicit(ElicitRequest::Form {
        message: "m".into(),
        requested_schema: serde_json::from_value(json!({"type": "object", "properties": {
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a"]}}}}))
        .unwrap(),
    });
    assert!(
        multi
            .at(Revision::V2025_06_18)
            .unwrap_err()
            .contains("`tags`")
    );
}

#[test]
fn sampling_before_2025_11_25_is_one_block_of_a_type_the_revision_has() {
    use crate::protocol::{CreateMessageRequest, Role, SamplingMessage};
    let mut req = CreateMessageRequest::user("hi", 10);
    req.messages.push(SamplingMessage {
        role: Role::User,
        content: SamplingContent::Many(vec![
            json!({"type": "audio", "data": "AA", "mimeType": "audio/wav"}),
        ]),
    });
    let ask = InputRequest::Sample(req);
    let at = ask.clone().at(Revision::V2025_03_26).unwrap();
    let InputRequest::Sample(s) = &at else {
        unreachable!()
    };
    assert!(matches!(s.messages[1].content, SamplingContent::One(_)));
    assert_eq!(
        ask.at(Revision::V2024_11_05).unwrap_err(),
        "`audio` content in a sampling message"
    );
}
