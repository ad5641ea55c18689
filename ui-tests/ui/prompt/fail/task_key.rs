/// Asks for a review.
#[rondo_mcp::prompt(task = optional)]
async fn review(code: String) -> String {
    code
}

fn main() {
    let _ = rondo_mcp::prompts![review];
}
