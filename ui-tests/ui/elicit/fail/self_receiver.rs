use rondo_mcp::{Elicit, Form, elicit};

#[derive(Elicit)]
struct Approval {
    /// Book it?
    approve: bool,
}

struct Shop;

impl Shop {
    #[elicit(form, fallback = refuse)]
    fn approve(&self) -> Form<Approval> {
        Form::new("Book it?")
    }
}

fn main() {}
