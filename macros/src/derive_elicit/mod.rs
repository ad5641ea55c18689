//! `#[derive(Elicit)]`: a struct becomes a form (`Elicit`), a unit enum the options of a choice
//! (`ElicitEnum` + `FormField`).

pub mod expand;
pub mod model;
pub mod parse;
pub mod rename;
pub mod secrets;
pub mod values;

use proc_macro2::TokenStream;
use quote::quote;

/// Expands `#[derive(Elicit)]` on `input`.
pub fn expand(input: TokenStream) -> TokenStream {
    let input: syn::DeriveInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(e) => return e.to_compile_error(),
    };
    let (ident, generics) = (input.ident.clone(), input.generics.clone());
    let is_enum = matches!(input.data, syn::Data::Enum(_));
    let mut acc = darling::Error::accumulator();
    let args = parse::parse(input, &mut acc);
    let (krate, derived) = model::model(args, &mut acc);
    let out = match (acc.finish(), derived) {
        (Ok(()), Some(derived)) => expand::expand(&derived),
        (result, _) => {
            let errors = result.err().map(darling::Error::write_errors);
            let stub = expand::stub(&krate, &ident, &generics, is_enum);
            quote!(#stub #errors)
        }
    };
    crate::common::entry::debug("derive(Elicit)", &out);
    out
}
