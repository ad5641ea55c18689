//! Only `not_secret` silences the secret check; names that merely contain a secret's letters
//! pass without it.

use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Settings {
    /// Pin the note to the top
    #[elicit(not_secret)]
    pin: bool,
    /// The ticket's public token, shown on the receipt
    #[elicit(not_secret, rename = "public_token")]
    receipt: String,
    max_tokens: u32,
    pinned: bool,
    spinner: bool,
    tokenizer_options: Option<String>,
    secretary: Option<String>,
}

fn main() {
    assert_eq!(Settings::FIELDS.len(), 7);
}
