//! Expansion pieces shared by `#[tool]`, `#[prompt]` and `#[resource]`. Cannot fail.

use crate::common::signature::Signature;
use crate::paths::{BOX_PIN, ERR, NONE, OK, Paths, SOME};
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

/// The local that holds the request context in generated code.
pub fn cx_ident() -> syn::Ident {
    syn::Ident::new("__rondo_cx", Span::mixed_site())
}

/// The local that holds the raw arguments in generated code.
pub fn arguments_ident() -> syn::Ident {
    syn::Ident::new("__rondo_arguments", Span::mixed_site())
}

/// The local that holds the function's return value in generated code.
pub fn out_ident() -> syn::Ident {
    syn::Ident::new("__rondo_out", Span::mixed_site())
}

/// The local that holds the parsed arguments (a tuple, in parameter order) in generated code.
pub fn parsed_ident() -> syn::Ident {
    syn::Ident::new("__rondo_parsed", Span::mixed_site())
}

/// The hidden struct whose `JsonSchema` is the arguments' schema, one per function.
pub fn args_struct_ident(fn_ident: &syn::Ident) -> syn::Ident {
    format_ident!(
        "__RondoArgs_{}",
        crate::common::unraw(fn_ident),
        span = Span::mixed_site()
    )
}

/// Whether the input schema comes from a derived arguments struct ([`args_struct`]): only with an
/// `#[args]` parameter next to named ones, whose fields schemars flattens into the object. An
/// `#[args]` parameter alone is `Flattened<T>`'s schema, and named arguments alone are static
/// data ([`input_schema`]).
pub fn needs_args_struct(sig: &Signature) -> bool {
    sig.args.len() > 1 && sig.args.iter().any(|a| a.flatten)
}

