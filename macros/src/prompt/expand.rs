//! `#[prompt]` expansion. Cannot fail: the model has checked everything.

use super::model::Prompt;
use crate::common::asks::{self, Group};
use crate::common::expand::{
    args_struct, args_struct_ident, arguments_ident, call_user, cx_ident, error_ident,
    handler_body, input_schema, needs_args_struct, optional, out_ident,
};
use crate::common::unraw;
use crate::paths::{PANIC, Paths, STR, VEC};
use crate::symbols::PROMPT;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// The function, a hidden type of the same name and its `PromptHandler` impl.
pub fn expand(prompt: &Prompt, func: &syn::ItemFn) -> TokenStream {
    let paths = Paths::new(&prompt.krate);
    let ident = &prompt.sig.ident;
    let vis = &func.vis;
    let items = if needs_args_struct(&prompt.sig) {
        args_struct(&paths, &args_struct_ident(ident), &prompt.sig)
    } else {
        TokenStream::new()
    };
    let handler = paths.prompt_handler();
    let (name, definition) = (&prompt.name, definition(prompt, &paths));
    let get = get(prompt, &paths);
    let group = Group::of(&prompt.asks);
    let checks = asks::no_argument_fallbacks(&paths, group, PROMPT);
    let scopes = crate::common::expand::scopes_const(&paths, &prompt.scopes);
    let inner = quote! {
        #items
        #checks
        #[automatically_derived]
        impl #handler for #ident {
            const NAME: &'static #STR = #name;
            #scopes
            #definition
            #get
        }
    };
    let proxy = crate::common::expand::proxy(vis, ident);
    asks::free_fn(
        &prompt.krate,
        &prompt.asks,
        &prompt.sig,
        func,
        proxy,
        (inner, false),
    )
}

/// `fn definition()`: checks each argument's type, then lists the prompt with its arguments.
fn definition(prompt: &Prompt, paths: &Paths) -> TokenStream {
    let arg_checks = prompt.sig.args.iter().filter(|a| !a.flatten).map(|a| {
        let ty = &a.ty;
        let assert = paths.assert_prompt_argument().at(ty.span());
        quote_spanned!(ty.span()=> #assert::<#ty>();)
    });
    let arguments_list = if prompt.sig.args.is_empty() {
        quote!(#VEC::new())
    } else {
        let (prompt_arguments, s) = (
            paths.prompt_arguments(),
            args_struct_ident(&prompt.sig.ident),
        );
        let schema = input_schema(paths, &prompt.sig, &s);
        quote!(#prompt_arguments(#schema))
    };
    let (name, description) = (&prompt.name, &prompt.description);
    let title = optional(prompt.title.as_ref());
    let (prompt_ty, prompt_definition) = (paths.prompt(), paths.prompt_definition());
    let listed = asks::meta(
        paths,
        Group::of(&prompt.asks),
        quote!(#prompt_definition(#name, #title, #description, #arguments_list)),
    );
    quote! {
        fn definition() -> #prompt_ty {
            #(#arg_checks)*
            #listed
        }
    }
}

/// `fn get()`: parses the arguments (invalid ones are `-32602`), calls the function and
/// converts what it returns.
fn get(prompt: &Prompt, paths: &Paths) -> TokenStream {
    let (cx, arguments, out) = (cx_ident(), arguments_ident(), out_ident());
    let ident = &prompt.sig.ident;
    let call = call_user(paths, &prompt.sig, quote!(#ident));
    let output = &prompt.sig.output;
    let into = paths.trait_into_prompt_result().at(output.span());
    let convert = quote_spanned!(output.span()=> <#output as #into>::into_prompt_result(#out));
    let (invalid, name, error) = (
        paths.invalid_prompt_arguments(),
        &prompt.name,
        error_ident(),
    );
    let mut body = handler_body(
        paths,
        &prompt.sig,
        quote!(#invalid(#name, #error)),
        call,
        convert,
    );
    if prompt.sig.args.is_empty() {
        body = quote!({ let _ = #arguments; #body });
    }
    let (cx_ty, json_object) = (paths.cx(), paths.json_object());
    let future = paths.handler_future(paths.get_prompt_result());
    quote! {
        fn get<'__rondo>(
            #cx: &'__rondo #cx_ty,
            #arguments: &'__rondo #json_object,
        ) -> #future {
            #body
        }
    }
}

/// When the model has errors: the function (its context rebound and its questions declared, so
/// an ask adds no second error), and a stub, so `prompts![..]` naming this prompt adds no
/// second error either.
pub fn stub(prompt: &Prompt, func: &syn::ItemFn) -> TokenStream {
    let paths = Paths::new(&prompt.krate);
    let ident = &func.sig.ident;
    let (cx_ty, json_object, prompt_ty) = (paths.cx(), paths.json_object(), paths.prompt());
    let future = paths.handler_future(paths.get_prompt_result());
    let name = unraw(ident);
    let items = quote! {
        const NAME: &'static #STR = #name;
        fn definition() -> #prompt_ty { #PANIC!("a `#[prompt]` with errors") }
        fn get<'__rondo>(_: &'__rondo #cx_ty, _: &'__rondo #json_object)
            -> #future {
            #PANIC!("a `#[prompt]` with errors")
        }
    };
    let stub = crate::common::expand::stub(&func.vis, ident, paths.prompt_handler(), items);
    asks::free_fn(
        &prompt.krate,
        &prompt.asks,
        &prompt.sig,
        func,
        stub,
        (TokenStream::new(), false),
    )
}
