use rondo_mcp::{Elicit, Form, elicit};

#[derive(Elicit)]
struct Note {
    /// A note
    text: String,
}

#[elicit(form, fallback = default_note)]
fn note(name: &str) -> Form<Note> {
    Form::new(format!("A note for {name}?"))
}

fn default_note() -> rondo_mcp::Answer<Note> {
    rondo_mcp::Answer::Accept(Note { text: String::new() })
}

fn main() {}
