//! `#[derive(Elicit)]` input as written: the container, its fields or variants, and the
//! `#[elicit(..)]` and `#[serde(..)]` attributes on each, spans kept.

use crate::common::args::meta_list;
use crate::diag::err_on;
use crate::keys::known_keys;
use crate::symbols::{
    ELICIT, ELICIT_CONTAINER_KEYS, ELICIT_FIELD_KEYS, ELICIT_VARIANT_KEYS, Key, SERDE,
};
use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use proc_macro2::{Span, TokenStream};
use syn::{Attribute, Expr, LitStr, Meta};

/// The derive's input.
pub struct ElicitArgs {
    /// The type's name.
    pub ident: syn::Ident,
    /// Its generics (refused by the model).
    pub generics: syn::Generics,
    /// `#[elicit(..)]` on the type.
    pub container: Attrs<ContainerArgs>,
    /// `#[serde(..)]` on the type.
    pub serde: SerdeNames,
    /// What the type is made of.
    pub body: Body,
}

/// A struct's fields, an enum's variants, or what cannot be a form.
pub enum Body {
    /// A struct with named fields.
    Fields(Vec<FieldInput>),
    /// A struct with unnamed fields: the span of its parentheses.
    TupleStruct(Span),
    /// A struct without fields.
    UnitStruct,
    /// An enum: its variants, and the span of its braces.
    Variants(Vec<VariantInput>, Span),
    /// A union: the span of `union`.
    Union(Span),
}

/// One named field.
pub struct FieldInput {
    /// Its name.
    pub ident: syn::Ident,
    /// Its type.
    pub ty: syn::Type,
    /// Its attributes (the doc comment is read from them).
    pub attrs: Vec<Attribute>,
    /// `#[elicit(..)]` on it.
    pub elicit: Attrs<FieldArgs>,
    /// `#[serde(..)]` on it.
    pub serde: SerdeNames,
}

/// One enum variant.
pub struct VariantInput {
    /// Its name.
    pub ident: syn::Ident,
    /// Its fields (an option has none).
    pub fields: syn::Fields,
    /// Its attributes (the doc comment is read from them).
    pub attrs: Vec<Attribute>,
    /// `#[elicit(..)]` on it.
    pub elicit: Attrs<VariantArgs>,
    /// `#[serde(..)]` on it.
    pub serde: SerdeNames,
}

/// Parsed `#[elicit(..)]` arguments and where each key was written.
pub struct Attrs<T> {
    /// The arguments.
    pub args: T,
    /// Each key as written (misspelt keys under the name suggested), with its span.
    pub keys: Vec<(String, Span)>,
}

impl<T> Attrs<T> {
    /// Where `key` was written (the call site if it was not).
    pub fn span(&self, key: &str) -> Span {
        self.keys
            .iter()
            .find(|(k, _)| k == key)
            .map_or_else(Span::call_site, |(_, s)| *s)
    }
}

/// An expression taken as written. (darling reads a string literal given for a `syn::Expr` as
/// the expression inside it; `default = "Ada"` must stay a string.)
pub struct RawExpr(pub Expr);

impl FromMeta for RawExpr {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        Ok(RawExpr(expr.clone()))
    }
}

/// `#[elicit(..)]` on the struct or enum.
#[derive(FromMeta, Default)]
pub struct ContainerArgs {
    /// `rename_all = ".."`: how field (or variant) names become wire names.
    pub rename_all: Option<LitStr>,
    /// `legacy_enum_names` (unit enums): a titled choice renders as the legacy `enum` +
    /// `enumNames` form for 2025-11-25 clients.
    pub legacy_enum_names: darling::util::Flag,
    /// `crate = ::path`: where the runtime is.
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
}

/// `#[elicit(..)]` on a form field.
#[derive(FromMeta, Default)]
pub struct FieldArgs {
    /// `title = ".."`.
    pub title: Option<LitStr>,
    /// `description = ".."`.
    pub description: Option<LitStr>,
    /// `default = expr`.
    pub default: Option<RawExpr>,
    /// `rename = ".."`.
    pub rename: Option<LitStr>,
    /// `min = number`.
    pub min: Option<RawExpr>,
    /// `max = number`.
    pub max: Option<RawExpr>,
    /// `min_length = count`.
    pub min_length: Option<RawExpr>,
    /// `max_length = count`.
    pub max_length: Option<RawExpr>,
    /// `min_items = count`.
    pub min_items: Option<RawExpr>,
    /// `max_items = count`.
    pub max_items: Option<RawExpr>,
    /// `format = ".."`.
    pub format: Option<LitStr>,
    /// `not_secret`.
    #[darling(default)]
    pub not_secret: bool,
    /// `not_consent`.
    #[darling(default)]
    pub not_consent: bool,
}

/// `#[elicit(..)]` on an enum variant.
#[derive(FromMeta, Default)]
pub struct VariantArgs {
    /// `rename = ".."`.
    pub rename: Option<LitStr>,
    /// `title = ".."`.
    pub title: Option<LitStr>,
}

