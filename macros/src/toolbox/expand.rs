//! `#[toolbox]` expansion. Cannot fail: the model has checked everything.

use super::model::Toolbox;
use crate::common::asks;
use crate::common::expand::{arguments_ident, cx_ident};
use crate::paths::{BOX_PIN, NONE, OPTION, PANIC, Paths, SOME, STR, VEC, VEC_MACRO};
use crate::tool::expand::parts;
use crate::tool::model::Tool;
use proc_macro2::{Span, TokenStream};
use quote::quote;

/// The block, then its `ToolBox` impl in a `const _` block.
pub fn expand(toolbox: &Toolbox, block: &syn::ItemImpl) -> TokenStream {
    let impl_ = toolbox_impl(block, &toolbox.krate, &toolbox.tools);
    let block = with_asks(toolbox, block);
    quote!(#block const _: () = { #impl_ };)
}

/// The block with each tool method's context rebound to its declared questions.
fn with_asks(toolbox: &Toolbox, block: &syn::ItemImpl) -> syn::ItemImpl {
    let mut block = block.clone();
    for item in &mut block.items {
        let syn::ImplItem::Fn(method) = item else {
            continue;
        };
        if let Some(tool) = toolbox
            .tools
            .iter()
            .find(|t| t.sig.ident == method.sig.ident)
        {
            method.block = asks::rebind(&tool.krate, &tool.asks, &tool.sig, &method.block);
        }
    }
    block
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
pub fn stub(block: &syn::ItemImpl, krate: &syn::Path) -> TokenStream {
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
