//! The one driver every attribute macro runs through (CONTRIBUTING.md, "A macro is parse, then
//! model, then expand" and "Errors"): parse the item or say where the attribute goes, parse and
//! model the arguments into one accumulator, then either expand the model or emit the item, a stub
//! and the errors; print the result when asked to. A macro supplies only its pieces, as an
//! [`Attribute`].

use crate::diag::err_at;
use darling::error::Accumulator;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};

/// The pieces of one attribute macro. The driver, [`expand`], calls them in order.
pub trait Attribute {
    /// The attribute's name, for the debug print: `tool`.
    const NAME: &'static str;
    /// The error when the attribute is on the wrong kind of item, at the attribute; it says what
    /// the attribute goes on: ``"`#[tool]` goes on a function: `async fn name(..)`"``.
    const MISPLACED: &'static str;
    /// The item the attribute goes on (`syn::ItemFn`, `syn::ItemImpl`), re-emitted as modelled.
    type Item: ToTokens;
    /// The validated model: what [`Attribute::expand`] reads, and [`Attribute::stub`] too.
    type Model;

    /// Parses the item; `None` when it is not the kind of item the attribute goes on.
    fn item(tokens: TokenStream) -> Option<Self::Item>;

    /// Parses the attribute's arguments and validates them with the item into the model. Every
    /// user error goes to `acc`; helper attributes the macro owns are stripped from `item`.
    fn model(args: TokenStream, item: &mut Self::Item, acc: &mut Accumulator) -> Self::Model;

    /// The expansion of a model without errors; cannot fail.
    fn expand(model: &Self::Model, item: &Self::Item) -> TokenStream;

    /// What goes next to the errors when the model has errors: the item, as close to its expansion
    /// as the errors allow (a function's context still rebound to its questions), and the hidden
    /// type with a stub impl, so that nothing naming the item or asking in it adds a second error
    /// (CONTRIBUTING.md, "Errors").
    fn stub(model: &Self::Model, item: &Self::Item) -> TokenStream;
}

/// Expands `#[A(args)] item`.
pub fn expand<A: Attribute>(args: TokenStream, item: TokenStream) -> TokenStream {
    let Some(mut parsed) = A::item(item.clone()) else {
        let error = err_at(Span::call_site(), A::MISPLACED).write_errors();
        return quote!(#item #error);
    };
    let mut acc = darling::Error::accumulator();
    let model = A::model(args, &mut parsed, &mut acc);
    let out = match acc.finish() {
        Ok(()) => A::expand(&model, &parsed),
        Err(errors) => {
            let (stub, errors) = (A::stub(&model, &parsed), errors.write_errors());
            quote!(#stub #errors)
        }
    };
    debug(A::NAME, &out);
    out
}

/// An attribute on a function: `#[tool]`, `#[prompt]`, `#[resource]` and `#[elicit]`. The item
/// is parsed by [`crate::common::parse_fn`] (a body that does not parse is kept verbatim), and
/// the stub is emitted for a free function only: inside an `impl` block, where the attribute is
/// already an error, a stub struct would be a second one, so the method is emitted as written.
pub trait FnAttribute {
    /// See [`Attribute::NAME`].
    const NAME: &'static str;
    /// See [`Attribute::MISPLACED`].
    const MISPLACED: &'static str;
    /// See [`Attribute::Model`].
    type Model;

    /// See [`Attribute::model`].
    fn model(args: TokenStream, func: &mut syn::ItemFn, acc: &mut Accumulator) -> Self::Model;

    /// See [`Attribute::expand`].
    fn expand(model: &Self::Model, func: &syn::ItemFn) -> TokenStream;

    /// The free function `func` and the hidden type named after it, with a stub impl (see
    /// [`Attribute::stub`]).
    fn stub(model: &Self::Model, func: &syn::ItemFn) -> TokenStream;
}

impl<F: FnAttribute> Attribute for F {
    const NAME: &'static str = F::NAME;
    const MISPLACED: &'static str = F::MISPLACED;
    type Item = syn::ItemFn;
    type Model = F::Model;

    fn item(tokens: TokenStream) -> Option<syn::ItemFn> {
        crate::common::parse_fn(tokens)
    }

    fn model(args: TokenStream, func: &mut syn::ItemFn, acc: &mut Accumulator) -> F::Model {
        F::model(args, func, acc)
    }

    fn expand(model: &F::Model, func: &syn::ItemFn) -> TokenStream {
        F::expand(model, func)
    }

    fn stub(model: &F::Model, func: &syn::ItemFn) -> TokenStream {
        match func.sig.receiver() {
            Some(_) => func.to_token_stream(),
            None => F::stub(model, func),
        }
    }
}

/// Prints an expansion to stderr when `RONDO_MACROS_DEBUG` is set.
pub fn debug(what: &str, tokens: &TokenStream) {
    if std::env::var_os("RONDO_MACROS_DEBUG").is_some() {
        eprintln!("// rondo-mcp-macros: {what}\n{tokens}");
    }
}
