use rondo_mcp::{Elicit, Form, elicit};

#[derive(Elicit)]
struct Approval {
    /// Book it?
    approve: bool,
}

struct Package {
    name: String,
}

#[elicit(form, fallback = refuse)]
fn approve(pkg: Package) -> Form<Approval> {
    Form::new(format!("Book {}?", pkg.name))
}

fn main() {}
