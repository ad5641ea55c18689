struct Welcome;

fn main() {
    let _ = rondo_mcp::resources![Welcome];
}
