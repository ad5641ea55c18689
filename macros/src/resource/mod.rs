//! `#[resource("uri")]`: a function reading an MCP resource, or a resource template when the URI
//! has `{variables}`; the function's parameters (after an optional context) are the variables.

use crate::common::expand::{args_struct, args_struct_ident, call_user, cx_ident, parsed_ident};
use crate::common::signature::{self, Place, Signature};
use crate::common::{crate_path, docs, unraw};
use crate::diag::{err_at, err_on, known_keys};
use crate::paths::{self, Paths};
use crate::symbols::{RESOURCE, RESOURCE_KEYS};
use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// The keyed arguments of `#[resource("uri", ..)]`.
#[derive(FromMeta, Default)]
struct ResourceArgs {
    /// `name = ".."` (default: the function's name).
    name: Option<syn::LitStr>,
    /// `title = ".."`.
    title: Option<syn::LitStr>,
    /// `description = ".."` (default: the doc comment).
    description: Option<syn::LitStr>,
    /// `mime_type = ".."`.
    mime_type: Option<syn::LitStr>,
    /// `crate = ::path`.
    #[darling(rename = "crate")]
    krate: Option<syn::Path>,
}

/// A validated resource.
struct Resource {
    krate: syn::Path,
    /// The URI or URI template.
    uri: String,
    /// The template's variables (empty for a fixed URI).
    vars: Vec<String>,
    name: String,
    title: Option<String>,
    description: Option<String>,
    mime_type: Option<String>,
    sig: Signature,
}

/// Expands `#[resource("uri", ..)] fn ..`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut func: syn::ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(_) => {
            let e = darling::Error::custom("`#[resource(\"uri\")]` goes on a function")
                .with_span(&Span::call_site())
                .write_errors();
            return quote!(#item #e);
        }
    };
    let mut acc = darling::Error::accumulator();
    let resource = model(args, &func.attrs, &mut func.sig, &mut acc);
    let out = match (acc.finish(), resource) {
        (Ok(()), Some(r)) => expand_model(&r, &func),
        (Err(e), _) => {
            let errors = e.write_errors();
            quote!(#func #errors)
        }
        (Ok(()), None) => quote!(#func),
    };
    crate::debug("resource", &out);
    out
}

fn model(
    args: TokenStream,
    attrs: &[syn::Attribute],
    sig: &mut syn::Signature,
    acc: &mut Accumulator,
) -> Option<Resource> {
    let metas = acc.handle(NestedMeta::parse_meta_list(args).map_err(darling::Error::from))?;
    let mut metas = metas.into_iter();
    let uri_lit = match metas.next() {
        Some(NestedMeta::Lit(syn::Lit::Str(s))) => s,
        _ => {
            acc.push(err_at(
                Span::call_site(),
                "`#[resource]` needs the URI first: `#[resource(\"scheme://path/{id}\")]`",
            ));
            return None;
        }
    };
    let rest = known_keys(RESOURCE, RESOURCE_KEYS, metas.collect(), acc);
    let parsed = acc
        .handle(ResourceArgs::from_list(&rest))
        .unwrap_or_default();
    let krate = crate_path(parsed.krate, acc);
    let uri = uri_lit.value();
    let vars = template_vars(&uri, &uri_lit, acc);
    let sig = signature::analyze(RESOURCE, sig, Place::Free, acc);
    for a in &sig.args {
        if a.flatten {
            continue;
        }
        if !vars.contains(&a.wire) {
            let msg = if vars.is_empty() {
                format!(
                    "`{}` is not a variable of `{uri}`, which has none; a fixed resource takes only the context",
                    a.wire
                )
            } else {
                format!(
                    "`{}` is not a variable of the URI template `{uri}`; its variables are {}",
                    a.wire,
                    vars.join(", ")
                )
            };
            acc.push(err_at(a.span, msg));
        }
    }
    Some(Resource {
        krate,
        uri,
        vars,
        name: parsed
            .name
            .map(|n| n.value())
            .unwrap_or_else(|| unraw(&sig.ident)),
        title: parsed.title.map(|t| t.value()),
        description: parsed
            .description
            .map(|d| d.value())
            .or_else(|| docs(attrs)),
        mime_type: parsed.mime_type.map(|m| m.value()),
        sig,
    })
}

/// The `{variables}` of an RFC 6570 level-1 template, checked for balance and plain names.
fn template_vars(uri: &str, lit: &syn::LitStr, acc: &mut Accumulator) -> Vec<String> {
    if uri.is_empty() || !uri.contains(':') {
        acc.push(err_on(
            lit,
            format!("`{uri}` is not a URI; write `scheme:rest`, e.g. `file:///notes/{{id}}`"),
        ));
    }
    let mut vars = Vec::new();
    let mut rest = uri;
    while let Some(open) = rest.find(['{', '}']) {
        if rest.as_bytes()[open] == b'}' {
            acc.push(err_on(
                lit,
                format!("unbalanced `}}` in the URI template `{uri}`"),
            ));
            break;
        }
        let Some(close) = rest[open..].find('}') else {
            acc.push(err_on(
                lit,
                format!("unclosed `{{` in the URI template `{uri}`"),
            ));
            break;
        };
        let name = &rest[open + 1..open + close];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            acc.push(err_on(
                lit,
                format!(
                    "`{{{name}}}` in `{uri}`: template variables are plain names such as `{{id}}`"
                ),
            ));
        } else if vars.iter().any(|v| v == name) {
            acc.push(err_on(
                lit,
                format!("variable `{name}` appears twice in `{uri}`"),
            ));
        } else {
            vars.push(name.to_owned());
        }
        rest = &rest[open + close + 1..];
    }
    vars
}

