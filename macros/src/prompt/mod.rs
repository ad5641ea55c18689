//! `#[prompt]`: a function rendering an MCP prompt. Its parameters (after an optional context)
//! are the prompt's arguments, strings on the wire; the listing's `arguments` (names, required,
//! descriptions) come from the same generated schema the arguments parse with.

use crate::common::expand::{
    args_struct, args_struct_ident, arguments_ident, call_user, cx_ident, out_ident, parse_args,
    parsed_ident,
};
use crate::common::signature::{self, Place, Signature};
use crate::common::{check_name, crate_path, docs, unraw};
use crate::diag::{err_on, known_keys};
use crate::paths::{self, Paths};
use crate::symbols::{PROMPT, PROMPT_KEYS};
use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// The arguments of `#[prompt(..)]`.
#[derive(FromMeta, Default)]
struct PromptArgs {
    /// `name = ".."` (default: the function's name).
    name: Option<syn::LitStr>,
    /// `title = ".."`.
    title: Option<syn::LitStr>,
    /// `description = ".."` (default: the doc comment).
    description: Option<syn::LitStr>,
    /// `crate = ::path`.
    #[darling(rename = "crate")]
    krate: Option<syn::Path>,
}

/// A validated prompt.
struct Prompt {
    /// Where the runtime is.
    krate: syn::Path,
    /// The prompt's name.
    name: String,
    /// Display name.
    title: Option<String>,
    /// Description.
    description: String,
    /// The function's shape.
    sig: Signature,
}

/// Expands `#[prompt(args)] fn ..`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut func = match crate::common::parse_fn(item.clone()) {
        Some(f) => f,
        None => {
            let e = darling::Error::custom(
                "`#[prompt]` goes on a function: `async fn name(..) -> String`",
            )
            .with_span(&Span::call_site())
            .write_errors();
            return quote!(#item #e);
        }
    };
    let mut acc = darling::Error::accumulator();
    let parsed = parse(args, &mut acc);
    let prompt = model(parsed, &func.attrs, &mut func.sig, &mut acc);
    let out = match acc.finish() {
        Ok(()) => expand_model(&prompt, &func),
        Err(e) => {
            let errors = e.write_errors();
            // In an `impl` block (a receiver), a stub struct would be a second error.
            let stub = func
                .sig
                .receiver()
                .is_none()
                .then(|| stub(&prompt.krate, &func.sig.ident, &func.vis));
            quote!(#func #stub #errors)
        }
    };
    crate::debug("prompt", &out);
    out
}

fn parse(args: TokenStream, acc: &mut Accumulator) -> PromptArgs {
    let Some(metas) = acc.handle(NestedMeta::parse_meta_list(args).map_err(darling::Error::from))
    else {
        return PromptArgs::default();
    };
    let metas = known_keys(PROMPT, PROMPT_KEYS, metas, acc);
    acc.handle(PromptArgs::from_list(&metas))
        .unwrap_or_default()
}

fn model(
    args: PromptArgs,
    attrs: &[syn::Attribute],
    sig: &mut syn::Signature,
    acc: &mut Accumulator,
) -> Prompt {
    let krate = crate_path(args.krate, acc);
    let sig = signature::analyze(PROMPT, sig, Place::Free, acc);
    signature::check_duplicate_args(PROMPT, &sig.args, acc);
    let name = match &args.name {
        Some(l) => {
            check_name("prompt", &l.value(), l.span(), acc);
            l.value()
        }
        None => {
            let n = unraw(&sig.ident);
            check_name("prompt", &n, sig.ident.span(), acc);
            n
        }
    };
    let description = args
        .description
        .map(|d| d.value())
        .or_else(|| docs(attrs))
        .unwrap_or_default();
    if description.is_empty() {
        acc.push(err_on(
            &sig.ident,
            "`#[prompt]` functions need a description; add a `///` doc comment or `description = \"...\"`",
        ));
    }
    Prompt {
        krate,
        name,
        title: args.title.map(|t| t.value()),
        description,
        sig,
    }
}

fn expand_model(prompt: &Prompt, func: &syn::ItemFn) -> TokenStream {
    let paths = Paths::new(&prompt.krate);
    let p = paths.private();
    let ident = &prompt.sig.ident;
    let vis = &func.vis;
    let s = args_struct_ident(ident);
    let has_args = !prompt.sig.args.is_empty();
    let items = if has_args {
        args_struct(&paths, &s, &prompt.sig)
    } else {
        TokenStream::new()
    };
    let arg_checks = prompt.sig.args.iter().filter(|a| !a.flatten).map(|a| {
        let ty = &a.ty;
        quote_spanned!(ty.span()=> #p::assert_prompt_argument::<#ty>();)
    });
    let arguments_list = if has_args {
        quote!(#p::prompt_arguments::<#s>())
    } else {
        quote!(::std::vec::Vec::new())
    };
    let (name, description) = (&prompt.name, &prompt.description);
    let title = match &prompt.title {
        Some(t) => {
            let some = paths::some();
            quote!(#some(#t))
        }
        None => paths::none(),
    };
    let (cx, arguments, parsed) = (cx_ident(), arguments_ident(), parsed_ident());
    let parse = if has_args {
        let parser = parse_args(&paths, &prompt.sig);
        quote!(let #parsed = #p::prompt_args(#name, &#arguments, #parser)?;)
    } else {
        quote!(let _ = #arguments;)
    };
    let call = call_user(&paths, &prompt.sig, quote!(#ident));
    let out = out_ident();
    let output = &prompt.sig.output;
    let convert = quote_spanned!(output.span()=>
        <#output as #p::IntoPromptResult>::into_prompt_result(#out));
    let pin = paths::box_pin();
    quote! {
        #func
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis struct #ident {}
        const _: () = {
            #items
            #[automatically_derived]
            impl #p::PromptHandler for #ident {
                const NAME: &'static ::core::primitive::str = #name;
                fn definition() -> #p::Prompt {
                    #(#arg_checks)*
                    #p::prompt_definition(#name, #title, #description, #arguments_list)
                }
                fn get<'__rondo>(
                    #cx: &'__rondo #p::Cx,
                    #arguments: #p::JsonObject,
                ) -> #p::BoxFuture<'__rondo, ::core::result::Result<#p::GetPromptResult, #p::Error>> {
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

/// When the model has errors: a stub, so `prompts![..]` naming this prompt adds no second error.
fn stub(krate: &syn::Path, ident: &syn::Ident, vis: &syn::Visibility) -> TokenStream {
    let paths = Paths::new(krate);
    let p = paths.private();
    let name = unraw(ident);
    let items = quote! {
        const NAME: &'static ::core::primitive::str = #name;
        fn definition() -> #p::Prompt { ::core::panic!("a `#[prompt]` with errors") }
        fn get<'__rondo>(_: &'__rondo #p::Cx, _: #p::JsonObject)
            -> #p::BoxFuture<'__rondo, ::core::result::Result<#p::GetPromptResult, #p::Error>> {
            ::core::panic!("a `#[prompt]` with errors")
        }
    };
    crate::common::expand::stub(vis, ident, quote!(#p::PromptHandler), items)
}
