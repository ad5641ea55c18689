//! `crate = $crate::..` on `#[sample]` and `#[roots]`: a wrapper crate's `macro_rules!` names
//! the runtime through its own re-export (here this crate's root re-exports it as `mcp`).

#![deny(warnings)]

pub use ::rondo_mcp as mcp;

macro_rules! wrapped_questions {
    () => {
        /// Asks the client's model.
        #[$crate::mcp::sample(fallback = refuse, crate = $crate::mcp)]
        fn capital(country: &str) -> $crate::mcp::Sample {
            $crate::mcp::Sample::user(format!("What is the capital of {country}?"))
        }

        /// The client's roots.
        #[$crate::mcp::roots(fallback = refuse, crate = $crate::mcp)]
        fn workspace() -> $crate::mcp::Roots;

        /// Acts after asking.
        #[$crate::mcp::tool(asks = [capital, workspace], crate = $crate::mcp)]
        async fn act(cx: &$crate::mcp::Cx, country: String) -> String {
            let folders = cx.ask(workspace()).await;
            format!("{} {:?}", cx.ask(capital(&country)).await, folders.paths())
        }

        fn router() -> $crate::mcp::Router {
            $crate::mcp::Router::new($crate::mcp::ServerInfo::new("dollar-crate", "1.0.0"))
                .tools($crate::mcp::tools![crate = $crate::mcp; act])
        }
    };
}

wrapped_questions!();

fn main() {
    let _ = router();
}
