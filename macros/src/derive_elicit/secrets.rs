//! Does a field's name look like a secret? The MCP spec forbids asking for passwords, API keys,
//! access tokens or payment credentials in form mode (DIGEST §3.5), so a form field named like
//! one is refused unless it is marked `#[elicit(not_secret)]`.
//!
//! Names are split into words (at `_`, `-`, any other non-alphanumeric, camelCase humps, acronym
//! ends and letter/digit changes), lower-cased, a plural `s` dropped. A term matches whole
//! words, so `pinned`, `spin`, `spinner`, `secretary` and `tokenizer_options` are not secrets:
//! - one-word terms match a word (`user_pin`, `OTPCode`, `authToken`);
//! - several-word terms match those words in a row or run together (`api_key`, `apiKey`,
//!   `API_KEY`, `apikey`, `cardNumber`);
//! - the unmistakable `password`, `passwd`, `passphrase` and `credential` also match inside a
//!   word (`dbpassword`, `newPasswd`).
//!
//! `token` is not a secret next to a word that makes it a quantity (`max_tokens`,
//! `token_count`): those count a model's tokens.

/// Secret terms, each as its words.
const TERMS: &[&[&str]] = &[
    &["password"],
    &["passwd"],
    &["passphrase"],
    &["passcode"],
    &["secret"],
    &["token"],
    &["credential"],
    &["api", "key"],
    &["access", "key"],
    &["private", "key"],
    &["signing", "key"],
    &["encryption", "key"],
    &["ssh", "key"],
    &["card", "number"],
    &["credit", "card"],
    &["security", "code"],
    &["cvv"],
    &["cvc"],
    &["ssn"],
    &["pin"],
    &["otp"],
    &["totp"],
];

/// Terms that also match inside a longer word.
const INSIDE_WORDS: &[&str] = &["password", "passwd", "passphrase", "credential"];

/// Words that make `token` a count of a model's tokens, not a credential.
const TOKEN_QUANTITIES: &[&str] = &[
    "max", "min", "num", "count", "limit", "budget", "usage", "total",
];

/// The secret term `name` looks like (`"password"`, `"api key"`), if any.
pub fn secret_term(name: &str) -> Option<String> {
    let words = words(name);
    TERMS
        .iter()
        .find(|term| matches(term, &words))
        .map(|term| term.join(" "))
}

/// Whether `term` is in `words` (see the module docs).
fn matches(term: &[&str], words: &[String]) -> bool {
    let joined = term.concat();
    let in_a_row = words
        .windows(term.len())
        .any(|w| w.iter().zip(term).all(|(a, b)| a == b));
    let run_together = words.contains(&joined);
    let inside = INSIDE_WORDS.contains(&joined.as_str())
        && words.iter().any(|w| w.contains(joined.as_str()));
    let quantity =
        joined == "token" && words.iter().any(|w| TOKEN_QUANTITIES.contains(&w.as_str()));
    (in_a_row || run_together || inside) && !quantity
}

/// The words of an identifier or wire name, lower-cased and singular.
pub fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            push(&mut words, &mut word);
            continue;
        }
        if i > 0 && starts_word(chars[i - 1], c, chars.get(i + 1).copied()) {
            push(&mut words, &mut word);
        }
        word.extend(c.to_lowercase());
    }
    push(&mut words, &mut word);
    words
}

/// Whether `c` starts a new word after `prev` (`next` follows it): a camelCase hump (`aK`), the
/// last capital of an acronym before a lower-case letter (`APIKey`), or a change between letters
/// and digits (`cvv2`).
fn starts_word(prev: char, c: char, next: Option<char>) -> bool {
    let hump = prev.is_lowercase() && c.is_uppercase();
    let acronym_end =
        prev.is_uppercase() && c.is_uppercase() && next.is_some_and(char::is_lowercase);
    let digits = prev.is_alphanumeric() && prev.is_numeric() != c.is_numeric();
    hump || acronym_end || digits
}

/// Ends the current word (singular: a trailing `s` dropped from words longer than three letters).
fn push(words: &mut Vec<String>, word: &mut String) {
    if word.is_empty() {
        return;
    }
    let mut w = std::mem::take(word);
    if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") {
        w.pop();
    }
    words.push(w);
}

#[cfg(test)]
mod tests {
    use super::{secret_term, words};

    #[test]
    fn splits_words() {
        assert_eq!(words("db_password"), ["db", "password"]);
        assert_eq!(words("apiKey"), ["api", "key"]);
        assert_eq!(words("APIKey"), ["api", "key"]);
        assert_eq!(words("API_KEY"), ["api", "key"]);
        assert_eq!(words("card-number"), ["card", "number"]);
        assert_eq!(words("cvv2"), ["cvv", "2"]);
        assert_eq!(words("OTPCode"), ["otp", "code"]);
        assert_eq!(words("max_tokens"), ["max", "token"]);
        assert_eq!(words("address"), ["address"]);
    }

    #[test]
    fn finds_secrets() {
        let cases = [
            ("password", "password"),
            ("db_password", "password"),
            ("dbpassword", "password"),
            ("newPasswd", "passwd"),
            ("passphrase", "passphrase"),
            ("client_secret", "secret"),
            ("secrets", "secret"),
            ("auth_token", "token"),
            ("githubToken", "token"),
            ("aws_credentials", "credential"),
            ("apiKey", "api key"),
            ("API_KEY", "api key"),
            ("apikey", "api key"),
            ("x-api-key", "api key"),
            ("access_key_id", "access key"),
            ("privateKey", "private key"),
            ("ssh_keys", "ssh key"),
            ("cardNumber", "card number"),
            ("credit_card", "credit card"),
            ("security_code", "security code"),
            ("cvv2", "cvv"),
            ("CVC", "cvc"),
            ("ssn", "ssn"),
            ("user_pin", "pin"),
            ("PIN", "pin"),
            ("pinCode", "pin"),
            ("otp_code", "otp"),
            ("totp", "totp"),
        ];
        for (name, term) in cases {
            assert_eq!(secret_term(name).as_deref(), Some(term), "{name}");
        }
    }

    #[test]
    fn leaves_ordinary_names() {
        for name in [
            "pinned",
            "spin",
            "spinner",
            "pinpoint",
            "secretary",
            "tokenizer_options",
            "max_tokens",
            "token_count",
            "keyboard",
            "key",
            "sort_key",
            "username",
            "email",
            "passenger",
            "address",
            "compass",
            "card_holder",
            "phone_number",
            "otter",
        ] {
            assert_eq!(secret_term(name), None, "{name}");
        }
    }
}
