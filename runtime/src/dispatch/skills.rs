//! The Skills extension (SEP-2640) as an [`Extension`] built with the public API, at every
//! revision: `skills/list` and `skills/get` when the server declares the extension,
//! `resources/directory/read` when it declares `directoryRead: true` (`-32601` otherwise, as
//! for any method the server did not declare). `skills/list` and `skills/get` are cacheable
//! (`ttlMs`/`cacheScope` on 2026-07-28), a directory read is a plain paged result. The engine
//! registers it when the handler declares the extension (`custom::built_in`); the handler
//! serves the entries ([`Handler::list_skills`] and the others).

use super::methods::page_result;
use crate::cx::Cx;
use crate::extension::{CustomMethod, Extension};
use crate::handler::Handler;
use crate::protocol::{Cursor, GetSkillResult, JsonObject, SKILLS_EXTENSION, cursor};
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;

/// The params of `skills/list`: the cursor.
#[derive(Deserialize)]
#[serde(try_from = "JsonObject")]
struct Paged(Option<Cursor>);

/// The params of `skills/get`: the `uri` of a skill's `SKILL.md`.
#[derive(Deserialize)]
#[serde(try_from = "JsonObject")]
struct SkillUri(String);

/// The params of `resources/directory/read`: the directory's `uri`, and the cursor.
#[derive(Deserialize)]
#[serde(try_from = "JsonObject")]
struct Directory(String, Option<Cursor>);

impl TryFrom<JsonObject> for Paged {
    type Error = String;
    fn try_from(obj: JsonObject) -> Result<Self, String> {
        cursor(Some(obj)).map(Paged).map_err(|e| e.message)
    }
}

impl TryFrom<JsonObject> for SkillUri {
    type Error = String;
    fn try_from(obj: JsonObject) -> Result<Self, String> {
        uri(&obj).map(SkillUri)
    }
}

impl TryFrom<JsonObject> for Directory {
    type Error = String;
    fn try_from(obj: JsonObject) -> Result<Self, String> {
        let uri = uri(&obj)?;
        let cursor = cursor(Some(obj)).map_err(|e| e.message)?;
        Ok(Directory(uri, cursor))
    }
}

/// The required `uri`.
fn uri(obj: &JsonObject) -> Result<String, String> {
    match obj.get("uri") {
        Some(Value::String(uri)) => Ok(uri.clone()),
        _ => Err("`uri` must be a string".to_owned()),
    }
}

/// The Skills extension with `settings` as the server info declares them, served by `h`.
pub(super) fn extension<H: Handler>(h: Arc<H>, settings: JsonObject) -> Extension {
    let directory_read = settings.get("directoryRead") == Some(&Value::Bool(true));
    let (list, get, dir) = (h.clone(), h.clone(), h);
    let ext = Extension::new(SKILLS_EXTENSION)
        .settings(settings)
        .method(CustomMethod::new(
            "skills/list",
            move |cx: &Cx, p: Paged| {
                let h = list.clone();
                Box::pin(async move {
                    let page = h.list_skills(cx, p.0.as_ref()).await?;
                    page_result(page, "skills", cx.revision())
                })
            },
        ))
        .method(CustomMethod::new(
            "skills/get",
            move |cx: &Cx, p: SkillUri| {
                let h = get.clone();
                Box::pin(async move {
                    let skill = h.get_skill(cx, &p.0).await?;
                    Ok(GetSkillResult { skill })
                })
            },
        ));
    if !directory_read {
        return ext;
    }
    ext.method(CustomMethod::new(
        "resources/directory/read",
        move |cx: &Cx, p: Directory| {
            let h = dir.clone();
            Box::pin(async move {
                let page = h.read_directory(cx, &p.0, p.1.as_ref()).await?;
                page_result(page, "resources", cx.revision())
            })
        },
    ))
}
