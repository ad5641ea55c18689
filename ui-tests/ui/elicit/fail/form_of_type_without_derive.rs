use rondo_mcp::{Form, elicit};

// The fields of a form come from `#[derive(Elicit)]`; a plain struct is not a form.
struct Approval {
    approve: bool,
}

#[elicit(form, fallback = refuse)]
fn approve() -> Form<Approval> {
    Form::new("Book it?")
}

fn main() {}