/// The renames of a `#[serde(..)]` attribute; its other keys are serde's business.
#[derive(Default)]
pub struct SerdeNames {
    /// `rename = ".."`, or the `deserialize` name of `rename(..)`: the name answers are read by.
    pub rename: Option<LitStr>,
    /// `rename_all = ".."`, or its `deserialize` rule.
    pub rename_all: Option<LitStr>,
}

/// Reads the derive's input.
pub fn parse(input: syn::DeriveInput, acc: &mut Accumulator) -> ElicitArgs {
    let body = match input.data {
        syn::Data::Struct(s) => match s.fields {
            syn::Fields::Named(named) => {
                Body::Fields(named.named.into_iter().map(|f| field(f, acc)).collect())
            }
            syn::Fields::Unnamed(unnamed) => Body::TupleStruct(unnamed.paren_token.span.join()),
            syn::Fields::Unit => Body::UnitStruct,
        },
        syn::Data::Enum(e) => Body::Variants(
            e.variants.into_iter().map(|v| variant(v, acc)).collect(),
            e.brace_token.span.join(),
        ),
        syn::Data::Union(u) => Body::Union(u.union_token.span),
    };
    ElicitArgs {
        container: elicit_attrs(&input.attrs, ELICIT_CONTAINER_KEYS, acc),
        serde: serde_names(&input.attrs, acc),
        ident: input.ident,
        generics: input.generics,
        body,
    }
}

fn field(f: syn::Field, acc: &mut Accumulator) -> FieldInput {
    FieldInput {
        elicit: elicit_attrs(&f.attrs, ELICIT_FIELD_KEYS, acc),
        serde: serde_names(&f.attrs, acc),
        // Named fields always have an identifier.
        ident: f
            .ident
            .unwrap_or_else(|| syn::Ident::new("_", Span::call_site())),
        ty: f.ty,
        attrs: f.attrs,
    }
}

fn variant(v: syn::Variant, acc: &mut Accumulator) -> VariantInput {
    VariantInput {
        elicit: elicit_attrs(&v.attrs, ELICIT_VARIANT_KEYS, acc),
        serde: serde_names(&v.attrs, acc),
        ident: v.ident,
        fields: v.fields,
        attrs: v.attrs,
    }
}

/// Every `#[elicit(..)]` in `attrs`, read together: a key repeated across two of them is a
/// duplicate like one repeated in one.
fn elicit_attrs<T: FromMeta + Default>(
    attrs: &[Attribute],
    keys: &[Key],
    acc: &mut Accumulator,
) -> Attrs<T> {
    let mut metas = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident(ELICIT)) {
        match &attr.meta {
            Meta::List(list) => {
                metas.extend(meta_list(list.tokens.clone(), acc).unwrap_or_default())
            }
            other => acc.push(err_on(
                other,
                format!(
                    "`#[{ELICIT}]` takes a list of arguments: write `#[{ELICIT}({} = ..)]`",
                    keys[0].0
                ),
            )),
        }
    }
    let kept = known_keys(ELICIT, keys, metas, acc);
    let keys = kept.iter().filter_map(key_of).collect();
    let args = acc.handle(T::from_list(&kept)).unwrap_or_default();
    Attrs { args, keys }
}

/// The key of an argument and its span.
fn key_of(meta: &NestedMeta) -> Option<(String, Span)> {
    match meta {
        NestedMeta::Meta(m) => m.path().get_ident().map(|i| (i.to_string(), i.span())),
        _ => None,
    }
}

/// The renames in every `#[serde(..)]` of `attrs`. Other keys and their values are skipped
/// unread; a rename that is not a string literal is an error, since the form could not follow it.
fn serde_names(attrs: &[Attribute], acc: &mut Accumulator) -> SerdeNames {
    let mut names = SerdeNames::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident(SERDE)) {
        let read = attr.parse_nested_meta(|meta| {
            let slot = if meta.path.is_ident("rename") {
                &mut names.rename
            } else if meta.path.is_ident("rename_all") {
                &mut names.rename_all
            } else {
                return skip(&meta);
            };
            if let Some(name) = renamed(&meta)? {
                *slot = Some(name);
            }
            Ok(())
        });
        if let Err(e) = read {
            acc.push(darling::Error::from(e));
        }
    }
    names
}

/// `= ".."`, or the `deserialize` name of `(serialize = "..", deserialize = "..")`.
fn renamed(meta: &syn::meta::ParseNestedMeta) -> syn::Result<Option<LitStr>> {
    if meta.input.peek(syn::Token![=]) {
        return meta.value()?.parse().map(Some);
    }
    let mut de = None;
    meta.parse_nested_meta(|inner| {
        let lit: LitStr = inner.value()?.parse()?;
        if inner.path.is_ident("deserialize") {
            de = Some(lit);
        }
        Ok(())
    })?;
    Ok(de)
}

/// Skips the value of a serde key this derive does not read.
fn skip(meta: &syn::meta::ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        content.parse::<TokenStream>()?;
    }
    Ok(())
}