/// The input schema of a function with arguments, a `JsonObject` expression, with nothing
/// generic per tool (design §9, "Build cost"):
/// - named arguments only: `input_schema_of(&[Property { .. }, ..])`, the schema a derived struct
///   of them would have, from static data and two functions per argument type.
///   `Property::schema` is `subschema_for::<T>`, spanned at the user's type, so a type that is
///   not `JsonSchema` is one error there; `Property::optional` is `Optional::<T>::optional`,
///   which resolves to a stand-in when `T` is not `Deserialize`, so that error is only the
///   parser's (`__private::Optional`);
/// - one `#[args] T`: `flattened_schema::<T>`, the schema of the runtime's `Flattened<T>`
///   (spanned at `T` likewise);
/// - both: the derived [`args_struct`] named `s`.
pub fn input_schema(paths: &Paths, sig: &Signature, s: &syn::Ident) -> TokenStream {
    let (input_schema, json_schema) = (paths.input_schema(), paths.json_schema());
    if needs_args_struct(sig) {
        return quote!(#input_schema(<#s as #json_schema>::json_schema));
    }
    if let [only] = sig.args.as_slice()
        && only.flatten
    {
        let ty = &only.ty;
        let flattened = paths.flattened_schema().at(ty.span());
        let schema = quote_spanned!(ty.span()=> #flattened::<#ty>);
        return quote!(#input_schema(#schema));
    }
    let (property, generator) = (paths.property(), paths.schema_generator());
    let (optional_ty, not_parsed) = (paths.optional(), paths.not_parsed());
    let properties = sig.args.iter().map(|a| {
        let (ty, wire) = (&a.ty, &a.wire);
        let description = optional(a.description.as_ref());
        let subschema = generator.at(ty.span());
        let schema = quote_spanned!(ty.span()=> #subschema::subschema_for::<#ty>);
        quote! {
            #property {
                name: #wire,
                description: #description,
                schema: #schema,
                optional: #optional_ty::<#ty>::optional,
            }
        }
    });
    let input_schema_of = paths.input_schema_of();
    quote!({
        #[allow(unused_imports)]
        use #not_parsed as _;
        #input_schema_of(&[#(#properties),*])
    })
}

/// `#[derive(JsonSchema)] struct __RondoArgs_f { ... }`: one field per argument, for the schema
/// only (parsing goes through `parse_args`), when an `#[args]` parameter is next to named ones
/// ([`needs_args_struct`]). Fields are spanned at the user's type, so a type that is not
/// `JsonSchema` is one error there.
pub fn args_struct(paths: &Paths, ident: &syn::Ident, sig: &Signature) -> TokenStream {
    let (json_schema, (schemars_import, schemars_crate)) =
        (paths.json_schema(), paths.schemars_crate(ident));
    let fields = sig.args.iter().map(|a| {
        let (ident, ty) = (&a.ident, &a.ty);
        let rename = &a.wire;
        // `serde` is a helper attribute of the `JsonSchema` derive.
        let serde_attr = if a.flatten {
            quote!(#[serde(flatten)])
        } else {
            quote!(#[serde(rename = #rename)])
        };
        let desc = a
            .description
            .as_ref()
            .map(|d| quote!(#[schemars(description = #d)]));
        quote_spanned!(ty.span()=> #serde_attr #desc #ident: #ty,)
    });
    quote! {
        #schemars_import
        #[derive(#json_schema)]
        #[schemars(crate = #schemars_crate)]
        #[allow(non_camel_case_types, dead_code)]
        struct #ident { #(#fields)* }
    }
}

/// The label of the block a handler's body is (see [`handler_body`]).
fn parse_label() -> syn::Lifetime {
    syn::Lifetime {
        apostrophe: Span::mixed_site(),
        ident: syn::Ident::new("__rondo_parse", Span::mixed_site()),
    }
}

/// `(match arg::<A>(arguments, "a") { Ok(v) => v, Err(e) => break 'parse invalid(e) }, ..)`:
/// each argument parsed with `__private::arg::<T>` (or `flattened::<T>` for `#[args]`), the
/// turbofish spanned at the user's type, so a type that is not `Deserialize` is one error at
/// it. On the first failure the handler's block ends with `invalid` (an expression of the
/// handler's future type, reading the error from the local [`error_ident`]).
fn parse_args(paths: &Paths, sig: &Signature, invalid: &TokenStream) -> TokenStream {
    let arguments = arguments_ident();
    let (value, error, label) = (
        syn::Ident::new("__rondo_value", Span::mixed_site()),
        error_ident(),
        parse_label(),
    );
    let named: Vec<&str> = sig
        .args
        .iter()
        .filter(|a| !a.flatten)
        .map(|a| a.wire.as_str())
        .collect();
    let each = sig.args.iter().map(|a| {
        let (ty, wire) = (&a.ty, &a.wire);
        let parse = if a.flatten {
            let flattened = paths.flattened().at(ty.span());
            quote_spanned!(ty.span()=> #flattened::<#ty>(#arguments, &[#(#named),*]))
        } else {
            let arg = paths.arg().at(ty.span());
            quote_spanned!(ty.span()=> #arg::<#ty>(#arguments, #wire))
        };
        quote! {
            match #parse {
                #OK(#value) => #value,
                #ERR(#error) => break #label #invalid,
            }
        }
    });
    quote!((#(#each,)*))
}

/// The local that holds an argument's parse error in generated code.
pub fn error_ident() -> syn::Ident {
    syn::Ident::new("__rondo_error", Span::mixed_site())
}

/// The body every handler method shares, an expression of the handler's future type: the
/// arguments parsed first, outside the future (a failure ends the block with `invalid`, see
/// [`parse_args`]), then the boxed future that calls the user's function into a local of its
/// declared return type and converts it (`convert` reads that local, [`out_ident`]). Parsing
/// before the future keeps it out of the future's state machine, and no closure or generic
/// runtime function is instantiated per handler for it.
pub fn handler_body(
    paths: &Paths,
    sig: &Signature,
    invalid: TokenStream,
    call: TokenStream,
    convert: TokenStream,
) -> TokenStream {
    let (out, output, parsed, label) = (out_ident(), &sig.output, parsed_ident(), parse_label());
    let future = quote! {
        #BOX_PIN(async move {
            let #out: #output = #call;
            #convert
        })
    };
    if sig.args.is_empty() {
        return future;
    }
    let parse = parse_args(paths, sig, &invalid);
    quote! {
        #label: {
            let #parsed = #parse;
            #future
        }
    }
}

/// Calls the user's function: `callee(context, parsed.0, parsed.1)` (`.await`ed when async).
/// The context goes through `__private::context::<T>()`, spanned at the user's context type, so a
/// wrong context type is one trait error at that type.
pub fn call_user(paths: &Paths, sig: &Signature, callee: TokenStream) -> TokenStream {
    let cx = cx_ident();
    let parsed = parsed_ident();
    let ctx = sig.context.as_ref().map(|ty| {
        let context = paths.context().at(ty.span());
        let conv = quote_spanned!(ty.span()=> #context::<#ty>(#cx));
        quote!(#conv,)
    });
    let args = (0..sig.args.len()).map(|i| {
        let i = syn::Index::from(i);
        quote!(#parsed.#i)
    });
    let call = quote!(#callee(#ctx #(#args),*));
    if sig.is_async {
        quote!(#call.await)
    } else {
        call
    }
}

/// `&[Scope::from_static("a"), ..]`: the checked scopes of `scopes = [..]`, a `&'static [Scope]`
/// in a `const` (`from_static` is a `const fn`; the model has checked each scope, so it never
/// panics).
pub fn scopes(paths: &Paths, scopes: &[String]) -> TokenStream {
    let scope = paths.scope();
    quote!(&[#(#scope::from_static(#scopes)),*])
}

/// `const SCOPES: &'static [Scope] = ..;` of a `ToolHandler`, `PromptHandler` or
/// `ResourceHandler` impl; nothing without `scopes = [..]` (the trait's default is none).
pub fn scopes_const(paths: &Paths, given: &[String]) -> Option<TokenStream> {
    if given.is_empty() {
        return None;
    }
    let (scope, list) = (paths.scope(), scopes(paths, given));
    Some(quote!(const SCOPES: &'static [#scope] = #list;))
}

/// `Some(value)`, or `None` for an optional key the user left out.
pub fn optional(value: Option<impl ToTokens>) -> TokenStream {
    match value {
        Some(value) => quote!(#SOME(#value)),
        None => quote!(#NONE),
    }
}

/// `struct search {}`, the hidden type named after a function (type namespace only, so it does
/// not clash with the function), written at the function's name: rustc's notes about the type
/// (a list entry that is not a question, a question not declared) point there.
pub fn proxy(vis: &syn::Visibility, ident: &syn::Ident) -> TokenStream {
    let proxy = crate::diag::spanned_at(quote!(#vis struct #ident {}), ident.span());
    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #proxy
    }
}

/// When the model has errors: the hidden type of the function's name with a stub impl of
/// `handler` (`items` are its members), so a list naming the function adds no second error.
pub fn stub(
    vis: &syn::Visibility,
    ident: &syn::Ident,
    handler: impl ToTokens,
    items: TokenStream,
) -> TokenStream {
    let proxy = proxy(vis, ident);
    quote! {
        #proxy
        const _: () = {
            #[automatically_derived]
            impl #handler for #ident {
                #items
            }
        };
    }
}
