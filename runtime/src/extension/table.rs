//! [`Extensions`]: the custom methods and extensions one server serves, by name.

use super::names::{check_id, check_method};
use super::{Call, CustomMethod, Extension, ExtensionError};
use crate::protocol::{JsonObject, Revision, ServerCapabilities};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// Every custom method a server serves, by name, and the extensions they belong to. Filled
/// while the server is built, read by every request of a method the core does not have.
#[derive(Clone, Default)]
pub(crate) struct Extensions {
    methods: HashMap<String, Served>,
    /// The ids registered, with whether a handshake-era session is told of each.
    ids: HashMap<String, bool>,
}

/// One custom method as the engine serves it.
#[derive(Clone)]
pub(crate) struct Served {
    pub call: Arc<dyn Call>,
    /// The extension it belongs to.
    pub extension: Option<Arc<str>>,
    /// Served only to clients that declared the extension (`-32021` otherwise).
    pub client_must_declare: bool,
    /// Served to sessions of the handshake revisions too.
    pub handshake: bool,
}

impl Extensions {
    /// The method `name`, when it is served at `revision`.
    pub(crate) fn get(&self, name: &str, revision: Revision) -> Option<&Served> {
        self.methods
            .get(name)
            .filter(|s| s.handshake || revision.is_modern())
    }

    /// Whether an `initialize` declares the extension `id` (the ids no extension registered,
    /// declared by hand with [`ServerInfo`](crate::ServerInfo), are declared).
    pub(crate) fn declared_in_handshake(&self, id: &str) -> bool {
        self.ids.get(id).copied().unwrap_or(true)
    }

    /// The extensions of `extensions` an `initialize` declares.
    pub(crate) fn handshake_view(&self, extensions: &mut Option<JsonObject>) {
        if let Some(e) = extensions {
            e.retain(|id, _| self.declared_in_handshake(id));
            if e.is_empty() {
                *extensions = None;
            }
        }
    }

    /// Registers a method on its own.
    pub(crate) fn add_method(&mut self, method: CustomMethod) -> Result<(), ExtensionError> {
        check_method(&method.name, None)?;
        self.free(&method.name)?;
        self.methods.insert(
            method.name,
            Served {
                call: method.call,
                extension: None,
                client_must_declare: false,
                handshake: true,
            },
        );
        Ok(())
    }

    /// Registers an extension and its methods (all or none), and declares it in `caps`.
    pub(crate) fn add_extension(
        &mut self,
        ext: Extension,
        caps: &mut ServerCapabilities,
    ) -> Result<(), ExtensionError> {
        check_id(&ext.id)?;
        if self.ids.contains_key(&ext.id) {
            return Err(ExtensionError::Taken { name: ext.id });
        }
        let mut seen = Vec::with_capacity(ext.methods.len());
        for m in &ext.methods {
            check_method(&m.name, Some(&ext.id))?;
            self.free(&m.name)?;
            if seen.contains(&m.name.as_str()) {
                return Err(ExtensionError::Taken {
                    name: m.name.clone(),
                });
            }
            seen.push(&m.name);
        }
        let id: Arc<str> = Arc::from(ext.id.as_str());
        for m in ext.methods {
            let served = Served {
                call: m.call,
                extension: Some(id.clone()),
                client_must_declare: ext.client_must_declare,
                handshake: ext.handshake,
            };
            self.methods.insert(m.name, served);
        }
        caps.extensions
            .get_or_insert_with(Default::default)
            .insert(ext.id.clone(), Value::Object(ext.settings));
        self.ids.insert(ext.id, ext.handshake);
        Ok(())
    }

    fn free(&self, name: &str) -> Result<(), ExtensionError> {
        if self.methods.contains_key(name) {
            Err(ExtensionError::Taken {
                name: name.to_owned(),
            })
        } else {
            Ok(())
        }
    }
}
