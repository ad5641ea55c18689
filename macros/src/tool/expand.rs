//! `#[tool]` expansion. Cannot fail: the model has checked everything.

use super::model::{Task, Tool};
use crate::common::asks::{self, Group};
use crate::common::expand::{
    args_struct, args_struct_ident, arguments_ident, call_user, cx_ident, error_ident,
    handler_body, input_schema, needs_args_struct, optional, out_ident,
};
use crate::paths::{OK, OPTION, PANIC, Paths, SOME, STR};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// The pieces a tool contributes to a `ToolHandler` or `ToolBox` impl.
pub struct Parts {
    /// Items that go inside the impl's `const _` block (the arguments struct).
    pub items: TokenStream,
    /// An expression building the `Tool` definition.
    pub definition: TokenStream,
    /// An expression of the handler's future type (`BoxFuture<Result<CallToolResult, Error>>`),
    /// reading the context and the raw arguments from the generated locals.
    pub body: TokenStream,
}

/// Builds the parts; `callee` is the function to call (`search` or `self.search`), and `asks`
/// its questions as the scope the parts go in imports them.
pub fn parts(tool: &Tool, callee: TokenStream, asks: Group) -> Parts {
    let paths = Paths::new(&tool.krate);
    let s = args_struct_ident(&tool.sig.ident);
    let has_args = !tool.sig.args.is_empty();
    let generated_schema = tool.input_schema.is_none();
    let mut items = if has_args && generated_schema && needs_args_struct(&tool.sig) {
        args_struct(&paths, &s, &tool.sig)
    } else {
        TokenStream::new()
    };
    items.extend(asks::collisions(&paths, asks, &tool.name, &tool.sig.args));
    Parts {
        items,
        definition: definition(tool, &paths, asks),
        body: body(tool, &paths, callee),
    }
}

