//! The parameters of a function, sorted into receiver, context and named arguments, or into
//! inputs for a question function; each misplaced or malformed one is an error at it, and the
//! rest are still analysed.

use super::{Arg, Place, peel, rules};
use crate::common::unraw;
use crate::diag::{err_at, err_on};
use crate::keys::known_keys;
use crate::symbols::{ARG, ARG_KEYS, ARGS, ROOTS};
use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{FnArg, Pat, Type};

/// The parameters of a function, sorted out.
pub struct Params {
    /// Whether there is a receiver: a `#[toolbox]` method needs `&self`.
    pub has_self: bool,
    /// The context's referent type, when the first typed parameter is a reference (never for a
    /// question function).
    pub context: Option<Type>,
    /// The name the context parameter binds (`cx` in `cx: &Cx`), when it binds a plain name: a
    /// function with `asks = [..]` rebinds it to the context of its declared questions.
    pub context_binding: Option<syn::Ident>,
    /// Every other typed parameter (every one, for a question function), in order.
    pub args: Vec<Arg>,
}

/// The keys of `#[arg(..)]` on a parameter, as written.
#[derive(FromMeta, Default)]
struct ArgArgs {
    /// `description = ".."`: the argument's description in the schema.
    description: Option<String>,
    /// `rename = ".."`: the name on the wire, when the Rust name cannot be it.
    rename: Option<String>,
}

/// Sorts the parameters of `sig` by `place`.
pub fn params(attr: &str, sig: &mut syn::Signature, place: Place, acc: &mut Accumulator) -> Params {
    let mut params = Params {
        has_self: false,
        context: None,
        context_binding: None,
        args: Vec::new(),
    };
    let mut first_typed = true;
    for input in sig.inputs.iter_mut() {
        match input {
            FnArg::Receiver(r) => {
                params.has_self = true;
                rules::check_receiver(attr, r, place, acc);
            }
            FnArg::Typed(pt) if place == Place::Question => {
                params.args.extend(input_param(attr, pt, acc));
            }
            FnArg::Typed(pt) => {
                let is_first = std::mem::replace(&mut first_typed, false);
                let arg = typed_param(attr, pt, is_first, &mut params.context, acc);
                if arg.is_none() && params.context.is_some() && params.context_binding.is_none() {
                    params.context_binding = binding(&pt.pat);
                }
                params.args.extend(arg);
            }
        }
    }
    params
}

/// One typed parameter: the context (a reference, recorded in `context`) or a named argument.
fn typed_param(
    attr: &str,
    pt: &mut syn::PatType,
    is_first: bool,
    context: &mut Option<Type>,
    acc: &mut Accumulator,
) -> Option<Arg> {
    let (flatten, arg_meta) = take_param_attrs(&mut pt.attrs, acc);
    if let Type::Reference(r) = peel(&pt.ty) {
        context_param(attr, r, is_first, flatten, context, acc);
        return None;
    }
    let ident = plain_name(attr, Place::Free, &pt.pat, acc)?;
    let wire = arg_meta.rename.clone().unwrap_or_else(|| unraw(&ident));
    Some(Arg {
        ident,
        ty: (*pt.ty).clone(),
        wire,
        description: arg_meta.description,
        flatten: flatten.is_some(),
        span: pt.span(),
    })
}

/// The plain name a parameter pattern binds (`cx`, `mut cx`), if it is one.
fn binding(pat: &Pat) -> Option<syn::Ident> {
    match pat {
        Pat::Ident(p) if p.subpat.is_none() && p.by_ref.is_none() => Some(p.ident.clone()),
        _ => None,
    }
}

/// One input of a question function: any type the caller can pass, references included, except
/// `impl Trait` (the question's type names each input). `#[arg]`/`#[args]` describe tool
/// arguments, which an input is not: each is an error at it.
fn input_param(attr: &str, pt: &mut syn::PatType, acc: &mut Accumulator) -> Option<Arg> {
    pt.attrs.retain(|a| {
        let ours = a.path().is_ident(ARG) || a.path().is_ident(ARGS);
        if ours {
            acc.push(err_on(
                a.path(),
                format!(
                    "`#[{}]` describes tool arguments, and `#[{attr}]` inputs come from the code that asks; remove it",
                    crate::diag::written(a.path())
                ),
            ));
        }
        !ours
    });
    if let Type::ImplTrait(it) = peel(&pt.ty) {
        acc.push(err_on(
            &it.impl_token,
            format!(
                "`#[{attr}]` inputs cannot be `impl Trait`: the question's type names each input; write the concrete type"
            ),
        ));
        return None;
    }
    let ident = plain_name(attr, Place::Question, &pt.pat, acc)?;
    Some(Arg {
        wire: unraw(&ident),
        ident,
        ty: (*pt.ty).clone(),
        description: None,
        flatten: false,
        span: pt.span(),
    })
}

