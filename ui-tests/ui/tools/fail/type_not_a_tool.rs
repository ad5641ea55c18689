struct Search;

fn main() {
    let _ = rondo_mcp::tools![Search];
}
