//! Expansion pieces shared by `#[tool]`, `#[prompt]` and `#[resource]`. Cannot fail.

use crate::common::signature::Signature;
use crate::paths::Paths;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

/// The local that holds the request context in generated code.
pub fn cx_ident() -> syn::Ident {
    syn::Ident::new("__rondo_cx", Span::mixed_site())
}

/// The local that holds the raw arguments in generated code.
pub fn arguments_ident() -> syn::Ident {
    syn::Ident::new("__rondo_arguments", Span::mixed_site())
}

/// The local that holds the parsed arguments in generated code.
pub fn parsed_ident() -> syn::Ident {
    syn::Ident::new("__rondo_parsed", Span::mixed_site())
}

/// The hidden struct the arguments deserialise into, one per function.
pub fn args_struct_ident(fn_ident: &syn::Ident) -> syn::Ident {
    format_ident!(
        "__RondoArgs_{}",
        crate::common::unraw(fn_ident),
        span = Span::mixed_site()
    )
}

/// `#[derive(Deserialize[, JsonSchema])] struct __RondoArgs_f { ... }`: one field per argument,
/// spanned at the user's parameter so trait errors (`T: Deserialize`) point at it.
pub fn args_struct(
    paths: &Paths,
    ident: &syn::Ident,
    sig: &Signature,
    schema: bool,
) -> TokenStream {
    let p = paths.private();
    let serde_crate = format!("{}::serde", quote!(#p).to_string().replace(' ', ""));
    let schemars_crate = format!("{}::schemars", quote!(#p).to_string().replace(' ', ""));
    let derive_schema = schema.then(|| quote!(, #p::schemars::JsonSchema));
    let schemars_attr = schema.then(|| quote!(#[schemars(crate = #schemars_crate)]));
    let fields = sig.args.iter().map(|a| {
        let (ident, ty) = (&a.ident, &a.ty);
        let rename = &a.wire;
        let serde_attr = if a.flatten {
            quote!(#[serde(flatten)])
        } else {
            quote!(#[serde(rename = #rename)])
        };
        let desc = a
            .description
            .as_ref()
            .filter(|_| schema)
            .map(|d| quote!(#[schemars(description = #d)]));
        quote_spanned!(a.span=> #serde_attr #desc #ident: #ty,)
    });
    quote! {
        #[derive(#p::serde::Deserialize #derive_schema)]
        #[serde(crate = #serde_crate)]
        #schemars_attr
        #[allow(non_camel_case_types, dead_code)]
        struct #ident { #(#fields)* }
    }
}

/// Calls the user's function: `callee(context, parsed.a, parsed.b)` (`.await`ed when async).
/// The context goes through `__private::context::<T>()`, spanned at the user's context type, so a
/// wrong context type is one trait error at that type.
pub fn call_user(paths: &Paths, sig: &Signature, callee: TokenStream) -> TokenStream {
    let p = paths.private();
    let cx = cx_ident();
    let parsed = parsed_ident();
    let ctx = sig.context.as_ref().map(|ty| {
        let conv = quote_spanned!(ty.span()=> #p::context::<#ty>(#cx));
        quote!(#conv,)
    });
    let args = sig.args.iter().map(|a| {
        let i = &a.ident;
        quote!(#parsed.#i)
    });
    let call = quote!(#callee(#ctx #(#args),*));
    if sig.is_async {
        quote!(#call.await)
    } else {
        call
    }
}
