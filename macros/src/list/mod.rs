//! `tools![..]`, `prompts![..]` and `resources![..]`: collect annotated functions into a set.
//! Names live in each item's own expansion, so duplicates are found by a `const` assertion per
//! entry, spanned at the later entry (`expand.rs`); the same path listed twice is caught here
//! directly.

mod expand;

use crate::common::args::crate_path;
use crate::diag::{err_at, err_on, written};
use crate::paths::{Paths, PrivatePath};
use crate::symbols::{PROMPT, RESOURCE, TOOL};
use darling::error::Accumulator;
use proc_macro2::{Span, TokenStream};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
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
        Ok(ListArgs {
            krate: crate::common::args::crate_prefix(input)?,
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
        (Ok(()), Some(list)) => expand::expand(kind, &list),
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
                    written(path),
                    kind.mac()
                ),
            ));
        }
    }
    List { krate, items }
}
