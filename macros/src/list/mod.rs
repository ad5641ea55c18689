//! `tools![..]`, `prompts![..]` and `resources![..]`: collect annotated functions into a set.
//! Names live in each item's own expansion, so duplicates are found by a `const` assertion per
//! entry, spanned at the later entry; the same path listed twice is caught here directly.

use crate::common::crate_path;
use crate::diag::err_on;
use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Path, Token};

/// Which list.
#[derive(Clone, Copy)]
pub enum Kind {
    /// `tools![..]`.
    Tools,
    /// `prompts![..]`.
    Prompts,
    /// `resources![..]`.
    Resources,
}

impl Kind {
    fn names(
        self,
    ) -> (
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
    ) {
        // (macro, set type, trait, const, attribute)
        match self {
            Kind::Tools => ("tools", "ToolSet", "ToolHandler", "NAME", "tool"),
            Kind::Prompts => ("prompts", "PromptSet", "PromptHandler", "NAME", "prompt"),
            Kind::Resources => (
                "resources",
                "ResourceSet",
                "ResourceHandler",
                "URI",
                "resource",
            ),
        }
    }
}

/// `[crate = ::path;] a, b::c`.
struct List {
    krate: Option<Path>,
    items: Punctuated<Path, Token![,]>,
}

impl Parse for List {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let krate = if input.peek(Token![crate]) && input.peek2(Token![=]) {
            input.parse::<Token![crate]>()?;
            input.parse::<Token![=]>()?;
            let p: Path = input.parse()?;
            input.parse::<Token![;]>()?;
            Some(p)
        } else {
            None
        };
        Ok(List {
            krate,
            items: Punctuated::parse_terminated(input)?,
        })
    }
}

/// Expands a list macro.
pub fn expand(kind: Kind, input: TokenStream) -> TokenStream {
    let (mac, set, tr, constant, attr) = kind.names();
    let list: List = match syn::parse2(input) {
        Ok(l) => l,
        Err(e) => {
            let msg = format!(
                "`{mac}![..]` takes the paths of `#[{attr}]` functions, separated by commas: {e}"
            );
            return syn::Error::new(e.span(), msg).to_compile_error();
        }
    };
    let mut acc = darling::Error::accumulator();
    let krate = crate_path(list.krate, &mut acc);
    let items: Vec<&Path> = list.items.iter().collect();
    for (i, path) in items.iter().enumerate() {
        if items[..i].iter().any(|earlier| earlier == path) {
            acc.push(err_on(
                *path,
                format!(
                    "`{}` is listed twice in `{mac}![..]`; remove one",
                    shown(path)
                ),
            ));
        }
    }
    if let Err(e) = acc.finish() {
        return e.write_errors();
    }
    let p = quote!(#krate::__private);
    let set = syn::Ident::new(set, Span::call_site());
    let tr = syn::Ident::new(tr, Span::call_site());
    let constant = syn::Ident::new(constant, Span::call_site());
    let checks = items.iter().enumerate().skip(1).map(|(i, later)| {
        let earlier = items[..i].iter().map(|e| {
            let msg = duplicate_message(kind, later, e);
            quote!((<#e as #p::#tr>::#constant, #msg))
        });
        let check = quote! {
            const _: () = #p::assert_unique(<#later as #p::#tr>::#constant, &[#(#earlier),*]);
        };
        // Every token at the later entry, so rustc's const-evaluation error points at it.
        respan(check, later.span())
    });
    let out = quote! {{
        #(#checks)*
        #p::#set::new() #(.with::<#items>())*
    }};
    crate::debug(mac, &out);
    out
}

/// The message when `later` has the name (or URI) of `earlier`, both as written in the list.
fn duplicate_message(kind: Kind, later: &Path, earlier: &Path) -> String {
    let (later, earlier) = (shown(later), shown(earlier));
    match kind {
        Kind::Tools => format!(
            "`{later}` has the same tool name as `{earlier}`, earlier in this `tools![..]`; \
             rename one with `#[tool(name = \"...\")]`"
        ),
        Kind::Prompts => format!(
            "`{later}` has the same prompt name as `{earlier}`, earlier in this `prompts![..]`; \
             rename one with `#[prompt(name = \"...\")]`"
        ),
        Kind::Resources => format!(
            "`{later}` serves the same URI as `{earlier}`, earlier in this `resources![..]`; \
             give one another URI"
        ),
    }
}

/// A path as written, without spaces.
fn shown(path: &Path) -> String {
    quote!(#path).to_string().replace(' ', "")
}

/// `tokens` with every span located at `span`, keeping each token's name resolution.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(g.span().located_at(span));
                TokenTree::Group(group)
            }
            mut other => {
                other.set_span(other.span().located_at(span));
                other
            }
        })
        .collect()
}
