//! `#[resource]` expansion. Cannot fail: the model has checked everything.

use super::model::Resource;
use crate::common::asks::{self, Group};
use crate::common::expand::{
    arguments_ident, call_user, cx_ident, error_ident, handler_body, optional, out_ident,
};
use crate::common::unraw;
use crate::paths::{PANIC, Paths, STR, STRING};
use crate::symbols::RESOURCE;
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// The function, a hidden type of the same name and its `ResourceHandler` impl.
pub fn expand(r: &Resource, func: &syn::ItemFn) -> TokenStream {
    let paths = Paths::new(&r.krate);
    let ident = &r.sig.ident;
    let vis = &func.vis;
    let (handler, uri) = (paths.resource_handler(), &r.uri);
    let (definition, read) = (definition(r, &paths), read(r, &paths));
    let group = Group::of(&r.asks);
    let checks = asks::no_argument_fallbacks(&paths, group, RESOURCE);
    let scopes = crate::common::expand::scopes_const(&paths, &r.scopes);
    let inner = quote! {
        #checks
        #[automatically_derived]
        impl #handler for #ident {
            const URI: &'static #STR = #uri;
            #scopes
            #definition
            #read
        }
    };
    let proxy = crate::common::expand::proxy(vis, ident);
    asks::free_fn(&r.krate, &r.asks, &r.sig, func, proxy, (inner, false))
}

/// `fn definition()`: the listing, as a resource or (with variables) a resource template.
fn definition(r: &Resource, paths: &Paths) -> TokenStream {
    let (def, resource_definition) = (paths.resource_def(), paths.resource_definition());
    let (uri, name, templated) = (&r.uri, &r.name, !r.vars.is_empty());
    let (title, description) = (optional(r.title.as_ref()), optional(r.description.as_ref()));
    let mime = optional(r.mime_type.as_ref());
    let listed = asks::meta(
        paths,
        Group::of(&r.asks),
        quote!(#resource_definition(#templated, #uri, #name, #title, #description, #mime)),
    );
    quote! {
        fn definition() -> #def {
            #listed
        }
    }
}

/// `fn read()`: parses the template variables (invalid ones are `-32602`), calls the function
/// and converts what it returns.
fn read(r: &Resource, paths: &Paths) -> TokenStream {
    let (cx, out, arguments) = (cx_ident(), out_ident(), arguments_ident());
    let vars = syn::Ident::new("__rondo_vars", Span::mixed_site());
    let uri_arg = syn::Ident::new("__rondo_uri", Span::mixed_site());
    let ident = &r.sig.ident;
    let call = call_user(paths, &r.sig, quote!(#ident));
    let output = &r.sig.output;
    let into = paths.trait_into_resource_result().at(output.span());
    let convert = quote_spanned!(output.span()=> <#output as #into>::into_resource_result(#out));
    let (invalid, error) = (paths.invalid_template_arguments(), error_ident());
    let body = handler_body(
        paths,
        &r.sig,
        quote!(#invalid(#uri_arg, #error)),
        call,
        convert,
    );
    let body = if r.sig.args.is_empty() {
        quote!({ let _ = (#uri_arg, #vars); #body })
    } else {
        let template_arguments = paths.template_arguments();
        quote!({ let #arguments = &#template_arguments(#vars); #body })
    };
    let (cx_ty, btree_map) = (paths.cx(), paths.btree_map());
    let future = paths.handler_future(paths.read_resource_result());
    quote! {
        fn read<'__rondo>(
            #cx: &'__rondo #cx_ty,
            #uri_arg: &'__rondo #STR,
            #vars: #btree_map<#STRING, #STRING>,
        ) -> #future {
            #body
        }
    }
}

/// When the model has errors: the function (its context rebound and its questions declared, so
/// an ask adds no second error), and a stub, so `resources![..]` naming this resource adds no
/// second error either. Its `URI` is the function's name, distinct from other stubs'.
pub fn stub(r: &Resource, func: &syn::ItemFn) -> TokenStream {
    let paths = Paths::new(&r.krate);
    let ident = &func.sig.ident;
    let (cx_ty, btree_map, def) = (paths.cx(), paths.btree_map(), paths.resource_def());
    let future = paths.handler_future(paths.read_resource_result());
    let name = unraw(ident);
    let items = quote! {
        const URI: &'static #STR = #name;
        fn definition() -> #def { #PANIC!("a `#[resource]` with errors") }
        fn read<'__rondo>(
            _: &'__rondo #cx_ty,
            _: &'__rondo #STR,
            _: #btree_map<#STRING, #STRING>,
        ) -> #future {
            #PANIC!("a `#[resource]` with errors")
        }
    };
    let stub = crate::common::expand::stub(&func.vis, ident, paths.resource_handler(), items);
    asks::free_fn(
        &r.krate,
        &r.asks,
        &r.sig,
        func,
        stub,
        (TokenStream::new(), false),
    )
}
