//! The validated `#[derive(Elicit)]`: every user error is raised here.

use super::parse::{Attrs, Body, ElicitArgs, FieldArgs, FieldInput, SerdeNames, VariantInput};
use super::rename::{RULES, Rule};
use super::secrets::secret_term;
use super::values::{Format, Number, check_order, counts, format, number, texts};
use crate::common::unraw;
use crate::diag::{err_at, err_on};
use crate::keys::suggest;
use crate::symbols::{ELICIT, Value};
use darling::error::Accumulator;
use proc_macro2::Span;
use syn::{Expr, LitStr};

/// What the derive implements.
pub enum Derived {
    /// A struct: a form.
    Form(Form),
    /// A unit enum: the options of a choice.
    Choice(Choice),
}

/// A form: `Elicit` for a struct.
pub struct Form {
    /// Where the runtime is (`crate = ..`), so the expansion works with the runtime renamed.
    pub krate: syn::Path,
    /// The struct.
    pub ident: syn::Ident,
    /// Its fields, in declaration order: the order of `properties` and of `FIELDS`.
    pub fields: Vec<Field>,
}

/// One form field.
pub struct Field {
    /// The struct's field, initialised from the answer.
    pub ident: syn::Ident,
    /// Its type, spliced at the user's span so a type outside the form subset is one error there.
    pub ty: syn::Type,
    /// Its name on the wire: `#[elicit(rename)]`, else `#[serde(rename)]`, else the field's
    /// name under the container's `rename_all`.
    pub wire: String,
    /// `title`: `title = ".."`, else the doc comment's first paragraph.
    pub title: Option<String>,
    /// `description`: `description = ".."`, else the rest of the doc comment (all of it when
    /// `title = ".."` is given).
    pub description: Option<String>,
    /// `default = expr`: shown in the schema; taken when the answer leaves the field out.
    pub default: Option<Expr>,
    /// `min = ..` (`minimum`).
    pub min: Option<Number>,
    /// `max = ..` (`maximum`).
    pub max: Option<Number>,
    /// `min_length = ..`.
    pub min_length: Option<u64>,
    /// `max_length = ..`.
    pub max_length: Option<u64>,
    /// `min_items = ..`.
    pub min_items: Option<u64>,
    /// `max_items = ..`.
    pub max_items: Option<u64>,
    /// `format = ".."`, checked to be one of the four the spec allows.
    pub format: Option<Format>,
    /// Whether a yes/no answer in this field counts as consent (not `not_consent`).
    pub consent: bool,
    /// The keys written that only fit some kinds of field, checked against the type at compile
    /// time by the expansion.
    pub kind_checks: Vec<KindCheck>,
}

/// A key that fits only some kinds of field, and where it was written.
pub struct KindCheck {
    /// The key as written: `format`, `min`, ...
    pub key: &'static str,
    /// Where the key was written: the error's span.
    pub span: Span,
    /// The kind it needs.
    pub needs: Needs,
    /// `name: Type` as written, for the message.
    pub field: String,
}

/// The kinds of field a key fits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Needs {
    /// Free text (`format`, `min_length`, `max_length`).
    String,
    /// A number or integer (`min`, `max`).
    Number,
    /// A multiple choice (`min_items`, `max_items`).
    MultiSelect,
    /// A yes/no answer (`not_consent`).
    Boolean,
}

/// The options of a choice: `ElicitEnum` and `FormField` for a unit enum.
pub struct Choice {
    /// Where the runtime is.
    pub krate: syn::Path,
    /// The enum.
    pub ident: syn::Ident,
    /// Its variants, in declaration order: the order the client shows.
    pub options: Vec<ChoiceOption>,
    /// `legacy_enum_names`: a titled choice renders as `enum` + `enumNames` on 2025-11-25.
    pub legacy_names: bool,
}

/// One option.
pub struct ChoiceOption {
    /// The variant.
    pub ident: syn::Ident,
    /// Its value on the wire: `rename`, else serde's, else the variant under `rename_all`.
    pub wire: String,
    /// `title = ".."`, else the doc comment's first paragraph.
    pub title: Option<String>,
}

