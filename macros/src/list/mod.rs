//! `tools![..]`, `prompts![..]` and `resources![..]`: collect annotated functions into a set.
//! Names live in each item's own expansion, so duplicates are found by a `const` assertion per
//! entry, spanned at the later entry; the same path listed twice is caught here directly.

use crate::common::args::crate_path;
use crate::diag::{err_at, err_on};
use crate::paths::{Paths, PrivatePath};
use crate::symbols::{PROMPT, RESOURCE, TOOL};
use darling::error::Accumulator;
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
    /// The macro's name: `tools`.
    fn mac(self) -> &'static str {
        match self {
            Kind::Tools => "tools",
            Kind::Prompts => "prompts",
            Kind::Resources => "resources",
        }
    }

    /// The attribute whose functions it lists: `tool`.
    fn attr(self) -> &'static str {
        match self {
            Kind::Tools => TOOL,
            Kind::Prompts => PROMPT,
            Kind::Resources => RESOURCE,
        }
    }

    /// The set it builds: `ToolSet`.
    fn set(self, paths: &Paths) -> PrivatePath<'_> {
        match self {
            Kind::Tools => paths.tool_set(),
            Kind::Prompts => paths.prompt_set(),
            Kind::Resources => paths.resource_set(),
        }
    }

    /// The trait of an entry's hidden type: `ToolHandler`.
    fn handler(self, paths: &Paths) -> PrivatePath<'_> {
        match self {
            Kind::Tools => paths.tool_handler(),
            Kind::Prompts => paths.prompt_handler(),
            Kind::Resources => paths.resource_handler(),
        }
    }

    /// The handler's constant that must be unique in a set: `NAME`, or `URI` for resources.
    fn key(self) -> syn::Ident {
        let key = match self {
            Kind::Tools | Kind::Prompts => "NAME",
            Kind::Resources => "URI",
        };
        syn::Ident::new(key, Span::call_site())
    }
}

/// `[crate = ::path;] a, b::c`, as written.
struct ListArgs {
    /// `crate = ::path;`: where the runtime is.
    krate: Option<Path>,
    /// The listed functions' paths.
    items: Punctuated<Path, Token![,]>,
}

impl Parse for ListArgs {
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
        Ok(ListArgs {
            krate,
            items: Punctuated::parse_terminated(input)?,
        })
    }
}

/// A checked list.
struct List {
    /// Where the runtime is (checked absolute), so the set's type resolves with the runtime
    /// renamed or re-exported.
    krate: syn::Path,
    /// The listed functions' paths, each distinct as written; a different path to the same name
    /// is caught by the `const` check the expansion emits.
    items: Vec<Path>,
}

/// Expands a list macro.
pub fn expand(kind: Kind, input: TokenStream) -> TokenStream {
    let mut acc = darling::Error::accumulator();
    let list = parse(kind, input, &mut acc).map(|args| model(kind, args, &mut acc));
    let out = match (acc.finish(), list) {
        (Ok(()), Some(list)) => expand_list(kind, &list),
        (result, _) => result
            .err()
            .map(darling::Error::write_errors)
            .unwrap_or_default(),
    };
    crate::common::entry::debug(kind.mac(), &out);
    out
}

/// Parses the list; a syntax error says what the macro takes.
fn parse(kind: Kind, input: TokenStream, acc: &mut Accumulator) -> Option<ListArgs> {
    let (mac, attr) = (kind.mac(), kind.attr());
    acc.handle(syn::parse2(input).map_err(|e| {
        let msg = format!(
            "`{mac}![..]` takes the paths of `#[{attr}]` functions, separated by commas: {e}"
        );
        err_at(e.span(), msg)
    }))
}

/// Checks the crate path and that no path is listed twice (an error at the second).
fn model(kind: Kind, args: ListArgs, acc: &mut Accumulator) -> List {
    let krate = crate_path(args.krate, acc);
    let items: Vec<Path> = args.items.into_iter().collect();
    for (i, path) in items.iter().enumerate() {
        if items[..i].contains(path) {
            acc.push(err_on(
                path,
                format!(
                    "`{}` is listed twice in `{}![..]`; remove one",
                    shown(path),
                    kind.mac()
                ),
            ));
        }
    }
    List { krate, items }
}

/// The set, built from each entry's hidden type, after a `const` uniqueness check per entry.
fn expand_list(kind: Kind, list: &List) -> TokenStream {
    let paths = Paths::new(&list.krate);
    let set = kind.set(&paths);
    let items = &list.items;
    let checks = items
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, later)| unique_check(kind, &paths, later, &items[..i]));
    quote! {{
        #(#checks)*
        #set::new() #(.with::<#items>())*
    }}
}

/// `const _: () = assert_unique(later's key, [earlier keys with messages]);`, every token at
/// `later`, so rustc's const-evaluation error points at it.
fn unique_check(kind: Kind, paths: &Paths, later: &Path, earlier: &[Path]) -> TokenStream {
    let (handler, key, assert_unique) = (kind.handler(paths), kind.key(), paths.assert_unique());
    let earlier = earlier.iter().map(|e| {
        let msg = duplicate_message(kind, later, e);
        quote!((<#e as #handler>::#key, #msg))
    });
    let check = quote! {
        const _: () = #assert_unique(<#later as #handler>::#key, &[#(#earlier),*]);
    };
    respan(check, later.span())
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
