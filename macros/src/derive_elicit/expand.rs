//! `#[derive(Elicit)]` expansion. Cannot fail: the model has checked everything.
//!
//! Every use of a field's type is written `<Type as FormField>::..`, spanned at the type, and
//! the runtime helpers take those items rather than the type: a type outside the form subset then
//! gives the same diagnostic at every use, which rustc prints once.

use super::model::{Choice, Derived, Field, Form, KindCheck, Needs};
use super::values::{Format, Number};
use crate::diag::spanned_at;
use crate::paths::{BOOL, ERR, NONE, OK, OPTION, PANIC, Paths, RESULT, SOME, STR};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

/// The expansion of a valid derive.
pub fn expand(derived: &Derived) -> TokenStream {
    match derived {
        Derived::Form(form) => expand_form(form),
        Derived::Choice(choice) => expand_choice(choice),
    }
}

/// The `const` array of field specs.
fn specs_ident() -> syn::Ident {
    syn::Ident::new("__RONDO_FIELDS", Span::mixed_site())
}

/// The local holding field `i` while the answer is read.
fn local(i: usize) -> syn::Ident {
    format_ident!("__rondo_{}", i, span = Span::mixed_site())
}

/// The hidden function giving field `i`'s default.
fn default_fn(i: usize) -> syn::Ident {
    format_ident!("__rondo_default_{}", i, span = Span::mixed_site())
}

/// `<Type as FormField>`, spanned at the user's type.
fn as_field(paths: &Paths, ty: &syn::Type) -> TokenStream {
    let form_field = paths.form_field().at(ty.span());
    quote_spanned!(ty.span()=> <#ty as #form_field>)
}

/// `impl Elicit` for a struct, with its field specs, defaults and key checks beside it.
fn expand_form(form: &Form) -> TokenStream {
    let paths = Paths::new(&form.krate);
    let (elicit, field_spec, json_object) =
        (paths.elicit(), paths.field_spec(), paths.json_object());
    let (revision_ty, form_error) = (paths.revision(), paths.form_error());
    let ident = &form.ident;
    let specs = specs_ident();
    let n = form.fields.len();
    let each_spec = form.fields.iter().map(|f| spec(&paths, f));
    let defaults = form
        .fields
        .iter()
        .enumerate()
        .map(|(i, f)| default_item(&paths, i, f));
    let checks = form
        .fields
        .iter()
        .flat_map(|f| f.kind_checks.iter().map(|c| kind_check(&paths, f, c)));
    let wires = form.fields.iter().map(|f| &f.wire);
    let consent = consent(&paths, form);
    let revision = syn::Ident::new("__rondo_revision", Span::mixed_site());
    let content = syn::Ident::new("__rondo_content", Span::mixed_site());
    let schema = schema_body(&paths, form, &revision);
    let read = read_body(&paths, form, &content);
    quote! {
        const _: () = {
            const #specs: [#field_spec; #n] = [#(#each_spec),*];
            #(#defaults)*
            #(#checks)*
            #[automatically_derived]
            impl #elicit for #ident {
                const FIELDS: &'static [&'static #STR] = &[#(#wires),*];
                const CONSENT: #BOOL = #consent;
                fn requested_schema(#revision: #revision_ty) -> #json_object {
                    #schema
                }
                fn from_content(#content: &#json_object) -> #RESULT<Self, #form_error> {
                    #read
                }
            }
        };
    }
}

