//! `crate = $crate::..`: a wrapper crate's `macro_rules!` names the runtime through its own
//! re-export, on every macro and list. Here the wrapper is this crate, whose root re-exports the
//! runtime as `mcp`; tools with arguments (two in one toolbox) need the schema derive to find
//! the runtime through `$crate` too.

pub use ::rondo_mcp as mcp;

macro_rules! wrapped_server {
    () => {
        /// Echoes.
        #[$crate::mcp::tool(crate = $crate::mcp)]
        async fn echo(cx: &$crate::mcp::Cx, text: String) -> String {
            let _ = cx.revision();
            text
        }

        /// Adds.
        #[$crate::mcp::tool(crate = $crate::mcp, read_only_hint = true)]
        fn add(a: i64, b: i64) -> i64 {
            a + b
        }

        struct Shop;

        #[$crate::mcp::toolbox(crate = $crate::mcp)]
        impl Shop {
            /// Counts the stock of an item.
            #[tool]
            async fn stock(&self, item: String) -> String {
                item
            }

            /// Orders items.
            #[tool]
            async fn order(&self, count: u32) -> u32 {
                count
            }
        }

        /// Greets.
        #[$crate::mcp::prompt(crate = $crate::mcp)]
        fn greeting(name: String) -> String {
            format!("hello {name}")
        }

        /// A note.
        #[$crate::mcp::resource("note://{id}", crate = $crate::mcp)]
        fn note(id: String) -> $crate::mcp::prelude::ResourceContents {
            $crate::mcp::prelude::ResourceContents::text(format!("note://{id}"), "text/plain", id)
        }

        fn router() -> $crate::mcp::Router {
            $crate::mcp::Router::new($crate::mcp::ServerInfo::new("dollar-crate", "1.0.0"))
                .tools($crate::mcp::tools![crate = $crate::mcp; echo, add])
                .tools(Shop)
                .prompts($crate::mcp::prompts![crate = $crate::mcp; greeting])
                .resources($crate::mcp::resources![crate = $crate::mcp; note])
        }
    };
}

wrapped_server!();

fn main() {
    let _ = router();
}
