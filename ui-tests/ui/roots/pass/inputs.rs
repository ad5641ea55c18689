//! `#[roots]` questions with no inputs and with inputs, `pub` and documented, and their
//! fallbacks: folders from an input, from the server's configuration (`async`), `Fallback::fail`
//! when there are none, `Fallback::Refuse`, and `fallback = refuse`; an input that is not `Clone`.

#![deny(warnings)]

use rondo_mcp::prelude::*;
use rondo_mcp::{Fallback, roots, tool};

/// The folders to search: the client's roots, or the ones the caller passed.
#[roots(fallback = given_folders)]
pub fn workspace(folders: &[String]) -> Roots;

/// Folders from the tool's argument; none is an error saying how to give them.
pub fn given_folders(folders: &[String]) -> Fallback<Roots> {
    if folders.is_empty() {
        return Fallback::fail("No folder to search: pass `folders` with the folders to use.");
    }
    Fallback::Answer(Roots::from_paths(folders))
}

/// The client's roots, or the server's configured folders.
#[roots(fallback = configured)]
pub(crate) fn project() -> Roots;

/// Reads the configuration.
async fn configured() -> Roots {
    Roots::from_paths(["/srv/projects"])
}

/// The client's roots under a prefix, or refuse.
#[roots(fallback = no_roots)]
fn under(prefix: &str, depth: u32) -> Roots;

fn no_roots(_prefix: &str, _depth: u32) -> Fallback<Roots> {
    Fallback::Refuse
}

/// Roots or nothing.
#[roots(fallback = refuse)]
fn required() -> Roots;

/// The server's configuration, which is not `Clone`: a roots question renders nothing from its
/// inputs, so only the fallback reads them, and gets the value itself.
struct Config {
    folders: Vec<String>,
}

/// The client's roots, or the configured folders.
#[roots(fallback = from_config)]
fn configured_roots(config: Config) -> Roots;

fn from_config(config: Config) -> Roots {
    Roots::from_paths(config.folders)
}

/// Lists the folders it would search.
#[tool(asks = [workspace, project, under, required, configured_roots])]
async fn search_folders(cx: &Cx, folders: Vec<String>) -> String {
    let a = cx.ask(workspace(&folders)).await;
    let b = cx.ask(project()).await;
    let c = cx.ask(under("/home", 2)).await;
    let d = cx.ask(required()).await;
    let _ = cx.ask(configured_roots(Config { folders })).await;
    format!(
        "{:?} {:?} {:?} {}",
        a.paths(),
        b.roots(),
        c.is_empty(),
        d.paths().len()
    )
}

fn main() {
    let _ = rondo_mcp::tools![search_folders];
}
