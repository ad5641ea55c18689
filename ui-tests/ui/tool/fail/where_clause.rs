/// Echoes.
#[rondo_mcp::tool]
async fn echo(value: String) -> String
where
    String: Clone,
{
    value
}

fn main() {
    let _ = rondo_mcp::tools![echo];
}
