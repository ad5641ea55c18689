//! Error helpers: spanned messages, and code as the user wrote it for quoting in them.

use proc_macro2::Span;
use quote::ToTokens;
use syn::spanned::Spanned;

/// An error at `span`.
pub fn err_at(span: Span, msg: impl std::fmt::Display) -> darling::Error {
    darling::Error::custom(msg).with_span(&span)
}

/// An error at a syntax node (its first token, on stable).
pub fn err_on(node: &impl Spanned, msg: impl std::fmt::Display) -> darling::Error {
    err_at(node.span(), msg)
}

/// Code as written, without the spaces token printing adds: `travel::confirm`, `r#type`.
pub fn written(node: &impl ToTokens) -> String {
    node.to_token_stream().to_string().replace(' ', "")
}
