//! A roots question and the tool that asks it, both defined inside `macro_rules!`, the
//! question's name and fallback passed in as fragments.

#![deny(warnings)]

use rondo_mcp::prelude::*;
use rondo_mcp::{roots, tool};

fn configured() -> Roots {
    Roots::from_paths(["/srv/data"])
}

macro_rules! listing_tool {
    ($question:ident, $fallback:path, $tool:ident) => {
        /// The client's roots.
        #[roots(fallback = $fallback)]
        fn $question() -> Roots;

        /// Lists the folders.
        #[tool(asks = [$question])]
        async fn $tool(cx: &Cx) -> String {
            format!("{:?}", cx.ask($question()).await.paths())
        }
    };
}

listing_tool!(workspace, configured, list_folders);

fn main() {
    let _ = rondo_mcp::tools![list_folders];
}
