//! The official JSON Schemas of every revision (`runtime/schema/`), compiled once per process,
//! and the tables the [`Validator`](super::Validator) reads from them: which definition each
//! party's requests and notifications must satisfy (from the `ClientRequest`, `ServerRequest`,
//! `ClientNotification` and `ServerNotification` unions), which definition an error code has,
//! and which requests may be answered with an `InputRequiredResult` (those whose params carry
//! `inputResponses`).

use crate::protocol::Revision;
use jsonschema::ValidatorMap;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

const V2024_11_05: &str = include_str!("../../schema/2024-11-05/schema.json");
const V2025_03_26: &str = include_str!("../../schema/2025-03-26/schema.json");
const V2025_06_18: &str = include_str!("../../schema/2025-06-18/schema.json");
const V2025_11_25: &str = include_str!("../../schema/2025-11-25/schema.json");
const V2026_07_28: &str = include_str!("../../schema/2026-07-28/schema.json");
/// The tasks extension over the 2026-07-28 base (Rondo's own: see the file's `$comment`).
const EXT_TASKS: &str = include_str!("../../schema/ext-tasks/schema.json");
/// The Skills extension, over either base (Rondo's own: see the file's `$comment`).
const EXT_SKILLS: &str = include_str!("../../schema/ext-skills/schema.json");

/// Who sends a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Party {
    Client,
    Server,
}

impl Party {
    pub(super) fn name(self) -> &'static str {
        match self {
            Party::Client => "Client",
            Party::Server => "Server",
        }
    }
}

/// What an error definition describes: the whole response (`HeaderMismatchError`, ...) or only
/// its `error` member (`ParseError`, `InvalidParamsError`, ...). The schema has both kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ErrorScope {
    Response,
    ErrorMember,
}

/// One revision's schema and the tables derived from it.
pub(super) struct Schema {
    compiled: ValidatorMap,
    defs: HashSet<String>,
    requests: HashMap<(Party, String), String>,
    notifications: HashMap<(Party, String), String>,
    errors: HashMap<i64, (String, ErrorScope)>,
    input_required: HashSet<String>,
}

impl std::fmt::Debug for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Schema")
            .field("defs", &self.defs.len())
            .finish()
    }
}

/// The schema of `revision`, compiled on first use.
pub(super) fn schema(revision: Revision) -> &'static Schema {
    static SCHEMAS: [OnceLock<Schema>; Revision::ALL.len()] = [const { OnceLock::new() }; 5];
    let (i, text) = match revision {
        Revision::V2024_11_05 => (0, V2024_11_05),
        Revision::V2025_03_26 => (1, V2025_03_26),
        Revision::V2025_06_18 => (2, V2025_06_18),
        Revision::V2025_11_25 => (3, V2025_11_25),
        _ => (4, V2026_07_28),
    };
    SCHEMAS[i].get_or_init(|| Schema::load(text, revision < Revision::V2025_11_25))
}

