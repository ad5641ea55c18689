//! `#[toolbox]` on an `impl` block: serves its `#[tool]` methods, which share `&self` state.
//! The container owns the `#[tool]` helper attributes of its methods and strips them, so it sees
//! every tool at once (duplicate names are caught here, STYLE.md §2).

use crate::common::crate_path;
use crate::common::expand::{arguments_ident, cx_ident};
use crate::common::signature::Place;
use crate::common::verbatim_fn;
use crate::diag::{err_on, known_keys};
use crate::paths::{BOX_PIN, NONE, OPTION, PANIC, Paths, SOME, STR, VEC, VEC_MACRO};
use crate::symbols::{TOOL, TOOLBOX, TOOLBOX_KEYS};
use crate::tool::expand::parts;
use crate::tool::model::{Tool, model};
use crate::tool::parse::parse_list;
use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::quote;
use syn::parse::discouraged::Speculative;
use syn::parse::{ParseStream, Parser};

/// The arguments of `#[toolbox(..)]`.
#[derive(FromMeta, Default)]
struct ToolboxArgs {
    /// `crate = ::path`: where the runtime is; the methods' `#[tool]`s inherit it.
    #[darling(rename = "crate")]
    krate: Option<syn::Path>,
}

/// Expands `#[toolbox(args)] impl ... { ... }`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut block = match parse_impl(item.clone()) {
        Some(b) => b,
        None => {
            let e = darling::Error::custom(
                "`#[toolbox]` goes on an `impl` block whose methods carry `#[tool]`",
            )
            .with_span(&Span::call_site())
            .write_errors();
            return quote!(#item #e);
        }
    };
    let mut acc = darling::Error::accumulator();
    let metas = acc
        .handle(NestedMeta::parse_meta_list(args).map_err(darling::Error::from))
        .unwrap_or_default();
    let metas = known_keys(TOOLBOX, TOOLBOX_KEYS, metas, &mut acc);
    let parsed = acc
        .handle(ToolboxArgs::from_list(&metas))
        .unwrap_or_default();
    let krate = crate_path(parsed.krate, &mut acc);
    if let Some((path, _)) = &block.trait_ {
        let self_ty = &block.self_ty;
        let shown = quote!(#self_ty).to_string().replace(" ", "");
        acc.push(err_on(
            path,
            format!(
                "`#[toolbox]` goes on an inherent `impl Type` block, not a trait impl; move the tools into `impl {shown} {{ .. }}`"
            ),
        ));
    }
    let tools = collect(&mut block, &krate, &mut acc);
    let out = match acc.finish() {
        Ok(()) => {
            let impl_ = toolbox_impl(&block, &krate, &tools);
            quote!(#block const _: () = { #impl_ };)
        }
        Err(e) => {
            let errors = e.write_errors();
            let stub = stub(&block, &krate);
            quote!(#block #stub #errors)
        }
    };
    crate::debug("toolbox", &out);
    out
}

/// Parses the `impl` block. A method whose body does not parse keeps its signature and its body
/// verbatim (rustc reports the syntax error itself), so the toolbox still expands and adds no
/// error of its own.
fn parse_impl(item: TokenStream) -> Option<syn::ItemImpl> {
    if let Ok(block) = syn::parse2(item.clone()) {
        return Some(block);
    }
    let mut tokens: Vec<TokenTree> = item.into_iter().collect();
    let Some(TokenTree::Group(body)) = tokens.pop() else {
        return None;
    };
    let empty = Group::new(Delimiter::Brace, TokenStream::new());
    let header: TokenStream = tokens
        .into_iter()
        .chain([TokenTree::Group(empty)])
        .collect();
    let mut block: syn::ItemImpl = syn::parse2(header).ok()?;
    block.brace_token = syn::token::Brace(body.delim_span());
    block.items = Parser::parse2(impl_items, body.stream()).ok()?;
    Some(block)
}

/// The items of an `impl` body, a method with a malformed body kept as in [`parse_impl`].
fn impl_items(input: ParseStream) -> syn::Result<Vec<syn::ImplItem>> {
    let mut items = Vec::new();
    while !input.is_empty() {
        let fork = input.fork();
        if let Ok(item) = fork.parse::<syn::ImplItem>() {
            input.advance_to(&fork);
            items.push(item);
            continue;
        }
        let (attrs, vis, sig, block) = verbatim_fn(input)?;
        items.push(syn::ImplItem::Fn(syn::ImplItemFn {
            attrs,
            vis,
            modifiers: syn::FnModifiers::default(),
            sig,
            block,
        }));
    }
    Ok(items)
}

/// Models every `#[tool]` method, stripping the attributes; reports duplicate names.
fn collect(block: &mut syn::ItemImpl, krate: &syn::Path, acc: &mut Accumulator) -> Vec<Tool> {
    let mut tools: Vec<Tool> = Vec::new();
    for item in &mut block.items {
        let syn::ImplItem::Fn(method) = item else {
            continue;
        };
        let Some(tool) = tool_method(method, krate, acc) else {
            continue;
        };
        if let Some(first) = tools.iter().find(|t| t.name == tool.name) {
            acc.push(err_on(
                &method.sig.ident,
                format!(
                    "duplicate tool name `{}`: `fn {}` in this impl already uses it; choose another with `#[tool(name = \"...\")]`",
                    tool.name, first.sig.ident
                ),
            ));
            continue;
        }
        tools.push(tool);
    }
    if tools.is_empty() {
        acc.push(err_on(
            &block.self_ty,
            "`#[toolbox]` found no `#[tool]` methods in this impl block; mark the tools with `#[tool]`",
        ));
    }
    tools
}

/// Removes the `#[tool(..)]` of a method and models the tool; `None` for a method without one,
/// or when the attribute itself does not parse (the error is reported).
fn tool_method(
    method: &mut syn::ImplItemFn,
    krate: &syn::Path,
    acc: &mut Accumulator,
) -> Option<Tool> {
    let pos = method.attrs.iter().position(is_tool_attr)?;
    let attr = method.attrs.remove(pos);
    let tokens = match &attr.meta {
        syn::Meta::Path(_) => TokenStream::new(),
        syn::Meta::List(l) => l.tokens.clone(),
        syn::Meta::NameValue(nv) => {
            acc.push(err_on(
                &nv.eq_token,
                "`#[tool]` takes its arguments in parentheses; write `#[tool]` or `#[tool(name = \"...\")]`",
            ));
            return None;
        }
    };
    let mut args = parse_list(&tokens, acc)?;
    if args.krate.is_none() {
        args.krate = Some(krate.clone());
    }
    Some(model(
        args,
        &method.attrs,
        &mut method.sig,
        Place::Method,
        acc,
    ))
}

/// Whether `a` is `#[tool]` under any path (`#[rondo_mcp::tool]` too): the container owns it.
fn is_tool_attr(a: &syn::Attribute) -> bool {
    a.path().segments.last().is_some_and(|s| s.ident == TOOL)
}

/// `impl ToolBox for #self_ty`: lists every tool and dispatches a call by name.
fn toolbox_impl(block: &syn::ItemImpl, krate: &syn::Path, tools: &[Tool]) -> TokenStream {
    let paths = Paths::new(krate);
    let (impl_generics, _, where_clause) = block.generics.split_for_impl();
    let self_ty = &block.self_ty;
    let (cx, arguments) = (cx_ident(), arguments_ident());
    let name_ident = syn::Ident::new("__rondo_name", Span::mixed_site());
    let mut items = Vec::new();
    let mut defs = Vec::new();
    let mut arms = Vec::new();
    for tool in tools {
        let method = &tool.sig.ident;
        let parts = parts(tool, quote!(self.#method));
        items.push(parts.items);
        defs.push(parts.definition);
        let (name, body) = (&tool.name, &parts.body);
        arms.push(quote!(#name => #SOME(#BOX_PIN(async move #body)),));
    }
    let (tool_box, tool_ty) = (paths.tool_box(), paths.tool());
    let (cx_ty, json_object) = (paths.cx(), paths.json_object());
    let future = paths.handler_future(paths.call_tool_result());
    quote! {
        #(#items)*
        #[automatically_derived]
        impl #impl_generics #tool_box for #self_ty #where_clause {
            fn tools(&self) -> #VEC<#tool_ty> {
                #VEC_MACRO![#(#defs),*]
            }
            fn call<'__rondo>(
                &'__rondo self,
                #cx: &'__rondo #cx_ty,
                #name_ident: &'__rondo #STR,
                #arguments: #json_object,
            ) -> #OPTION<#future> {
                match #name_ident {
                    #(#arms)*
                    _ => #NONE,
                }
            }
        }
    }
}

/// When the model has errors: a stub `ToolBox` impl, so passing the type to `Router::tools`
/// does not add a second error.
fn stub(block: &syn::ItemImpl, krate: &syn::Path) -> TokenStream {
    let paths = Paths::new(krate);
    let (impl_generics, _, where_clause) = block.generics.split_for_impl();
    let self_ty = &block.self_ty;
    let (tool_box, tool_ty) = (paths.tool_box(), paths.tool());
    let (cx_ty, json_object) = (paths.cx(), paths.json_object());
    let future = paths.handler_future(paths.call_tool_result());
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #tool_box for #self_ty #where_clause {
                fn tools(&self) -> #VEC<#tool_ty> {
                    #PANIC!("a `#[toolbox]` with errors")
                }
                fn call<'__rondo>(
                    &'__rondo self,
                    _: &'__rondo #cx_ty,
                    _: &'__rondo #STR,
                    _: #json_object,
                ) -> #OPTION<#future> {
                    #PANIC!("a `#[toolbox]` with errors")
                }
            }
        };
    }
}
