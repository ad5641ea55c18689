use rondo_mcp::{Elicit, Form, elicit};

#[derive(Elicit)]
struct Approval {
    /// Book it?
    approve: bool,
}

#[elicit(form, fallback = refuse)]
fn approve<T: std::fmt::Display>(item: T) -> Form<Approval> {
    Form::new(format!("Book {item}?"))
}

fn main() {}
