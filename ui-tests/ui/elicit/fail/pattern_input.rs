use rondo_mcp::{Elicit, Form, elicit};

#[derive(Elicit)]
struct Approval {
    /// Book it?
    approve: bool,
}

#[elicit(form, fallback = refuse)]
fn approve((from, to): (u32, u32)) -> Form<Approval> {
    Form::new(format!("Book {from} to {to}?"))
}

fn main() {}
