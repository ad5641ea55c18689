use rondo_mcp::{Answer, Elicit, Form, elicit};

#[derive(Elicit)]
struct Approval {
    /// Book it?
    approve: bool,
}

#[elicit(form, fallback = decline_approvl)]
fn approve() -> Form<Approval> {
    Form::new("Book it?")
}

fn decline_approval() -> Answer<Approval> {
    Answer::Decline
}

fn main() {}
