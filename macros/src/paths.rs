//! Every runtime and std path an expansion names. Generated code reaches the runtime only through
//! `#krate::__private` (STYLE.md §4-5).

use proc_macro2::TokenStream;
use quote::quote;

/// The runtime crate path (`::rondo_mcp` unless `crate = ..` says otherwise) and the paths below it.
#[derive(Clone)]
pub struct Paths {
    /// `__private` of the runtime.
    p: TokenStream,
}

impl Paths {
    /// Paths below `krate`.
    pub fn new(krate: &syn::Path) -> Self {
        Paths {
            p: quote!(#krate::__private),
        }
    }
    /// The private module.
    pub fn private(&self) -> &TokenStream {
        &self.p
    }
}

/// `::core::result::Result::Ok`.
pub fn ok() -> TokenStream {
    quote!(::core::result::Result::Ok)
}
/// `::core::result::Result::Err`.
pub fn err() -> TokenStream {
    quote!(::core::result::Result::Err)
}
/// `::core::option::Option::Some`.
pub fn some() -> TokenStream {
    quote!(::core::option::Option::Some)
}
/// `::core::option::Option::None`.
pub fn none() -> TokenStream {
    quote!(::core::option::Option::None)
}
/// `::std::boxed::Box::pin`.
pub fn box_pin() -> TokenStream {
    quote!(::std::boxed::Box::pin)
}
