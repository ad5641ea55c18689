//! `#[tool]` expansion. Cannot fail: the model has checked everything.

use super::model::Tool;
use crate::common::expand::{
    args_struct, args_struct_ident, arguments_ident, call_user, cx_ident, out_ident, parse_args,
    parsed_ident,
};
use crate::paths::{self, Paths};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// The pieces a tool contributes to a `ToolHandler` or `ToolBox` impl.
pub struct Parts {
    /// Items that go inside the impl's `const _` block (the arguments struct).
    pub items: TokenStream,
    /// An expression building the `Tool` definition.
    pub definition: TokenStream,
    /// An expression of type `Result<CallToolResult, Error>` (inside an `async move` block),
    /// reading the context and the raw arguments from the generated locals.
    pub body: TokenStream,
}

/// Builds the parts; `callee` is the function to call (`search` or `self.search`).
pub fn parts(tool: &Tool, callee: TokenStream) -> Parts {
    let paths = Paths::new(&tool.krate);
    let p = paths.private();
    let s = args_struct_ident(&tool.sig.ident);
    let has_args = !tool.sig.args.is_empty();
    let generated_schema = tool.input_schema.is_none();
    let items = if has_args && generated_schema {
        args_struct(&paths, &s, &tool.sig)
    } else {
        TokenStream::new()
    };
    let schema = match (&tool.input_schema, has_args) {
        (Some(expr), _) => quote_spanned!(expr.span()=> #p::schema_object(#expr)),
        (None, true) => quote!(#p::input_schema::<#s>()),
        (None, false) => quote!(#p::no_arguments()),
    };
    let out = out_ident();
    let output = &tool.sig.output;
    let (name, description) = (&tool.name, &tool.description);
    let title = opt_str(&tool.title);
    let h = &tool.hints;
    let (ro, de, id, ow) = (
        opt_bool(h.read_only),
        opt_bool(h.destructive),
        opt_bool(h.idempotent),
        opt_bool(h.open_world),
    );
    let definition = quote! {
        #p::tool_definition(
            #name, #title, #description, #schema,
            <#output as #p::IntoToolResult>::output_schema(),
            [#ro, #de, #id, #ow],
        )
    };
    let parse = parse_stmt(tool, &paths);
    let call = call_user(&paths, &tool.sig, callee);
    let ok = paths::ok();
    // The same `<T as Trait>` form as in `definition`, so a non-returnable type is one error
    // (rustc merges the two identical diagnostics at the user's return type).
    let convert =
        quote_spanned!(output.span()=> <#output as #p::IntoToolResult>::into_tool_result(#out));
    let body = quote! {{
        #parse
        let #out: #output = #call;
        #ok(#convert)
    }};
    Parts {
        items,
        definition,
        body,
    }
}

/// `let __rondo_parsed = ..;`: the arguments, or an early `Ok` with the tool error result that
/// tells the model what was wrong with them.
fn parse_stmt(tool: &Tool, paths: &Paths) -> TokenStream {
    let (p, name) = (paths.private(), &tool.name);
    let (arguments, parsed) = (arguments_ident(), parsed_ident());
    if tool.sig.args.is_empty() {
        return quote!(let _ = #arguments;);
    }
    let (ok, err) = (paths::ok(), paths::err());
    let invalid = syn::Ident::new("__rondo_invalid", proc_macro2::Span::mixed_site());
    let parser = parse_args(paths, &tool.sig);
    quote! {
        let #parsed = match #p::tool_args(#name, &#arguments, #parser) {
            #ok(#parsed) => #parsed,
            #err(#invalid) => return #ok(#invalid),
        };
    }
}

/// The expansion of `#[tool]` on a free function: the function, a hidden type of the same name
/// (type namespace) and its `ToolHandler` impl.
pub fn expand_free(tool: &Tool, item: &syn::ItemFn) -> TokenStream {
    let paths = Paths::new(&tool.krate);
    let ident = &tool.sig.ident;
    let vis = &item.vis;
    let parts = parts(tool, quote!(#ident));
    let handler = handler_impl(tool, &paths, &parts);
    quote! {
        #item
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis struct #ident {}
        const _: () = {
            #handler
        };
    }
}

fn handler_impl(tool: &Tool, paths: &Paths, parts: &Parts) -> TokenStream {
    let p = paths.private();
    let ident = &tool.sig.ident;
    let name = &tool.name;
    let (cx, arguments) = (cx_ident(), arguments_ident());
    let Parts {
        items,
        definition,
        body,
    } = parts;
    let pin = paths::box_pin();
    quote! {
        #items
        #[automatically_derived]
        impl #p::ToolHandler for #ident {
            const NAME: &'static ::core::primitive::str = #name;
            fn definition() -> #p::Tool {
                #definition
            }
            fn call<'__rondo>(
                #cx: &'__rondo #p::Cx,
                #arguments: #p::JsonObject,
            ) -> #p::BoxFuture<'__rondo, ::core::result::Result<#p::CallToolResult, #p::Error>> {
                #pin(async move #body)
            }
        }
    }
}

/// When the model has errors: the hidden type with a stub impl, so a list naming this tool does
/// not add a second error. Its `NAME` is the function's, so two failing tools in one list do not
/// trip the list's duplicate check.
pub fn stub(krate: &syn::Path, ident: &syn::Ident, vis: &syn::Visibility) -> TokenStream {
    let p = Paths::new(krate);
    let p = p.private();
    let name = crate::common::unraw(ident);
    let items = quote! {
        const NAME: &'static ::core::primitive::str = #name;
        fn definition() -> #p::Tool { ::core::panic!("a `#[tool]` with errors") }
        fn call<'__rondo>(_: &'__rondo #p::Cx, _: #p::JsonObject)
            -> #p::BoxFuture<'__rondo, ::core::result::Result<#p::CallToolResult, #p::Error>> {
            ::core::panic!("a `#[tool]` with errors")
        }
    };
    crate::common::expand::stub(vis, ident, quote!(#p::ToolHandler), items)
}

fn opt_str(s: &Option<String>) -> TokenStream {
    match s {
        Some(s) => {
            let some = paths::some();
            quote!(#some(#s))
        }
        None => paths::none(),
    }
}

fn opt_bool(b: Option<bool>) -> TokenStream {
    match b {
        Some(b) => {
            let some = paths::some();
            quote!(#some(#b))
        }
        None => paths::none(),
    }
}