/// Validates the input. The `crate` path and the type's name come back even with errors, for
/// the stub impls that keep one mistake to one error.
pub fn model(args: ElicitArgs, acc: &mut Accumulator) -> (syn::Path, Option<Derived>) {
    let krate = crate::common::args::crate_path(args.container.args.krate.clone(), acc);
    check_generics(&args.generics, acc);
    let rule = rename_rule(&args.container, &args.serde, acc);
    let legacy = &args.container.args.legacy_enum_names;
    let legacy_names = legacy.is_present();
    let ident = args.ident;
    if legacy_names && !matches!(args.body, Body::Variants(..)) {
        acc.push(err_at(
            legacy.span(),
            "`legacy_enum_names` goes on a unit enum (a choice), where it renders the legacy `enumNames` form for 2025-11-25 clients; remove it here",
        ));
    }
    let derived = match args.body {
        Body::Fields(fields) => {
            let fields = form_fields(fields, rule, acc);
            Some(Derived::Form(Form {
                krate: krate.clone(),
                ident,
                fields,
            }))
        }
        Body::Variants(variants, braces) => {
            let options = options(variants, braces, rule, acc);
            Some(Derived::Choice(Choice {
                krate: krate.clone(),
                ident,
                options,
                legacy_names,
            }))
        }
        Body::TupleStruct(span) => {
            acc.push(err_at(span, format!("`#[derive(Elicit)]` on a struct needs named fields: each is a question with a name on the wire; write `struct {ident} {{ name: Type }}`")));
            None
        }
        Body::UnitStruct => {
            acc.push(err_on(&ident, format!("`#[derive(Elicit)]` on a struct needs named fields, and `{ident}` has none; add the form's fields: `struct {ident} {{ name: Type }}`")));
            None
        }
        Body::Union(span) => {
            acc.push(err_at(span, "`#[derive(Elicit)]` goes on a struct with named fields (a form) or on an enum of unit variants (a choice), not on a union"));
            None
        }
    };
    (krate, derived)
}

/// A form's fields are concrete: the schema is rendered from the types.
fn check_generics(generics: &syn::Generics, acc: &mut Accumulator) {
    if let Some(param) = generics.params.first() {
        acc.push(err_on(param, "`#[derive(Elicit)]` does not take generic parameters: a form's schema comes from its field types; use concrete types"));
    }
}

