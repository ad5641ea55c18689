use rondo_mcp::{Elicit, Form, elicit};

#[derive(Elicit)]
struct Approval {
    /// Book it?
    approve: bool,
}

#[elicit(form, fallback = refuse)]
fn approve(#[arg(description = "The item")] item: &str) -> Form<Approval> {
    Form::new(format!("Book {item}?"))
}

fn main() {}
