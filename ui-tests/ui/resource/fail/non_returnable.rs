/// A note.
#[rondo_mcp::resource("note://welcome")]
async fn welcome() -> String {
    "hi".to_owned()
}

fn main() {
    let _ = rondo_mcp::resources![welcome];
}