/// `FieldSpec::new("wire").title("..")...`.
fn spec(paths: &Paths, f: &Field) -> TokenStream {
    let (field_spec, bound, format) = (paths.field_spec(), paths.bound(), paths.string_format());
    let wire = &f.wire;
    let mut out = quote!(#field_spec::new(#wire));
    let texts = [("title", &f.title), ("description", &f.description)];
    for (method, text) in texts {
        if let Some(text) = text {
            let method = syn::Ident::new(method, Span::call_site());
            out = quote!(#out.#method(#text));
        }
    }
    for (method, n) in [("min", f.min), ("max", f.max)] {
        if let Some(n) = n {
            let method = syn::Ident::new(method, Span::call_site());
            let n = match n {
                Number::Int(i) => quote!(#bound::Int(#i)),
                Number::Float(x) => quote!(#bound::Float(#x)),
            };
            out = quote!(#out.#method(#n));
        }
    }
    let counts = [
        ("min_length", f.min_length),
        ("max_length", f.max_length),
        ("min_items", f.min_items),
        ("max_items", f.max_items),
    ];
    for (method, n) in counts {
        if let Some(n) = n {
            let method = syn::Ident::new(method, Span::call_site());
            out = quote!(#out.#method(#n));
        }
    }
    if let Some(fmt) = f.format {
        let variant = syn::Ident::new(format_variant(fmt), Span::call_site());
        out = quote!(#out.format(#format::#variant));
    }
    out
}

fn format_variant(format: Format) -> &'static str {
    match format {
        Format::Email => "Email",
        Format::Uri => "Uri",
        Format::Date => "Date",
        Format::DateTime => "DateTime",
    }
}

/// `fn __rondo_default_i() -> Type { default_value::<Type, _>(expr) }`, the call spanned at the
/// user's expression: a default of the wrong type is one error there.
fn default_item(paths: &Paths, i: usize, f: &Field) -> Option<TokenStream> {
    let expr = f.default.as_ref()?;
    let (ty, name) = (&f.ty, default_fn(i));
    let default_value = paths.default_value().at(expr.span());
    let call = quote_spanned!(expr.span()=> #default_value::<#ty, _>(#expr));
    Some(quote! {
        #[doc(hidden)]
        fn #name() -> #ty {
            #call
        }
    })
}

/// `const _: () = if !<Type as FormField>::KIND.is_string() { panic!(..) };`, the panic spanned
/// at the key: a key that does not fit the field's type is one error there.
fn kind_check(paths: &Paths, f: &Field, check: &KindCheck) -> TokenStream {
    let kind = as_field(paths, &f.ty);
    let (method, what, fix) = match check.needs {
        Needs::String => ("is_string", "string fields", "make the field a `String`"),
        Needs::Number => (
            "is_number",
            "number and integer fields",
            "make the field a number",
        ),
        Needs::MultiSelect => (
            "is_multi_select",
            "multiple-choice fields (`Vec<E>` of a unit enum `E`)",
            "make the field a multiple choice",
        ),
        Needs::Boolean => (
            "is_boolean",
            "yes/no (`bool`) fields",
            "make the field a `bool`",
        ),
    };
    let method = syn::Ident::new(method, Span::call_site());
    let key = check.key;
    let msg = format!(
        "`{key}` applies to {what}, and `{}` is not one; remove `{key}` or {fix}",
        check.field
    );
    // rustc reports a failed `const` at the panic's call, so the whole call is at the key.
    let panic = spanned_at(quote!(#PANIC!(#msg)), check.span);
    quote_spanned!(check.span=> const _: () = if !#kind::KIND.#method() { #panic };)
}

/// `CONSENT`: whether any field that may carry consent is a yes/no answer, by its type's kind.
fn consent(paths: &Paths, form: &Form) -> TokenStream {
    let kinds = form.fields.iter().filter(|f| f.consent).map(|f| {
        let kind = as_field(paths, &f.ty);
        quote!(#kind::KIND.is_boolean() ||)
    });
    quote!(#(#kinds)* false)
}

/// `requested_schema`: each field's type schema, annotated by its spec, with its default.
fn schema_body(paths: &Paths, form: &Form, revision: &syn::Ident) -> TokenStream {
    let form_schema = paths.form_schema();
    let s = syn::Ident::new("__rondo_form", Span::mixed_site());
    if form.fields.is_empty() {
        return quote!(#form_schema::new(#revision).finish());
    }
    let specs = specs_ident();
    let fields = form.fields.iter().enumerate().map(|(i, f)| {
        let t = as_field(paths, &f.ty);
        let default = match &f.default {
            Some(_) => {
                let d = default_fn(i);
                quote!(#SOME(#t::to_value(&#d())))
            }
            None => quote!(#NONE),
        };
        quote!(#s.field(&#specs[#i], #t::schema(#revision), #t::REQUIRED, #default);)
    });
    quote! {
        let mut #s = #form_schema::new(#revision);
        #(#fields)*
        #s.finish()
    }
}

/// `from_content`: each field read by its type, checked by its spec; every problem kept.
fn read_body(paths: &Paths, form: &Form, content: &syn::Ident) -> TokenStream {
    if form.fields.is_empty() {
        return quote!(let _ = #content; #OK(Self {}));
    }
    let form_reader = paths.form_reader();
    let r = syn::Ident::new("__rondo_reader", Span::mixed_site());
    let specs = specs_ident();
    let reads = form.fields.iter().enumerate().map(|(i, f)| {
        let (t, x) = (as_field(paths, &f.ty), local(i));
        let default = match &f.default {
            Some(_) => {
                let d = default_fn(i);
                quote!(#SOME(#d))
            }
            None => quote!(#NONE),
        };
        quote!(let #x = #r.field(&#specs[#i], #t::from_value, #default);)
    });
    let locals: Vec<syn::Ident> = (0..form.fields.len()).map(local).collect();
    let members = form.fields.iter().map(|f| &f.ident);
    let present = locals.iter().map(|x| quote!(#SOME(#x)));
    quote! {
        let mut #r = #form_reader::new(#content);
        #(#reads)*
        match (#(#locals,)*) {
            (#(#present,)*) => #OK(Self { #(#members: #locals),* }),
            _ => #ERR(#r.error()),
        }
    }
}

/// `ElicitEnum` and `FormField` for a unit enum.
fn expand_choice(choice: &Choice) -> TokenStream {
    let paths = Paths::new(&choice.krate);
    let (elicit_enum, enum_option) = (paths.elicit_enum(), paths.enum_option());
    let ident = &choice.ident;
    let options = choice.options.iter().map(|o| {
        let (value, title) = (
            &o.wire,
            o.title
                .as_ref()
                .map_or_else(|| quote!(#NONE), |t| quote!(#SOME(#t))),
        );
        quote!(#enum_option { value: #value, title: #title })
    });
    let from = choice.options.iter().map(|o| {
        let (wire, variant) = (&o.wire, &o.ident);
        quote!(#wire => #SOME(Self::#variant),)
    });
    let to = choice.options.iter().map(|o| {
        let (wire, variant) = (&o.wire, &o.ident);
        quote!(Self::#variant => #wire,)
    });
    let value = syn::Ident::new("__rondo_value", Span::mixed_site());
    let field = choice_field(&paths, ident);
    let legacy = choice.legacy_names;
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #elicit_enum for #ident {
                const OPTIONS: &'static [#enum_option] = &[#(#options),*];
                const LEGACY_NAMES: #BOOL = #legacy;
                fn from_wire(#value: &#STR) -> #OPTION<Self> {
                    match #value {
                        #(#from)*
                        _ => #NONE,
                    }
                }
                fn to_wire(&self) -> &'static #STR {
                    match self {
                        #(#to)*
                    }
                }
            }
            #field
        };
    }
}

/// `FormField` for a unit enum: a single choice.
fn choice_field(paths: &Paths, ident: &syn::Ident) -> TokenStream {
    let (form_field, field_kind, field_problem) = (
        paths.form_field(),
        paths.field_kind(),
        paths.field_problem(),
    );
    let (revision_ty, json_object, value_ty) =
        (paths.revision(), paths.json_object(), paths.json_value());
    let (schema, from_value, to_value) = (
        paths.enum_schema(),
        paths.enum_from_value(),
        paths.enum_to_value(),
    );
    let value = syn::Ident::new("__rondo_value", Span::mixed_site());
    let revision = syn::Ident::new("__rondo_revision", Span::mixed_site());
    quote! {
        #[automatically_derived]
        impl #form_field for #ident {
            const KIND: #field_kind = #field_kind::Enum;
            fn schema(#revision: #revision_ty) -> #json_object {
                #schema::<Self>(#revision)
            }
            fn from_value(#value: #OPTION<&#value_ty>) -> #RESULT<Self, #field_problem> {
                #from_value::<Self>(#value)
            }
            fn to_value(&self) -> #value_ty {
                #to_value::<Self>(self)
            }
        }
    }
}

/// When the model has errors: impls whose bodies are never run, so code naming the type adds no
/// second error.
pub fn stub(
    krate: &syn::Path,
    ident: &syn::Ident,
    generics: &syn::Generics,
    is_enum: bool,
) -> TokenStream {
    let paths = Paths::new(krate);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let (revision_ty, json_object, value_ty) =
        (paths.revision(), paths.json_object(), paths.json_value());
    let msg = "a `#[derive(Elicit)]` with errors";
    let items = if is_enum {
        let (elicit_enum, enum_option, form_field) =
            (paths.elicit_enum(), paths.enum_option(), paths.form_field());
        let (field_kind, field_problem) = (paths.field_kind(), paths.field_problem());
        quote! {
            #[automatically_derived]
            impl #impl_generics #elicit_enum for #ident #ty_generics #where_clause {
                const OPTIONS: &'static [#enum_option] = &[];
                fn from_wire(_: &#STR) -> #OPTION<Self> { #PANIC!(#msg) }
                fn to_wire(&self) -> &'static #STR { #PANIC!(#msg) }
            }
            #[automatically_derived]
            impl #impl_generics #form_field for #ident #ty_generics #where_clause {
                const KIND: #field_kind = #field_kind::Enum;
                fn schema(_: #revision_ty) -> #json_object { #PANIC!(#msg) }
                fn from_value(_: #OPTION<&#value_ty>) -> #RESULT<Self, #field_problem> { #PANIC!(#msg) }
                fn to_value(&self) -> #value_ty { #PANIC!(#msg) }
            }
        }
    } else {
        let (elicit, form_error) = (paths.elicit(), paths.form_error());
        quote! {
            #[automatically_derived]
            impl #impl_generics #elicit for #ident #ty_generics #where_clause {
                const FIELDS: &'static [&'static #STR] = &[];
                const CONSENT: #BOOL = false;
                fn requested_schema(_: #revision_ty) -> #json_object { #PANIC!(#msg) }
                fn from_content(_: &#json_object) -> #RESULT<Self, #form_error> { #PANIC!(#msg) }
            }
        }
    };
    quote!(const _: () = { #items };)
}
