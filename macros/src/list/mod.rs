//! `tools![..]`, `prompts![..]` and `resources![..]`: collect annotated functions into a set.
//! Names live in each item's own expansion, so duplicates are found by a `const` assertion per
//! entry, spanned at the later entry; the same path listed twice is caught here directly.

use crate::common::crate_path;
use crate::diag::err_on;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
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
            let shown = quote!(#path).to_string().replace(' ', "");
            acc.push(err_on(
                *path,
                format!("`{shown}` is listed twice in `{mac}![..]`; remove one"),
            ));
        }
    }
    if let Err(e) = acc.finish() {
        return e.write_errors();
    }
    let p = quote!(#krate::__private);
    let set = syn::Ident::new(set, proc_macro2::Span::call_site());
    let tr = syn::Ident::new(tr, proc_macro2::Span::call_site());
    let constant = syn::Ident::new(constant, proc_macro2::Span::call_site());
    let assert = syn::Ident::new(
        &format!("assert_unique_{attr}"),
        proc_macro2::Span::call_site(),
    );
    let checks = items.iter().enumerate().skip(1).map(|(i, path)| {
        let earlier = &items[..i];
        quote_spanned! {path.span()=>
            const _: () = #p::#assert(<#path as #p::#tr>::#constant, &[#(<#earlier as #p::#tr>::#constant),*]);
        }
    });
    let out = quote! {{
        #(#checks)*
        #p::#set::new() #(.with::<#items>())*
    }};
    crate::debug(mac, &out);
    out
}
