//! Every macro inside `macro_rules!`, fed identifiers, literals, types and expressions as
//! fragments (which reach the macros wrapped in invisible groups).

use rondo_mcp::prelude::*;

macro_rules! echo_tool {
    ($name:ident, $wire:literal, $desc:literal, $cx:ty, $arg:ident: $ty:ty, $hint:expr) => {
        #[doc = $desc]
        #[rondo_mcp::tool(name = $wire, read_only_hint = $hint)]
        async fn $name(_cx: $cx, #[arg(description = $desc)] $arg: $ty) -> $ty {
            $arg
        }
    };
}

echo_tool!(echo_text, "echo.text", "Echoes text.", &Cx, text: String, true);
echo_tool!(echo_number, "echo.number", "Echoes a number.", &rondo_mcp::Cx, n: i64, false);

macro_rules! shop {
    ($ty:ident, $method:ident) => {
        struct $ty;

        #[rondo_mcp::toolbox]
        impl $ty {
            /// Counts the stock.
            #[tool]
            async fn $method(&self) -> u32 {
                3
            }
        }
    };
}

shop!(Shop, stock);

macro_rules! prompt_and_resource {
    ($prompt:ident, $resource:ident, $uri:literal) => {
        /// Greets.
        #[rondo_mcp::prompt]
        fn $prompt(name: String) -> String {
            format!("hello {name}")
        }

        /// A note.
        #[rondo_mcp::resource($uri)]
        fn $resource(id: String) -> ResourceContents {
            ResourceContents::text(format!("note://{id}"), "text/plain", id)
        }
    };
}

prompt_and_resource!(greeting, note, "note://{id}");

macro_rules! router {
    ($($tool:path),*) => {
        Router::new(ServerInfo::new("macro-rules", "1.0.0"))
            .tools(rondo_mcp::tools![$($tool),*])
            .tools(Shop)
            .prompts(rondo_mcp::prompts![greeting])
            .resources(rondo_mcp::resources![note])
    };
}

fn main() {
    let _ = router!(echo_text, echo_number);
}
