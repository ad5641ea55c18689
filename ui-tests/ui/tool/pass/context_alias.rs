//! The context is recognised by position and checked by trait, so an alias works.

type Ctx = rondo_mcp::Cx;

/// Reports the protocol revision.
#[rondo_mcp::tool]
async fn revision(cx: &Ctx) -> String {
    format!("{:?}", cx.revision())
}

fn main() {
    let _ = rondo_mcp::tools![revision];
}