/// The name of a plain `name` pattern (arguments are looked up by it); any other pattern is an
/// error at it.
fn plain_name(attr: &str, place: Place, pat: &Pat, acc: &mut Accumulator) -> Option<syn::Ident> {
    match pat {
        Pat::Ident(p) if p.subpat.is_none() && p.by_ref.is_none() => Some(p.ident.clone()),
        _ => {
            // A roots question has no body: its fallback reads the inputs.
            let body = if attr == ROOTS {
                "the fallback"
            } else {
                "the body"
            };
            acc.push(err_on(
                pat,
                format!(
                    "`#[{attr}]` {} must be plain names such as `city`, not patterns; bind the value to a name and destructure it in {body}",
                    place.params()
                ),
            ));
            None
        }
    }
}

/// The context parameter: first, borrowed shared, not `#[args]`; recorded in `context`.
fn context_param(
    attr: &str,
    r: &syn::TypeReference,
    is_first: bool,
    flatten: Option<Span>,
    context: &mut Option<Type>,
    acc: &mut Accumulator,
) {
    if !is_first {
        acc.push(err_on(
            r,
            format!(
                "a reference parameter is the context and must come first; `#[{attr}]` arguments are owned \
                 values (write `String` rather than `&str`)"
            ),
        ));
    } else if let Some(m) = &r.mutability {
        acc.push(err_on(
            m,
            "the context is borrowed shared; write `&Cx`, not `&mut Cx`",
        ));
    } else if let Some(span) = flatten {
        acc.push(err_at(
            span,
            "`#[args]` cannot be the context; put it on an owned struct argument",
        ));
    } else {
        *context = Some((*r.elem).clone());
    }
}

/// Removes `#[args]` and `#[arg(..)]` from a parameter and reads them; the span is that of
/// `#[args]`, when present.
fn take_param_attrs(
    attrs: &mut Vec<syn::Attribute>,
    acc: &mut Accumulator,
) -> (Option<Span>, ArgArgs) {
    let mut flatten = None;
    let mut meta = ArgArgs::default();
    attrs.retain(|a| {
        if a.path().is_ident(ARGS) {
            if let Some(extra) = args_extra(&a.meta) {
                acc.push(err_at(
                    extra,
                    "`#[args]` takes no arguments; write `#[args]`",
                ));
            }
            flatten = Some(a.path().span());
            false
        } else if a.path().is_ident(ARG) {
            if let Some(m) = arg_attr(a, acc) {
                meta = m;
            }
            false
        } else {
            true
        }
    });
    (flatten, meta)
}

/// Reads one `#[arg(..)]`; `None` when it is malformed (the error is reported).
fn arg_attr(a: &syn::Attribute, acc: &mut Accumulator) -> Option<ArgArgs> {
    let list = match &a.meta {
        syn::Meta::List(l) => {
            NestedMeta::parse_meta_list(l.tokens.clone()).map_err(darling::Error::from)
        }
        _ => Err(err_on(
            a.path(),
            "`#[arg]` takes arguments; write `#[arg(description = \"...\")]` or `#[arg(rename = \"...\")]`",
        )),
    };
    let list = known_keys(ARG, ARG_KEYS, acc.handle(list)?, acc);
    acc.handle(ArgArgs::from_list(&list))
}

/// Where `#[args(..)]` or `#[args = ..]` goes beyond `#[args]`.
fn args_extra(meta: &syn::Meta) -> Option<Span> {
    match meta {
        syn::Meta::List(l) => Some(l.delimiter.span().join()),
        syn::Meta::NameValue(nv) => Some(nv.eq_token.span),
        syn::Meta::Path(_) => None,
    }
}
