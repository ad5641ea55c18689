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

async fn default_note(name: &str) -> Note {
    Note { text: name.to_owned() }
}

fn main() {}