impl Schema {
    /// Loads a schema; `strict` (the draft-07 schemas of the three oldest revisions) also
    /// refuses members a definition does not list (see [`strict`]).
    fn load(text: &str, strict: bool) -> Schema {
        let mut root: Value = serde_json::from_str(text).expect("the bundled schema is JSON");
        to_defs(&mut root);
        if strict {
            let defs = root["$defs"].as_object_mut().expect("the schema has $defs");
            for def in defs.values_mut() {
                // A request or notification definition of these revisions is its `method` and
                // `params` only (`jsonrpc` and `id` are the envelope's): its top stays open.
                let message = def.pointer("/properties/method").is_some();
                close(def, !message);
                // Every request's and notification's params may carry `_meta` (the base
                // `Request` and `Notification` of `schema.ts`, which the generated
                // definitions do not repeat).
                if let Some(Value::Object(params)) =
                    def.pointer_mut("/properties/params/properties")
                    && message
                {
                    params
                        .entry("_meta")
                        .or_insert_with(|| serde_json::json!({"type": "object"}));
                }
            }
        }
        widen(&mut root);
        let modern = root.pointer("/$defs/InputRequiredResult").is_some();
        if modern {
            merge_extension(&mut root, EXT_TASKS);
        }
        skills_base(&mut root, modern);
        merge_extension(&mut root, EXT_SKILLS);
        let compiled = jsonschema::options()
            .should_validate_formats(true)
            .build_map(&root)
            .expect("the bundled schema compiles");
        let defs = &root["$defs"];
        let mut schema = Schema {
            compiled,
            defs: defs
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, _)| k.clone())
                .collect(),
            requests: HashMap::new(),
            notifications: HashMap::new(),
            errors: HashMap::new(),
            input_required: HashSet::new(),
        };
        for party in [Party::Client, Party::Server] {
            for (kind, table) in [
                ("Request", &mut schema.requests),
                ("Notification", &mut schema.notifications),
            ] {
                for def in members(defs, &format!("{}{kind}", party.name())) {
                    if let Some(m) = defs[&def].pointer("/properties/method/const") {
                        let m = m.as_str().unwrap_or_default().to_owned();
                        table.insert((party, m), def);
                    }
                }
            }
        }
        for (name, def) in defs.as_object().into_iter().flatten() {
            if let Some((code, scope)) = error_code(def) {
                schema.errors.insert(code, (name.clone(), scope));
            }
            let params = def
                .pointer("/properties/params/$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/$defs/"));
            if params.is_some_and(|p| defs[p].pointer("/properties/inputResponses").is_some()) {
                schema.input_required.insert(name.clone());
            }
        }
        schema
    }

    /// Whether the schema defines `def`.
    pub(super) fn has(&self, def: &str) -> bool {
        self.defs.contains(def)
    }

    /// The definition of a request `party` may send with `method`.
    pub(super) fn request(&self, party: Party, method: &str) -> Option<&str> {
        let key = (party, method.to_owned());
        self.requests.get(&key).map(String::as_str)
    }

    /// The definition of a notification `party` may send with `method`.
    pub(super) fn notification(&self, party: Party, method: &str) -> Option<&str> {
        let key = (party, method.to_owned());
        self.notifications.get(&key).map(String::as_str)
    }

    /// The definition the result of `request` (a request definition) must satisfy:
    /// `FooRequest` is answered by `FooResult`, a request without one by `EmptyResult`.
    pub(super) fn result_of(&self, request: &str) -> String {
        let result = format!("{}Result", request.trim_end_matches("Request"));
        if self.has(&result) {
            result
        } else {
            "EmptyResult".to_owned()
        }
    }

    /// Whether `request` (a request definition) may be answered with an `InputRequiredResult`.
    pub(super) fn may_require_input(&self, request: &str) -> bool {
        self.input_required.contains(request)
    }

    /// The specific definition of an error code, where the schema has one.
    pub(super) fn error(&self, code: i64) -> Option<(&str, ErrorScope)> {
        self.errors.get(&code).map(|(d, s)| (d.as_str(), *s))
    }

    /// Validates `instance` against `def`; the errors, each with where it is, otherwise.
    pub(super) fn check(&self, def: &str, instance: &Value) -> Result<(), Vec<String>> {
        let Some(validator) = self.compiled.get(&format!("#/$defs/{def}")) else {
            return Err(vec![format!("the schema has no definition `{def}`")]);
        };
        let errors: Vec<String> = validator
            .iter_errors(instance)
            .take(8)
            .map(|e| {
                let at = e.instance_path().to_string();
                let at = if at.is_empty() { "/".to_owned() } else { at };
                format!("at {at}: {e}")
            })
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

/// The definitions a union definition (`anyOf` of `$ref`s) names; a definition that is not a
/// union stands for itself (2026-07-28's `ClientNotification` is one notification).
fn members(defs: &Value, union: &str) -> Vec<String> {
    let Some(def) = defs.get(union) else {
        return Vec::new();
    };
    match def.get("anyOf").and_then(Value::as_array) {
        Some(items) => items
            .iter()
            .filter_map(|i| i.get("$ref")?.as_str()?.strip_prefix("#/$defs/"))
            .map(str::to_owned)
            .collect(),
        None => vec![union.to_owned()],
    }
}

/// The error code a definition pins, and what it describes.
fn error_code(def: &Value) -> Option<(i64, ErrorScope)> {
    if let Some(code) = def
        .pointer("/properties/code/const")
        .and_then(Value::as_i64)
    {
        return Some((code, ErrorScope::ErrorMember));
    }
    let parts = def.pointer("/properties/error/allOf")?.as_array()?;
    parts
        .iter()
        .find_map(|p| p.pointer("/properties/code/const")?.as_i64())
        .map(|code| (code, ErrorScope::Response))
}

/// Widens what `schema.json` narrows by accident of its generator (the normative `schema.ts`
/// says otherwise; see DIGEST §10 A4): the values of an elicitation answer's `content` are
/// `string | number | boolean | string[]` (the JSON says `integer`, so a float answered to a
/// `number` field would fail), and 2026-07-28's `JSONValue` includes `number` and `null` (the
/// JSON has neither non-integral numbers nor `null`). The revisions before 2025-11-25 require
/// an `id` on every error, which JSON-RPC 2.0 cannot give a message whose id could not be read:
/// it is optional there, as 2025-11-25 made it. Nothing else is changed.
fn widen(root: &mut Value) {
    // JSON-RPC 2.0 answers a message whose id cannot be read with an error without one; the
    // schemas before 2025-11-25 require an `id` there (2025-11-25 made it optional).
    if let Some(Value::Array(required)) = root.pointer_mut("/$defs/JSONRPCError/required") {
        required.retain(|r| r != "id");
    }
    let content = "/$defs/ElicitResult/properties/content/additionalProperties";
    match root.pointer_mut(content) {
        // 2025-06-18: one list of scalar types.
        Some(Value::Object(o)) if o.get("type").is_some_and(Value::is_array) => {
            if let Some(Value::Array(types)) = o.get_mut("type") {
                types.push(Value::from("number"));
            }
        }
        Some(_) => add_types(root, &format!("{content}/anyOf"), &["number"]),
        None => {}
    }
    if root.pointer("/$defs/JSONValue").is_some() {
        add_types(root, "/$defs/JSONValue/anyOf", &["number", "null"]);
    }
}

/// Moves a draft-07 schema's `definitions` to `$defs` and points its references there, so
/// every revision's definitions are found at the same place. The references are all local
/// (`#/definitions/Name`).
fn to_defs(root: &mut Value) {
    let Some(defs) = root.as_object_mut().and_then(|o| o.remove("definitions")) else {
        return;
    };
    root["$defs"] = defs;
    fn repoint(v: &mut Value) {
        match v {
            Value::Object(o) => {
                for (k, v) in o.iter_mut() {
                    match (k.as_str(), v) {
                        ("$ref", Value::String(r)) => {
                            if let Some(name) = r.strip_prefix("#/definitions/") {
                                *r = format!("#/$defs/{name}");
                            }
                        }
                        (_, v) => repoint(v),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(repoint),
            _ => {}
        }
    }
    repoint(root);
}

/// Makes a definition refuse members it does not list: every object schema with
/// `properties` and no `additionalProperties` of its own gets `additionalProperties: false`.
/// The generated schemas write a TypeScript index signature as `additionalProperties`, so
/// what stays open is what `schema.ts` leaves open (`_meta`, `experimental`, a result's own
/// members); a server that sends a member its client's revision does not define fails the
/// check. A tool's `inputSchema` and `outputSchema` are JSON Schemas of the author's own,
/// whatever keywords they use, and stay open.
fn close(schema: &mut Value, here: bool) {
    let Value::Object(o) = schema else {
        if let Value::Array(items) = schema {
            items.iter_mut().for_each(|i| close(i, true));
        }
        return;
    };
    if here && o.contains_key("properties") && !o.contains_key("additionalProperties") {
        o.insert("additionalProperties".into(), Value::Bool(false));
    }
    for (k, v) in o.iter_mut() {
        if k == "properties" {
            if let Value::Object(props) = v {
                for (name, prop) in props.iter_mut() {
                    if name != "inputSchema" && name != "outputSchema" {
                        close(prop, true);
                    }
                }
            }
        } else {
            close(v, true);
        }
    }
}

/// Merges an extension's definitions into the base schema's `$defs`, its requests into the
/// `ClientRequest` union and its notifications into the `ServerNotification` union, so its
/// messages are checked like the base's.
fn merge_extension(root: &mut Value, text: &str) {
    let ext: Value = serde_json::from_str(text).expect("the bundled extension schema is JSON");
    let defs = root["$defs"].as_object_mut().expect("the base has $defs");
    for (name, def) in ext["$defs"].as_object().into_iter().flatten() {
        assert!(
            defs.insert(name.clone(), def.clone()).is_none(),
            "{name} is defined twice"
        );
    }
    for (union, members) in [
        ("ClientRequest", "clientRequests"),
        ("ServerNotification", "serverNotifications"),
    ] {
        let union = defs
            .get_mut(union)
            .and_then(|u| u.get_mut("anyOf"))
            .and_then(Value::as_array_mut)
            .unwrap_or_else(|| panic!("the base has a {union} union"));
        for name in ext[members].as_array().into_iter().flatten() {
            let name = name.as_str().unwrap_or_default();
            union.push(serde_json::json!({ "$ref": format!("#/$defs/{name}") }));
        }
    }
}

/// The two definitions the Skills extension's results take from their revision: on 2026-07-28
/// `skills/list` and `skills/get` are `CacheableResult`s and every result's `resultType` is
/// `"complete"`; 2025-11-25 has neither.
fn skills_base(root: &mut Value, modern: bool) {
    let complete = serde_json::json!({"properties": {"resultType": {"const": "complete"}}});
    let (cacheable, complete) = match modern {
        true => (
            serde_json::json!({"allOf": [{"$ref": "#/$defs/CacheableResult"}, complete]}),
            complete,
        ),
        false => (serde_json::json!({}), serde_json::json!({})),
    };
    let defs = root["$defs"].as_object_mut().expect("the base has $defs");
    defs.insert("ExtSkillsCacheable".into(), cacheable);
    defs.insert("ExtSkillsComplete".into(), complete);
}

/// Adds `extra` to the one `"type": [...]` list of scalar types among the `anyOf` at `pointer`.
fn add_types(root: &mut Value, pointer: &str, extra: &[&str]) {
    let scalars = root
        .pointer_mut(pointer)
        .and_then(Value::as_array_mut)
        .and_then(|items| {
            items
                .iter_mut()
                .find_map(|i| i.get_mut("type")?.as_array_mut())
        })
        .unwrap_or_else(|| panic!("the bundled schema changed at {pointer}: revisit `widen`"));
    for t in extra {
        if !scalars.iter().any(|s| s == t) {
            scalars.push(Value::from(*t));
        }
    }
}
