//! Which names a server may register: a custom method's is in a namespace of its own, never a
//! core method's or a core namespace's; an extension's id has a prefix.
//!
//! A core namespace is one the protocol's methods and notifications live in (`tools/`,
//! `notifications/`, ...): a name there could become a core method in a later revision, and a
//! client would read it as one. `rpc.` is JSON-RPC 2.0's own. The methods of the extensions
//! the protocol defines (`tasks/get`, `skills/list`, `resources/directory/read`) may be
//! registered only by the extension of that id, which is how Rondo registers its own.

use super::ExtensionError;
use crate::protocol::{Method, SKILLS_EXTENSION, TASKS_EXTENSION};

/// The namespaces of the core protocol (and of the extensions it defines).
const CORE_NAMESPACES: [&str; 13] = [
    "tools",
    "prompts",
    "resources",
    "completion",
    "logging",
    "sampling",
    "elicitation",
    "roots",
    "notifications",
    "server",
    "subscriptions",
    "tasks",
    "skills",
];

/// The extension a method of an extension the protocol defines belongs to.
fn defined_by(method: &Method) -> Option<&'static str> {
    if method.is_task_method() {
        Some(TASKS_EXTENSION)
    } else if method.is_skills_method() {
        Some(SKILLS_EXTENSION)
    } else {
        None
    }
}

/// Whether `name` may be registered by the extension `owner` (`None`: a method on its own).
pub(super) fn check_method(name: &str, owner: Option<&str>) -> Result<(), ExtensionError> {
    let method = Method::parse(name);
    if !matches!(method, Method::Other(_)) {
        return match defined_by(&method) {
            Some(id) if owner == Some(id) => Ok(()),
            Some(id) => Err(ExtensionError::ExtensionMethod {
                name: name.to_owned(),
                extension: id,
            }),
            None => Err(ExtensionError::Core {
                name: name.to_owned(),
            }),
        };
    }
    if name.starts_with("rpc.") {
        return Err(ExtensionError::Reserved {
            name: name.to_owned(),
            namespace: "rpc.".to_owned(),
        });
    }
    let Some((namespace, rest)) = name.split_once('/') else {
        return Err(ExtensionError::NoNamespace {
            name: name.to_owned(),
        });
    };
    if namespace.is_empty() || rest.is_empty() {
        return Err(ExtensionError::NoNamespace {
            name: name.to_owned(),
        });
    }
    if CORE_NAMESPACES.contains(&namespace) {
        return Err(ExtensionError::Reserved {
            name: name.to_owned(),
            namespace: format!("{namespace}/"),
        });
    }
    Ok(())
}

/// Whether `id` is an extension id: a prefix, `/`, a name, no spaces.
pub(super) fn check_id(id: &str) -> Result<(), ExtensionError> {
    let well_formed = id
        .split_once('/')
        .is_some_and(|(prefix, name)| !prefix.is_empty() && !name.is_empty())
        && !id.contains(char::is_whitespace);
    if well_formed {
        Ok(())
    } else {
        Err(ExtensionError::BadId { id: id.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_names_and_namespaces_are_refused() {
        for (name, why) in [
            ("tools/call", "core method"),
            ("initialize", "core method"),
            ("ping", "core method"),
            ("tools/search", "namespace `tools/`"),
            ("notifications/acme", "namespace `notifications/`"),
            ("rpc.discover", "namespace `rpc.`"),
            ("reindex", "namespace of its own"),
            ("/reindex", "namespace of its own"),
            ("tasks/get", "io.modelcontextprotocol/tasks"),
            ("skills/list", "io.modelcontextprotocol/skills"),
        ] {
            let e = check_method(name, None).unwrap_err().to_string();
            assert!(e.contains(why), "{name}: {e}");
            assert!(e.contains(name), "{name}: {e}");
        }
        assert!(check_method("tasks/get", Some(SKILLS_EXTENSION)).is_err());
        check_method("tasks/get", Some(TASKS_EXTENSION)).unwrap();
        check_method("resources/directory/read", Some(SKILLS_EXTENSION)).unwrap();
        check_method("acme/reindex", None).unwrap();
        check_method("com.acme.search/reindex", Some("com.acme/search")).unwrap();
    }

    #[test]
    fn an_extension_id_has_a_prefix() {
        check_id("com.acme/echo").unwrap();
        for id in ["echo", "/echo", "com.acme/", "com acme/echo"] {
            assert!(check_id(id).is_err(), "{id}");
        }
    }
}
