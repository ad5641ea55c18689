//! `#[resource]` expansion. Cannot fail: the model has checked everything.

use super::Resource;
use crate::common::expand::{call_user, cx_ident, out_ident, parse_args, parsed_ident};
use crate::common::unraw;
use crate::paths::{self, Paths};
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// The function, a hidden type of the same name and its `ResourceHandler` impl.
pub fn expand(r: &Resource, func: &syn::ItemFn) -> TokenStream {
    let paths = Paths::new(&r.krate);
    let p = paths.private();
    let ident = &r.sig.ident;
    let vis = &func.vis;
    let has_args = !r.sig.args.is_empty();
    let opt = |v: &Option<String>| match v {
        Some(s) => {
            let some = paths::some();
            quote!(#some(#s))
        }
        None => paths::none(),
    };
    let (uri, name) = (&r.uri, &r.name);
    let (title, description, mime) = (opt(&r.title), opt(&r.description), opt(&r.mime_type));
    let templated = !r.vars.is_empty();
    let (cx, parsed) = (cx_ident(), parsed_ident());
    let vars = syn::Ident::new("__rondo_vars", Span::mixed_site());
    let uri_arg = syn::Ident::new("__rondo_uri", Span::mixed_site());
    let parse = if has_args {
        let parser = parse_args(&paths, &r.sig);
        quote!(let #parsed = #p::template_args(#uri_arg, #vars, #parser)?;)
    } else {
        quote!(let _ = (#uri_arg, #vars);)
    };
    let call = call_user(&paths, &r.sig, quote!(#ident));
    let out = out_ident();
    let output = &r.sig.output;
    let convert = quote_spanned!(output.span()=>
        <#output as #p::IntoResourceResult>::into_resource_result(#out));
    let pin = paths::box_pin();
    quote! {
        #func
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis struct #ident {}
        const _: () = {
            #[automatically_derived]
            impl #p::ResourceHandler for #ident {
                const URI: &'static ::core::primitive::str = #uri;
                fn definition() -> #p::ResourceDef {
                    #p::resource_definition(#templated, #uri, #name, #title, #description, #mime)
                }
                fn read<'__rondo>(
                    #cx: &'__rondo #p::Cx,
                    #uri_arg: &'__rondo ::core::primitive::str,
                    #vars: #p::BTreeMap<::std::string::String, ::std::string::String>,
                ) -> #p::BoxFuture<'__rondo, ::core::result::Result<#p::ReadResourceResult, #p::Error>> {
                    #pin(async move {
                        #parse
                        let #out: #output = #call;
                        #convert
                    })
                }
            }
        };
    }
}

/// When the model has errors: a stub, so `resources![..]` naming this resource adds no second
/// error. Its `URI` is the function's name, distinct from other stubs'.
pub fn stub(krate: &syn::Path, ident: &syn::Ident, vis: &syn::Visibility) -> TokenStream {
    let paths = Paths::new(krate);
    let p = paths.private();
    let name = unraw(ident);
    let items = quote! {
        const URI: &'static ::core::primitive::str = #name;
        fn definition() -> #p::ResourceDef { ::core::panic!("a `#[resource]` with errors") }
        fn read<'__rondo>(
            _: &'__rondo #p::Cx,
            _: &'__rondo ::core::primitive::str,
            _: #p::BTreeMap<::std::string::String, ::std::string::String>,
        ) -> #p::BoxFuture<'__rondo, ::core::result::Result<#p::ReadResourceResult, #p::Error>> {
            ::core::panic!("a `#[resource]` with errors")
        }
    };
    crate::common::expand::stub(vis, ident, quote!(#p::ResourceHandler), items)
}
