//! `#[toolbox(..)]` arguments and the `impl` block, as written.

use crate::common::args::{from_metas, meta_list};
use crate::common::verbatim_fn;
use crate::symbols::{TOOLBOX, TOOLBOX_KEYS};
use darling::FromMeta;
use darling::error::Accumulator;
use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use syn::parse::discouraged::Speculative;
use syn::parse::{ParseStream, Parser};

/// The arguments of `#[toolbox(..)]`.
#[derive(FromMeta, Default)]
pub struct ToolboxArgs {
    /// `crate = ::path`: where the runtime is; the methods' `#[tool]`s inherit it.
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
}

/// Parses `#[toolbox(..)]`, reporting unknown keys with suggestions.
pub fn parse(args: TokenStream, acc: &mut Accumulator) -> ToolboxArgs {
    let metas = meta_list(args, acc).unwrap_or_default();
    from_metas(TOOLBOX, TOOLBOX_KEYS, metas, acc).unwrap_or_default()
}

/// Parses the `impl` block. A method whose body does not parse keeps its signature and its body
/// verbatim (rustc reports the syntax error itself), so the toolbox still expands and adds no
/// error of its own.
pub fn parse_impl(item: TokenStream) -> Option<syn::ItemImpl> {
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
