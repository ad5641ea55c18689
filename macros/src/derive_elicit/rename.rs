//! `rename_all` rules, as serde applies them (serde-rs/serde `serde_derive/src/internals/case.rs`),
//! so `#[serde(rename_all = "..")]` names a form's fields and options exactly as serde would.

/// A `rename_all` rule.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Rule {
    /// `lowercase`.
    Lower,
    /// `UPPERCASE`.
    Upper,
    /// `PascalCase`.
    Pascal,
    /// `camelCase`.
    Camel,
    /// `snake_case`.
    Snake,
    /// `SCREAMING_SNAKE_CASE`.
    ScreamingSnake,
    /// `kebab-case`.
    Kebab,
    /// `SCREAMING-KEBAB-CASE`.
    ScreamingKebab,
}

/// The rules by name, as serde spells them.
pub const RULES: &[(&str, Rule)] = &[
    ("lowercase", Rule::Lower),
    ("UPPERCASE", Rule::Upper),
    ("PascalCase", Rule::Pascal),
    ("camelCase", Rule::Camel),
    ("snake_case", Rule::Snake),
    ("SCREAMING_SNAKE_CASE", Rule::ScreamingSnake),
    ("kebab-case", Rule::Kebab),
    ("SCREAMING-KEBAB-CASE", Rule::ScreamingKebab),
];

impl Rule {
    /// The rule named `name`.
    pub fn from_name(name: &str) -> Option<Rule> {
        RULES.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
    }

    /// Renames a struct field (written in `snake_case`).
    pub fn field(self, field: &str) -> String {
        match self {
            Rule::Lower | Rule::Snake => field.to_owned(),
            Rule::Upper | Rule::ScreamingSnake => field.to_ascii_uppercase(),
            Rule::Pascal => pascal(field),
            Rule::Camel => lower_first(&pascal(field)),
            Rule::Kebab => field.replace('_', "-"),
            Rule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }

    /// Renames an enum variant (written in `PascalCase`).
    pub fn variant(self, variant: &str) -> String {
        match self {
            Rule::Lower => variant.to_ascii_lowercase(),
            Rule::Upper => variant.to_ascii_uppercase(),
            Rule::Pascal => variant.to_owned(),
            Rule::Camel => lower_first(variant),
            Rule::Snake => snake(variant),
            Rule::ScreamingSnake => snake(variant).to_ascii_uppercase(),
            Rule::Kebab => snake(variant).replace('_', "-"),
            Rule::ScreamingKebab => snake(variant).to_ascii_uppercase().replace('_', "-"),
        }
    }
}

/// `first_name` -> `FirstName`.
fn pascal(field: &str) -> String {
    let mut out = String::new();
    let mut capitalize = true;
    for c in field.chars() {
        if c == '_' {
            capitalize = true;
        } else if capitalize {
            out.push(c.to_ascii_uppercase());
            capitalize = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `FirstName` -> `firstName`.
fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_ascii_lowercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// `WindowSeat` -> `window_seat`.
fn snake(variant: &str) -> String {
    let mut out = String::new();
    for (i, c) in variant.char_indices() {
        if i > 0 && c.is_uppercase() {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::RULES;

    /// `rename` under every rule, in the order of [`RULES`].
    fn all(rename: impl Fn(super::Rule) -> String) -> Vec<String> {
        RULES.iter().map(|(_, r)| rename(*r)).collect()
    }

    #[test]
    fn fields_as_serde() {
        assert_eq!(
            all(|r| r.field("first_name")),
            [
                "first_name",
                "FIRST_NAME",
                "FirstName",
                "firstName",
                "first_name",
                "FIRST_NAME",
                "first-name",
                "FIRST-NAME"
            ]
        );
    }

    #[test]
    fn variants_as_serde() {
        assert_eq!(
            all(|r| r.variant("WindowSeat")),
            [
                "windowseat",
                "WINDOWSEAT",
                "WindowSeat",
                "windowSeat",
                "window_seat",
                "WINDOW_SEAT",
                "window-seat",
                "WINDOW-SEAT"
            ]
        );
    }
}
