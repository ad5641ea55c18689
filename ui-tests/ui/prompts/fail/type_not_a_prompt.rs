struct Review;

fn main() {
    let _ = rondo_mcp::prompts![Review];
}
