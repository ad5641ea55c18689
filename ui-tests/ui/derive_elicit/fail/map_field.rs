use rondo_mcp::Elicit;
use std::collections::HashMap;

#[derive(Elicit)]
struct Survey {
    answers: HashMap<String, String>,
}

fn main() {}
