/// Echoes.
#[rondo_mcp::tool]
async unsafe fn echo(value: String) -> String {
    value
}

fn main() {
    let _ = rondo_mcp::tools![echo];
}