/// The container's `rename_all` (ours first, then serde's).
fn rename_rule(
    container: &Attrs<super::parse::ContainerArgs>,
    serde: &SerdeNames,
    acc: &mut Accumulator,
) -> Option<Rule> {
    let lit = container
        .args
        .rename_all
        .as_ref()
        .or(serde.rename_all.as_ref())?;
    let name = lit.value();
    let rule = Rule::from_name(&name);
    if rule.is_none() {
        let keys: Vec<(&'static str, Value)> =
            RULES.iter().map(|(n, _)| (*n, Value::Str)).collect();
        let hint = match suggest(&name, &keys, |_| true) {
            Some((s, _)) => format!("did you mean `{s}`?"),
            None => format!("use one of {}", quoted(RULES.iter().map(|(n, _)| *n))),
        };
        acc.push(err_on(
            lit,
            format!("unknown `rename_all` rule `{name}`; {hint}"),
        ));
    }
    rule
}

fn quoted<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The fields, with a wire name used twice refused at the second.
fn form_fields(inputs: Vec<FieldInput>, rule: Option<Rule>, acc: &mut Accumulator) -> Vec<Field> {
    let mut fields: Vec<Field> = Vec::new();
    for input in inputs {
        let field = field(input, rule, acc);
        if fields.iter().any(|f| f.wire == field.wire) {
            acc.push(err_on(&field.ident, format!("two form fields are named `{}` on the wire; rename one with `#[{ELICIT}(rename = \"...\")]`", field.wire)));
        }
        fields.push(field);
    }
    fields
}

/// One field: names, texts, bounds, and the checks of its keys.
fn field(input: FieldInput, rule: Option<Rule>, acc: &mut Accumulator) -> Field {
    let a = &input.elicit.args;
    let rename = a.rename.as_ref().or(input.serde.rename.as_ref());
    let own = unraw(&input.ident);
    let wire = rename.map_or_else(
        || rule.map_or_else(|| own.clone(), |r| r.field(&own)),
        LitStr::value,
    );
    if !a.not_secret {
        check_secret(&own, &input.ident, &wire, rename, acc);
    }
    let (title, description) = texts(a.title.as_ref(), a.description.as_ref(), &input.attrs);
    let shown = format!("{own}: {}", shown_type(&input.ty));
    let (min, max) = (
        number(a.min.as_ref().map(|e| &e.0), "min", acc),
        number(a.max.as_ref().map(|e| &e.0), "max", acc),
    );
    check_order(
        min.map(Number::as_f64),
        max.map(Number::as_f64),
        ("min", "max"),
        a.max.as_ref().map(|e| &e.0),
        acc,
    );
    let counts = counts(a, acc);
    Field {
        kind_checks: kind_checks(&input.elicit, &shown),
        format: format(a.format.as_ref(), acc),
        consent: !a.not_consent,
        default: a.default.as_ref().map(|d| d.0.clone()),
        ident: input.ident,
        ty: input.ty,
        wire,
        title,
        description,
        min,
        max,
        min_length: counts[0],
        max_length: counts[1],
        min_items: counts[2],
        max_items: counts[3],
    }
}

/// The keys that fit only some kinds of field.
fn kind_checks(attrs: &Attrs<FieldArgs>, field: &str) -> Vec<KindCheck> {
    const KEYS: &[(&str, Needs)] = &[
        ("format", Needs::String),
        ("min_length", Needs::String),
        ("max_length", Needs::String),
        ("min", Needs::Number),
        ("max", Needs::Number),
        ("min_items", Needs::MultiSelect),
        ("max_items", Needs::MultiSelect),
        ("not_consent", Needs::Boolean),
    ];
    KEYS.iter()
        .filter(|(k, _)| attrs.keys.iter().any(|(w, _)| w == k))
        .map(|(key, needs)| KindCheck {
            key,
            span: attrs.span(key),
            needs: *needs,
            field: field.to_owned(),
        })
        .collect()
}

/// A type as written, for messages: `Option<u32>`.
fn shown_type(ty: &syn::Type) -> String {
    quote::quote!(#ty).to_string().replace(' ', "")
}

/// A field or option whose Rust name or wire name looks like a secret is refused (MCP forbids
/// secrets in form mode): at the name, or at the rename literal when only the wire name does.
fn check_secret(
    own: &str,
    ident: &syn::Ident,
    wire: &str,
    rename: Option<&LitStr>,
    acc: &mut Accumulator,
) {
    let (term, span, named) = match (secret_term(own), secret_term(wire), rename) {
        (Some(term), _, _) => (term, ident.span(), String::new()),
        (None, Some(term), Some(lit)) => {
            (term, lit.span(), format!(", named `{wire}` on the wire,"))
        }
        _ => return,
    };
    acc.push(err_at(span, format!("form field `{own}`{named} looks like a secret (`{term}`): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; ask for it with a URL-mode question (`#[{ELICIT}(url)]`) instead, or mark the field `#[{ELICIT}(not_secret)]` if it is not a secret")));
}

/// The options of a unit enum: at least one, each without fields, wire values distinct.
fn options(
    variants: Vec<VariantInput>,
    braces: Span,
    rule: Option<Rule>,
    acc: &mut Accumulator,
) -> Vec<ChoiceOption> {
    if variants.is_empty() {
        acc.push(err_at(braces, "`#[derive(Elicit)]` on an enum needs at least one variant: each variant is an option the user can pick"));
    }
    let mut options: Vec<ChoiceOption> = Vec::new();
    for v in variants {
        if !v.fields.is_empty() {
            acc.push(err_on(&v.ident, format!("`#[derive(Elicit)]` enums are a choice among unit variants, and `{}` carries data; remove its fields, or ask for them in a form of their own", v.ident)));
        }
        let a = &v.elicit.args;
        let own = unraw(&v.ident);
        let rename = a.rename.as_ref().or(v.serde.rename.as_ref());
        let wire = rename.map_or_else(
            || rule.map_or_else(|| own.clone(), |r| r.variant(&own)),
            LitStr::value,
        );
        if options.iter().any(|o| o.wire == wire) {
            acc.push(err_on(&v.ident, format!("two options are named `{wire}` on the wire; rename one with `#[{ELICIT}(rename = \"...\")]`")));
        }
        let (title, _) = texts(a.title.as_ref(), None, &v.attrs);
        options.push(ChoiceOption {
            ident: v.ident,
            wire,
            title,
        });
    }
    options
}
