use rondo_mcp::{Elicit, Form, sample};

#[derive(Elicit)]
struct Approval {
    /// Go ahead?
    approve: bool,
}

#[sample(fallback = refuse)]
fn approve(item: &str) -> Form<Approval> {
    Form::new(format!("Go ahead with {item}?"))
}

fn main() {}
