use rondo_mcp::{Elicit, Form, elicit};

#[derive(Elicit)]
struct Approval {
    /// Book it?
    approve: bool,
}

#[elicit(form, fallback = arg)]
fn approve() -> Form<Approval> {
    Form::new("Book it?")
}

fn main() {}
