//! Typed questions. `form`: forms from types (`#[derive(Elicit)]`).

pub mod form;

pub use form::{Elicit, ElicitEnum, FormError, FormField};
