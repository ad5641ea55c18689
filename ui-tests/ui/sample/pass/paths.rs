//! `#[sample]` and `#[roots]` questions used from other modules: through a path and under a
//! `use .. as ..` rename, in `asks = [..]` and in the asks themselves.

#![deny(warnings)]

use rondo_mcp::prelude::*;
use rondo_mcp::tool;

mod travel {
    pub mod questions {
        use rondo_mcp::{Roots, Sample, roots, sample};

        /// Asks the client's model for a destination.
        #[sample(fallback = refuse)]
        pub fn destination(budget: u32) -> Sample {
            Sample::user(format!("Where can I go for {budget} EUR?"))
        }

        /// The folders holding the bookings.
        #[roots(fallback = refuse)]
        pub fn bookings() -> Roots;
    }
}

use travel::questions::bookings as booking_folders;
use travel::questions::destination as suggest;

/// Through paths.
#[tool(asks = [travel::questions::destination, travel::questions::bookings])]
async fn plan(cx: &Cx, budget: u32) -> String {
    let folders = cx.ask(travel::questions::bookings()).await;
    format!(
        "{} {:?}",
        cx.ask(travel::questions::destination(budget)).await,
        folders.paths()
    )
}

/// Through renamed imports.
#[tool(asks = [suggest, booking_folders])]
async fn replan(cx: &Cx, budget: u32) -> String {
    let folders = cx.ask(booking_folders()).await;
    format!("{} {:?}", cx.ask(suggest(budget)).await, folders.paths())
}

fn main() {
    let _ = Router::new(ServerInfo::new("paths", "1.0.0")).tools(rondo_mcp::tools![plan, replan]);
}
