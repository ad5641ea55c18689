//! `#[prompt]`: a function rendering an MCP prompt. Its parameters (after an optional context)
//! are the prompt's arguments, strings on the wire; the listing's `arguments` (names, required,
//! descriptions) come from the same generated schema the arguments parse with.

mod expand;

use crate::common::signature::{self, Place, Signature};
use crate::common::{crate_path, docs, resolve_name};
use crate::diag::{err_on, known_keys};
use crate::symbols::{PROMPT, PROMPT_KEYS};
use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use proc_macro2::{Span, TokenStream};
use quote::quote;

/// The arguments of `#[prompt(..)]`.
#[derive(FromMeta, Default)]
struct PromptArgs {
    /// `name = ".."` (default: the function's name).
    name: Option<syn::LitStr>,
    /// `title = ".."`.
    title: Option<syn::LitStr>,
    /// `description = ".."` (default: the doc comment).
    description: Option<syn::LitStr>,
    /// `crate = ::path`: where the runtime is.
    #[darling(rename = "crate")]
    krate: Option<syn::Path>,
}

/// A validated prompt.
struct Prompt {
    /// Where the runtime is (`crate = ..`, checked absolute), so the expansion works with the
    /// runtime renamed or re-exported.
    krate: syn::Path,
    /// The name `prompts/get` is called with: `name = ..` or the function's name, checked
    /// against the name rules.
    name: String,
    /// `title` in the listing: a display name for people; `None` leaves it out.
    title: Option<String>,
    /// `description` in the listing: `description = ..` or the doc comment; never empty, so a
    /// client can tell prompts apart.
    description: String,
    /// The function's shape: context, arguments and return type to splice.
    sig: Signature,
}

/// Expands `#[prompt(args)] fn ..`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut func = match crate::common::parse_fn(item.clone()) {
        Some(f) => f,
        None => {
            let e = darling::Error::custom(
                "`#[prompt]` goes on a function: `async fn name(..) -> String`",
            )
            .with_span(&Span::call_site())
            .write_errors();
            return quote!(#item #e);
        }
    };
    let mut acc = darling::Error::accumulator();
    let parsed = parse(args, &mut acc);
    let prompt = model(parsed, &func.attrs, &mut func.sig, &mut acc);
    let out = match acc.finish() {
        Ok(()) => expand::expand(&prompt, &func),
        Err(e) => {
            let errors = e.write_errors();
            // In an `impl` block (a receiver), a stub struct would be a second error.
            let stub = func
                .sig
                .receiver()
                .is_none()
                .then(|| expand::stub(&prompt.krate, &func.sig.ident, &func.vis));
            quote!(#func #stub #errors)
        }
    };
    crate::debug("prompt", &out);
    out
}

/// Parses `#[prompt(..)]`, reporting unknown keys with suggestions.
fn parse(args: TokenStream, acc: &mut Accumulator) -> PromptArgs {
    let Some(metas) = acc.handle(NestedMeta::parse_meta_list(args).map_err(darling::Error::from))
    else {
        return PromptArgs::default();
    };
    let metas = known_keys(PROMPT, PROMPT_KEYS, metas, acc);
    acc.handle(PromptArgs::from_list(&metas))
        .unwrap_or_default()
}

/// Validates the prompt function (its signature's `#[arg]`s are stripped in place).
fn model(
    args: PromptArgs,
    attrs: &[syn::Attribute],
    sig: &mut syn::Signature,
    acc: &mut Accumulator,
) -> Prompt {
    let krate = crate_path(args.krate, acc);
    let sig = signature::analyze(PROMPT, sig, Place::Free, acc);
    signature::check_duplicate_args(PROMPT, &sig.args, acc);
    let name = resolve_name(PROMPT, args.name.as_ref(), &sig.ident, acc);
    let description = args
        .description
        .map(|d| d.value())
        .or_else(|| docs(attrs))
        .unwrap_or_default();
    if description.is_empty() {
        acc.push(err_on(
            &sig.ident,
            "`#[prompt]` functions need a description; add a `///` doc comment or `description = \"...\"`",
        ));
    }
    Prompt {
        krate,
        name,
        title: args.title.map(|t| t.value()),
        description,
        sig,
    }
}
