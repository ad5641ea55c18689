/// Echoes.
#[rondo_mcp::tool]
async fn echo<T: ToString>(value: T) -> String {
    value.to_string()
}

fn main() {
    let _ = rondo_mcp::tools![echo];
}