/// The `Tool` definition: names, schemas and hints.
fn definition(tool: &Tool, paths: &Paths, asks: Group) -> TokenStream {
    let s = args_struct_ident(&tool.sig.ident);
    let schema = match (&tool.input_schema, tool.sig.args.is_empty()) {
        (Some(expr), _) => {
            let schema_object = paths.schema_object().at(expr.span());
            quote_spanned!(expr.span()=> #schema_object(#expr))
        }
        (None, false) => input_schema(paths, &tool.sig, &s),
        (None, true) => {
            let no_arguments = paths.no_arguments();
            quote!(#no_arguments())
        }
    };
    let schema = asks::schema(paths, asks, schema);
    let (tool_definition, into_tool_result) =
        (paths.tool_definition(), paths.trait_into_tool_result());
    let output = &tool.sig.output;
    let (name, description) = (&tool.name, &tool.description);
    let title = optional(tool.title.as_ref());
    let h = &tool.hints;
    let (ro, de, id, ow) = (
        optional(h.read_only),
        optional(h.destructive),
        optional(h.idempotent),
        optional(h.open_world),
    );
    let definition = quote! {
        #tool_definition(
            #name, #title, #description, #schema,
            <#output as #into_tool_result>::output_schema(),
            [#ro, #de, #id, #ow],
        )
    };
    asks::meta(paths, asks, definition)
}

/// The call, an expression of the handler's future type: parse the arguments (invalid ones
/// are a tool error result the model can read), call `callee`, convert what it returns.
fn body(tool: &Tool, paths: &Paths, callee: TokenStream) -> TokenStream {
    let out = out_ident();
    let output = &tool.sig.output;
    let call = call_user(paths, &tool.sig, callee);
    // The same `<T as Trait>` form as in `definition`, so a non-returnable type is one error
    // (rustc merges the two identical diagnostics at the user's return type).
    let into_tool_result = paths.trait_into_tool_result().at(output.span());
    let convert =
        quote_spanned!(output.span()=> <#output as #into_tool_result>::into_tool_result(#out));
    let (invalid, name, error) = (paths.invalid_tool_arguments(), &tool.name, error_ident());
    let body = handler_body(
        paths,
        &tool.sig,
        quote!(#invalid(#name, #error)),
        call,
        quote!(#OK(#convert)),
    );
    if tool.sig.args.is_empty() {
        let arguments = arguments_ident();
        quote!({ let _ = #arguments; #body })
    } else {
        body
    }
}

/// The expansion of `#[tool]` on a free function: the function (its context rebound to its
/// questions), a hidden type of the same name (type namespace) and its `ToolHandler` impl in
/// the scope that declares the questions (`common::asks`).
pub fn expand_free(tool: &Tool, item: &syn::ItemFn) -> TokenStream {
    let paths = Paths::new(&tool.krate);
    let ident = &tool.sig.ident;
    let vis = &item.vis;
    let group = Group::of(&tool.asks);
    let parts = parts(tool, quote!(#ident), group);
    let bare = parts.items.is_empty();
    let handler = handler_impl(tool, &paths, &parts);
    let proxy = crate::common::expand::proxy(vis, ident);
    asks::free_fn(
        &tool.krate,
        &tool.asks,
        &tool.sig,
        item,
        proxy,
        (handler, bare),
    )
}

/// `Some(TaskMode::REQUIRED.explicit_start())`: the runtime's `TaskMode` for `task`.
pub fn task_mode(paths: &Paths, task: Task) -> TokenStream {
    let task_mode = paths.task_mode();
    let support = if task.required {
        quote!(REQUIRED)
    } else {
        quote!(OPTIONAL)
    };
    let start = task.explicit_start.then(|| quote!(.explicit_start()));
    quote!(#SOME(#task_mode::#support #start))
}

/// `impl ToolHandler for #ident`, with the arguments struct before it; `TASK` only for a tool
/// with `task = ..` (the trait's default is a synchronous call), `SCOPES` only for one with
/// `scopes = [..]`.
fn handler_impl(tool: &Tool, paths: &Paths, parts: &Parts) -> TokenStream {
    let (handler, cx_ty, json_object) = (paths.tool_handler(), paths.cx(), paths.json_object());
    let (tool_ty, future) = (paths.tool(), paths.handler_future(paths.call_tool_result()));
    let ident = &tool.sig.ident;
    let name = &tool.name;
    let (cx, arguments) = (cx_ident(), arguments_ident());
    let Parts {
        items,
        definition,
        body,
    } = parts;
    let task = tool.task.map(|task| {
        let (task_mode, mode) = (paths.task_mode(), task_mode(paths, task));
        quote!(const TASK: #OPTION<#task_mode> = #mode;)
    });
    let scopes = crate::common::expand::scopes_const(paths, &tool.scopes);
    quote! {
        #items
        #[automatically_derived]
        impl #handler for #ident {
            const NAME: &'static #STR = #name;
            #task
            #scopes
            fn definition() -> #tool_ty {
                #definition
            }
            fn call<'__rondo>(
                #cx: &'__rondo #cx_ty,
                #arguments: &'__rondo #json_object,
            ) -> #future {
                #body
            }
        }
    }
}

/// When the model has errors: the function (its context rebound and its questions declared, so
/// an ask adds no second error), and the hidden type with a stub impl, so a list naming this
/// tool does not add a second error either. Its `NAME` is the function's, so two failing tools
/// in one list do not trip the list's duplicate check.
pub fn stub(tool: &Tool, func: &syn::ItemFn) -> TokenStream {
    let paths = Paths::new(&tool.krate);
    let (cx_ty, json_object, tool_ty) = (paths.cx(), paths.json_object(), paths.tool());
    let future = paths.handler_future(paths.call_tool_result());
    let ident = &func.sig.ident;
    let name = crate::common::unraw(ident);
    let items = quote! {
        const NAME: &'static #STR = #name;
        fn definition() -> #tool_ty { #PANIC!("a `#[tool]` with errors") }
        fn call<'__rondo>(_: &'__rondo #cx_ty, _: &'__rondo #json_object)
            -> #future {
            #PANIC!("a `#[tool]` with errors")
        }
    };
    let stub = crate::common::expand::stub(&func.vis, ident, paths.tool_handler(), items);
    asks::free_fn(
        &tool.krate,
        &tool.asks,
        &tool.sig,
        func,
        stub,
        (TokenStream::new(), false),
    )
}
