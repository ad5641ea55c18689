//! Error helpers: spanned messages, and code as the user wrote it for quoting in them.

use proc_macro2::{Group, Span, TokenStream, TokenTree};
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

/// `tokens` with every span located at `span`, each token keeping its name resolution (so
/// `$crate` and mixed-site locals still resolve): rustc reports an expression's error at the
/// join of its tokens' spans, so a check meant for the user's token is wholly located there.
pub fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    map_spans(tokens, &|tt| tt.span().located_at(span))
}

/// `tokens` written at `span`, as if the user had written them there: rustc then reports an
/// error about them there, with no note about the macro's expansion. For tokens that resolve
/// the same from anywhere (absolute paths, keywords, the user's own names); `$crate` keeps its
/// resolution. Locals of the expansion need [`respan`].
pub fn spanned_at(tokens: TokenStream, span: Span) -> TokenStream {
    map_spans(tokens, &|tt| match tt {
        TokenTree::Ident(i) if i == "$crate" => i.span().located_at(span),
        _ => span,
    })
}

/// `tokens` with each token's span (a group's too) replaced by `f` of the token.
fn map_spans(tokens: TokenStream, f: &dyn Fn(&TokenTree) -> Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|tt| {
            let span = f(&tt);
            let mut tt = match tt {
                TokenTree::Group(g) => {
                    TokenTree::Group(Group::new(g.delimiter(), map_spans(g.stream(), f)))
                }
                other => other,
            };
            tt.set_span(span);
            tt
        })
        .collect()
}
