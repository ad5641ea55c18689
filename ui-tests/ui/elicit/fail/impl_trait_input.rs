use rondo_mcp::{Elicit, Form, elicit};

#[derive(Elicit)]
struct Approval {
    /// Book it?
    approve: bool,
}

#[elicit(form, fallback = refuse)]
fn approve(item: impl std::fmt::Display) -> Form<Approval> {
    Form::new(format!("Book {item}?"))
}

fn main() {}
