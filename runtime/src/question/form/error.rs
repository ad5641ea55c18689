//! Why an answer does not fit a form: every problem, by field.

use crate::protocol::echo;
use serde_json::{Number, Value};
use std::fmt;

/// Why an accepted form's `content` does not fit the form. It names every problem, each with the
/// field's wire name; its `Display` is one readable sentence (for a log, an `isError` result the
/// model reads, or a failure on 2025-11-25).
#[derive(Debug, Clone, PartialEq)]
pub struct FormError {
    /// The problems, in field declaration order; never empty.
    problems: Vec<FieldError>,
}

impl FormError {
    /// A form error made of `problems` (which should not be empty).
    pub fn new(problems: Vec<FieldError>) -> Self {
        FormError { problems }
    }

    /// Every problem, in field declaration order.
    pub fn problems(&self) -> &[FieldError] {
        &self.problems
    }

    /// The wire names of the required fields the answer left out.
    pub fn missing(&self) -> impl Iterator<Item = &str> {
        self.problems
            .iter()
            .filter(|p| p.problem == FieldProblem::Missing)
            .map(|p| p.field.as_str())
    }
}

impl fmt::Display for FormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the answer does not fit the form: ")?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for FormError {}

/// One field's problem.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    /// The field's name on the wire.
    pub field: String,
    /// What is wrong with it.
    pub problem: FieldProblem,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` {}", self.field, self.problem)
    }
}

/// What is wrong with one field of an answer. `Display` completes a sentence that starts with
/// the field's name: "`age` must be at least 18, not 12".
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum FieldProblem {
    /// A required field is absent (or `null`).
    Missing,
    /// The value has the wrong JSON type.
    WrongType {
        /// What the field takes: "a string", "an integer", ...
        expected: &'static str,
        /// What came: "a string", "a number with a fraction", ...
        found: &'static str,
    },
    /// A number below the field's minimum (its own, or its Rust type's).
    TooSmall {
        /// The smallest value allowed.
        minimum: Number,
        /// The value given.
        found: Number,
    },
    /// A number above the field's maximum (its own, or its Rust type's).
    TooLarge {
        /// The largest value allowed.
        maximum: Number,
        /// The value given.
        found: Number,
    },
    /// An integer written as a floating-point number too large for a float to hold exactly
    /// (beyond ±(2^53 − 1)): the integer the client meant cannot be known, so it is not read.
    Inexact {
        /// The value given.
        found: Number,
    },
    /// A string shorter than `min_length` characters.
    TooShort {
        /// The fewest characters allowed.
        min_length: u64,
        /// How many characters came.
        found: u64,
    },
    /// A string longer than `max_length` characters.
    TooLong {
        /// The most characters allowed.
        max_length: u64,
        /// How many characters came.
        found: u64,
    },
    /// A string that does not have the field's `format`.
    BadFormat {
        /// The format it must have.
        format: StringFormat,
    },
    /// A value (or a multi-select item) that is not one of the field's options.
    NotAnOption {
        /// The value given.
        found: String,
        /// The options' wire values.
        options: Vec<&'static str>,
    },
    /// A multi-select with fewer than `min_items` items.
    TooFewItems {
        /// The fewest items allowed.
        min_items: u64,
        /// How many came.
        found: u64,
    },
    /// A multi-select with more than `max_items` items.
    TooManyItems {
        /// The most items allowed.
        max_items: u64,
        /// How many came.
        found: u64,
    },
}

impl fmt::Display for FieldProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FieldProblem::*;
        match self {
            Missing => f.write_str("is required but missing"),
            WrongType { expected, found } => write!(f, "must be {expected}, not {found}"),
            TooSmall { minimum, found } => write!(f, "must be at least {minimum}, not {found}"),
            TooLarge { maximum, found } => write!(f, "must be at most {maximum}, not {found}"),
            Inexact { found } => write!(
                f,
                "must be an integer written exactly, not {found}: a number written as a \
                 float holds an integer exactly only up to 9007199254740991 (2^53 - 1)"
            ),
            TooShort { min_length, found } => {
                write!(
                    f,
                    "must be at least {} long, not {found}",
                    chars(*min_length)
                )
            }
            TooLong { max_length, found } => {
                write!(
                    f,
                    "must be at most {} long, not {found}",
                    chars(*max_length)
                )
            }
            BadFormat { format } => write!(f, "must be {}", format.described()),
            NotAnOption { found, options } => {
                let options: Vec<String> = options.iter().map(|o| format!("`{o}`")).collect();
                let found = echo(found);
                write!(f, "must be one of {}, not `{found}`", options.join(", "))
            }
            TooFewItems { min_items, found } => {
                write!(f, "must have at least {}, not {found}", items(*min_items))
            }
            TooManyItems { max_items, found } => {
                write!(f, "must have at most {}, not {found}", items(*max_items))
            }
        }
    }
}

/// "1 character", "3 characters".
fn chars(n: u64) -> String {
    format!("{n} character{}", if n == 1 { "" } else { "s" })
}

/// "1 item", "3 items".
fn items(n: u64) -> String {
    format!("{n} item{}", if n == 1 { "" } else { "s" })
}

/// A string field's `format` (the four the MCP form schema allows).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StringFormat {
    /// `email`: checked loosely, `local@domain.tld`.
    Email,
    /// `uri`: checked loosely, a scheme (`https:`, `mailto:`) and more.
    Uri,
    /// `date`: `YYYY-MM-DD`, a real calendar day.
    Date,
    /// `date-time`: RFC 3339, `YYYY-MM-DDTHH:MM:SS` with optional fraction and a zone.
    DateTime,
}

impl StringFormat {
    /// The name in the schema.
    pub const fn as_str(self) -> &'static str {
        match self {
            StringFormat::Email => "email",
            StringFormat::Uri => "uri",
            StringFormat::Date => "date",
            StringFormat::DateTime => "date-time",
        }
    }

    /// What a value must be, for messages.
    fn described(self) -> &'static str {
        match self {
            StringFormat::Email => "an email address",
            StringFormat::Uri => "a URI with a scheme, such as `https://example.com`",
            StringFormat::Date => "a date written YYYY-MM-DD",
            StringFormat::DateTime => {
                "a date and time in RFC 3339 form, such as `2026-07-28T09:30:00Z`"
            }
        }
    }
}

/// How a JSON value is described in a [`FieldProblem::WrongType`].
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() && n.as_f64().is_some_and(|f| f.fract() != 0.0) => {
            "a number with a fraction"
        }
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
