//! `guarded`: a Rondo MCP server behind three tower layers, the middleware an operator puts
//! around tools (the guide's `middleware` page walks through them):
//!
//! - [`Audit`]: one line per tool call, with who called it and how it ended;
//! - [`RateLimit`]: so many calls per principal, answered with a clear error past it;
//! - [`Policy`]: tools only some principals may call, refused before they run.
//!
//! The tools are a small notebook ([`Notebook`]): read, write, and purge (the one the policy
//! keeps for administrators).

pub mod audit;
pub mod policy;
pub mod rate_limit;
pub mod refuse;

pub use audit::{Audit, AuditRecord, Outcome};
/// The rate limit's quota type, from `governor`.
pub use governor::Quota;
pub use policy::Policy;
pub use rate_limit::RateLimit;

use rondo_mcp::prelude::*;
use rondo_mcp::toolbox;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// The error code the layers answer with when they refuse a request: JSON-RPC's range for a
/// server's own errors (-32000 to -32099), which MCP leaves to servers. The error's `data`
/// says which layer and why (`{"refused": "rate_limit", "retryAfterMs": ..}`).
pub const REFUSED: i64 = -32000;

/// Notes by title, shared by every principal.
#[derive(Default)]
pub struct Notebook {
    notes: Mutex<BTreeMap<String, String>>,
}

impl Notebook {
    fn notes(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, String>> {
        self.notes.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[toolbox]
impl Notebook {
    /// Reads the note with this title.
    #[tool(read_only_hint = true)]
    async fn read_note(
        &self,
        #[arg(description = "The note's title")] title: String,
    ) -> Result<String, String> {
        self.notes()
            .get(&title)
            .cloned()
            .ok_or_else(|| format!("No note titled {title:?}."))
    }

    /// Writes a note, replacing the one with the same title. Signed by whoever writes it.
    #[tool(idempotent_hint = true)]
    async fn write_note(
        &self,
        cx: &Cx,
        #[arg(description = "The note's title")] title: String,
        #[arg(description = "What it says")] text: String,
    ) -> String {
        let by = cx.principal().map_or("someone", |p| p.id());
        self.notes().insert(title.clone(), format!("{text} ({by})"));
        format!("Saved {title:?}.")
    }

    /// Deletes every note.
    #[tool(destructive_hint = true)]
    async fn purge_notes(&self) -> String {
        let gone = std::mem::take(&mut *self.notes()).len();
        format!("Deleted {gone} notes.")
    }
}

/// The server's tools.
pub fn router() -> Router {
    let info = ServerInfo::new("guarded", env!("CARGO_PKG_VERSION")).instructions(
        "A notebook: `read_note`, `write_note`, and `purge_notes` for administrators.",
    );
    Router::new(info).tools(Notebook::default())
}