fn expand_model(r: &Resource, func: &syn::ItemFn) -> TokenStream {
    let paths = Paths::new(&r.krate);
    let p = paths.private();
    let ident = &r.sig.ident;
    let vis = &func.vis;
    let s = args_struct_ident(ident);
    let has_args = !r.sig.args.is_empty();
    let items = if has_args {
        args_struct(&paths, &s, &r.sig, false)
    } else {
        TokenStream::new()
    };
    let opt = |v: &Option<String>| match v {
        Some(s) => {
            let some = paths::some();
            quote!(#some(#s))
        }
        None => paths::none(),
    };
    let (uri, name) = (&r.uri, &r.name);
    let (title, description, mime) = (opt(&r.title), opt(&r.description), opt(&r.mime_type));
    let templated = !r.vars.is_empty();
    let (cx, parsed) = (cx_ident(), parsed_ident());
    let vars = syn::Ident::new("__rondo_vars", Span::mixed_site());
    let uri_arg = syn::Ident::new("__rondo_uri", Span::mixed_site());
    let parse = if has_args {
        quote!(let #parsed: #s = #p::parse_template_vars::<#s>(#uri_arg, #vars)?;)
    } else {
        quote!(let _ = (#uri_arg, #vars);)
    };
    let call = call_user(&paths, &r.sig, quote!(#ident));
    let output = &r.sig.output;
    let convert =
        quote_spanned!(output.span()=> #p::IntoResourceResult::into_resource_result(__rondo_out));
    let pin = paths::box_pin();
    quote! {
        #func
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis struct #ident {}
        const _: () = {
            #items
            #[automatically_derived]
            impl #p::ResourceHandler for #ident {
                const URI: &'static str = #uri;
                fn definition() -> #p::ResourceDef {
                    #p::resource_definition(#templated, #uri, #name, #title, #description, #mime)
                }
                fn read<'__rondo>(
                    #cx: &'__rondo #p::Cx,
                    #uri_arg: &'__rondo str,
                    #vars: #p::BTreeMap<::std::string::String, ::std::string::String>,
                ) -> #p::BoxFuture<'__rondo, ::core::result::Result<#p::ReadResourceResult, #p::Error>> {
                    #pin(async move {
                        #parse
                        let __rondo_out: #output = #call;
                        #convert
                    })
                }
            }
        };
    }
}
