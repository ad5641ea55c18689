//! `#[toolbox]` expansion. Cannot fail: the model has checked everything.

use super::model::Toolbox;
use crate::common::asks::{self, Group};
use crate::common::expand::{arguments_ident, cx_ident};
use crate::paths::{NONE, OPTION, PANIC, Paths, SOME, STR, VEC, VEC_MACRO};
use crate::tool::expand::{parts, task_mode};
use crate::tool::model::Tool;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};

/// The block (each tool method's context rebound to its questions), then its `ToolBox` impl in
/// a `const _` block, in the scope that declares the methods' questions.
pub fn expand(toolbox: &Toolbox, block: &syn::ItemImpl) -> TokenStream {
    let impl_ = toolbox_impl(block, &toolbox.krate, &toolbox.tools);
    with_asks(toolbox, block, impl_)
}

/// The `N`th tool's questions, numbered as its `AsksOf<N>` set.
fn group(index: usize, tool: &Tool) -> Group<'_> {
    Group {
        asks: &tool.asks,
        index,
    }
}

/// The block with each tool method's context rebound to its set, `<Self as AsksOf<N>>::Set`,
/// then a `const _` block with the methods' questions in scope: for each method, its set (a
/// struct named after the method), the set's `AsksOf<N>` impl for the block's type and the
/// questions' `Declared` impls; then `inner`.
fn with_asks(toolbox: &Toolbox, block: &syn::ItemImpl, inner: TokenStream) -> TokenStream {
    let paths = Paths::new(&toolbox.krate);
    let asks_of = paths.asks_of();
    let (impl_generics, _, where_clause) = block.generics.split_for_impl();
    let self_ty = &block.self_ty;
    let mut block = block.clone();
    let mut sets = Vec::new();
    for (index, tool) in toolbox.tools.iter().enumerate() {
        let Some(method) = method(&mut block, &tool.sig.ident) else {
            continue;
        };
        if tool.sig.context_binding.is_none() {
            continue;
        }
        let n = proc_macro2::Literal::usize_unsuffixed(index);
        let set = quote!(<Self as #asks_of<#n>>::Set);
        method.block = asks::rebind(&tool.krate, &tool.sig, set, &method.block);
        let set = set_ident(&tool.sig.ident, &block.self_ty);
        let declared = asks::declare(&paths, group(index, tool), &quote!(#set));
        sets.push(quote! {
            const _: () = {
                #[allow(non_camel_case_types, unreachable_pub)]
                pub struct #set {}
                #[automatically_derived]
                impl #impl_generics #asks_of<#n> for #self_ty #where_clause {
                    type Set = #set;
                }
                #declared
            };
        });
    }
    let groups: Vec<Group> = toolbox
        .tools
        .iter()
        .enumerate()
        .map(|(n, t)| group(n, t))
        .collect();
    let scoped = asks::scope(&paths, &groups, quote!(#(#sets)* #inner));
    quote!(#block const _: () = { #scoped };)
}

/// The method of `block` named `ident`.
fn method<'a>(block: &'a mut syn::ItemImpl, ident: &syn::Ident) -> Option<&'a mut syn::ImplItemFn> {
    block.items.iter_mut().find_map(|item| match item {
        syn::ImplItem::Fn(m) if m.sig.ident == *ident => Some(m),
        _ => None,
    })
}

/// The name of a method's set: the method's, so rustc's notes read `Declared<checkout>`; a
/// hidden one when the block's type mentions that name, which the set would shadow.
fn set_ident(method: &syn::Ident, self_ty: &syn::Type) -> syn::Ident {
    let mentioned = self_ty
        .to_token_stream()
        .into_iter()
        .any(|t| matches!(&t, proc_macro2::TokenTree::Ident(i) if i == method));
    if mentioned {
        quote::format_ident!("__rondo_asks_{}", crate::common::unraw(method))
    } else {
        method.clone()
    }
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
    for (n, tool) in tools.iter().enumerate() {
        let method = &tool.sig.ident;
        let parts = parts(tool, quote!(self.#method), group(n, tool));
        items.push(parts.items);
        defs.push(parts.definition);
        let (name, body) = (&tool.name, &parts.body);
        arms.push(quote!(#name => #SOME(#body),));
    }
    let (tool_box, tool_ty) = (paths.tool_box(), paths.tool());
    let (cx_ty, json_object) = (paths.cx(), paths.json_object());
    let future = paths.handler_future(paths.call_tool_result());
    let task_modes = task_modes(&paths, tools, &name_ident);
    let scopes = scopes(&paths, tools, &name_ident);
    quote! {
        #(#items)*
        #[automatically_derived]
        impl #impl_generics #tool_box for #self_ty #where_clause {
            fn tools(&self) -> #VEC<#tool_ty> {
                #VEC_MACRO![#(#defs),*]
            }
            #task_modes
            #scopes
            fn call<'__rondo>(
                &'__rondo self,
                #cx: &'__rondo #cx_ty,
                #name_ident: &'__rondo #STR,
                #arguments: &'__rondo #json_object,
            ) -> #OPTION<#future> {
                match #name_ident {
                    #(#arms)*
                    _ => #NONE,
                }
            }
        }
    }
}

/// `fn task_mode`, one arm per tool with `task = ..`; nothing when no tool has one (the
/// trait's default answers `None`).
fn task_modes(paths: &Paths, tools: &[Tool], name_ident: &syn::Ident) -> Option<TokenStream> {
    let arms: Vec<TokenStream> = tools
        .iter()
        .filter_map(|tool| {
            let (name, mode) = (&tool.name, task_mode(paths, tool.task?));
            Some(quote!(#name => #mode,))
        })
        .collect();
    if arms.is_empty() {
        return None;
    }
    let task_mode_ty = paths.task_mode();
    Some(quote! {
        fn task_mode(&self, #name_ident: &#STR) -> #OPTION<#task_mode_ty> {
            match #name_ident {
                #(#arms)*
                _ => #NONE,
            }
        }
    })
}

/// `fn scopes`, one arm per tool with `scopes = [..]`; nothing when no tool has them (the
/// trait's default answers none). Each list is a `const`, so the slice is `'static`.
fn scopes(paths: &Paths, tools: &[Tool], name_ident: &syn::Ident) -> Option<TokenStream> {
    let scope = paths.scope();
    let arms: Vec<TokenStream> = tools
        .iter()
        .filter(|tool| !tool.scopes.is_empty())
        .map(|tool| {
            let (name, list) = (
                &tool.name,
                crate::common::expand::scopes(paths, &tool.scopes),
            );
            quote!(#name => {
                const SCOPES: &[#scope] = #list;
                SCOPES
            })
        })
        .collect();
    if arms.is_empty() {
        return None;
    }
    Some(quote! {
        fn scopes(&self, #name_ident: &#STR) -> &[#scope] {
            match #name_ident {
                #(#arms)*
                _ => &[],
            }
        }
    })
}

/// When the model has errors: the block (its methods' contexts rebound and their questions
/// declared, so an ask adds no second error) and a stub `ToolBox` impl, so passing the type to
/// `Router::tools` does not add a second error either.
pub fn stub(toolbox: &Toolbox, block: &syn::ItemImpl) -> TokenStream {
    let paths = Paths::new(&toolbox.krate);
    let (impl_generics, _, where_clause) = block.generics.split_for_impl();
    let self_ty = &block.self_ty;
    let (tool_box, tool_ty) = (paths.tool_box(), paths.tool());
    let (cx_ty, json_object) = (paths.cx(), paths.json_object());
    let future = paths.handler_future(paths.call_tool_result());
    let stub = quote! {
        #[automatically_derived]
        impl #impl_generics #tool_box for #self_ty #where_clause {
            fn tools(&self) -> #VEC<#tool_ty> {
                #PANIC!("a `#[toolbox]` with errors")
            }
            fn call<'__rondo>(
                &'__rondo self,
                _: &'__rondo #cx_ty,
                _: &'__rondo #STR,
                _: &'__rondo #json_object,
            ) -> #OPTION<#future> {
                #PANIC!("a `#[toolbox]` with errors")
            }
        }
    };
    with_asks(toolbox, block, stub)
}
