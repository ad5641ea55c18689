//! `#[elicit]` expansion. Cannot fail: the model has checked everything.
//!
//! `#[elicit(form, fallback = f)] fn approve(pkg: &Package) -> Form<Approval> { .. }` becomes:
//! - `fn approve(pkg: &'__rondo_0 Package) -> Asked<approve, (&'__rondo_0 Package,)>`, which
//!   only keeps its inputs (nothing is rendered before the client's capabilities are checked);
//! - a hidden type `approve` (type namespace) implementing `QuestionDecl` (the key, and for
//!   `fallback = args` the form's fields as tool arguments) and `Ask<(&Package,)>`: `render`
//!   runs the user's body on clones of the inputs, `fallback` runs the declared fallback.

use super::model::{Fallback, Mode, Question};
use crate::diag::{respan, spanned_at};
use crate::paths::{BOOL, OPTION, PANIC, Paths, STR};
use crate::symbols::{FALLBACK_ARGS, REFUSE};
use proc_macro2::{Delimiter, Group, Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::spanned::Spanned;

/// The question function, its hidden type and the type's impls.
pub fn expand(q: &Question, func: &syn::ItemFn) -> TokenStream {
    items(q, func, Stage::Full)
}

/// How much of a question to expand.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// All of it: the rendering, the fallback and the checks.
    Full,
    /// Next to the model's errors (`super::stub`): the same items, with a rendering never run,
    /// a fallback that refuses and no checks, so that nothing adds a second error.
    Stub,
}

/// The constructor, the hidden type and its impls, at `stage`.
pub fn items(q: &Question, func: &syn::ItemFn, stage: Stage) -> TokenStream {
    let paths = Paths::new(&q.krate);
    let constructor = constructor(q, func, &paths);
    let marker = marker_for(func);
    let decl = decl(q, stage, &paths);
    let ask = ask_impl(q, func, stage, &paths);
    let checks = match stage {
        Stage::Full => checks(q, &paths),
        Stage::Stub => TokenStream::new(),
    };
    let cfgs = cfgs(func);
    quote! {
        #constructor
        #marker
        #(#cfgs)*
        const _: () = {
            #decl
            #ask
            #checks
        };
    }
}

/// `#[cfg(..)]`/`#[cfg_attr(..)]` of the function, repeated on every item generated for it.
pub fn cfgs(func: &syn::ItemFn) -> Vec<&syn::Attribute> {
    func.attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg") || a.path().is_ident("cfg_attr"))
        .collect()
}

/// `pub struct approve {}`: the question's identity in the type namespace, located at the
/// function's name (where rustc's notes about the type point).
pub fn marker_for(func: &syn::ItemFn) -> TokenStream {
    let (vis, ident) = (&func.vis, &func.sig.ident);
    let (cfgs, proxy) = (cfgs(func), crate::common::expand::proxy(vis, ident));
    quote! {
        #(#cfgs)*
        #proxy
    }
}

/// The tuple type of the inputs, lifetimes named: `(&'__rondo_0 Package,)`.
fn inputs_ty(q: &Question) -> TokenStream {
    let types = &q.inputs.types;
    quote!((#(#types,)*))
}

/// The function the user calls: same name, attributes and inputs; returns `Asked`.
fn constructor(q: &Question, func: &syn::ItemFn, paths: &Paths) -> TokenStream {
    let (attrs, vis, ident) = (&func.attrs, &func.vis, &func.sig.ident);
    let generics = &q.inputs.generics;
    let (_, _, where_clause) = generics.split_for_impl();
    let params = q.sig.args.iter().zip(&q.inputs.types).map(|(a, ty)| {
        let name = &a.ident;
        quote!(#name: #ty)
    });
    let names = q.sig.args.iter().map(|a| &a.ident);
    let (asked, inputs) = (paths.asked(), inputs_ty(q));
    quote! {
        #(#attrs)*
        #vis fn #ident #generics (#(#params),*) -> #asked<#ident, #inputs> #where_clause {
            #asked::new((#(#names,)*))
        }
    }
}

/// `impl QuestionDecl for approve`: the key, and the arguments of `fallback = args`.
pub fn decl(q: &Question, stage: Stage, paths: &Paths) -> TokenStream {
    let (decl, ident, key) = (paths.question_decl(), &q.sig.ident, &q.key);
    let (output, json_object) = (&q.sig.output, paths.json_object());
    let arguments = match &q.fallback {
        Fallback::Args(span) if stage == Stage::Full => {
            let form_args = paths.form_args();
            let items = quote! {
                const ARGUMENTS: &'static [&'static #STR] = #form_args::<#output>::FIELDS;
                const ARGS_FALLBACK: #BOOL = true;
                fn argument_schema() -> #OPTION<#json_object> {
                    #form_args::<#output>::schema()
                }
            };
            spanned_at(items, *span)
        }
        _ => quote! {
            const ARGUMENTS: &'static [&'static #STR] = &[];
            const ARGS_FALLBACK: #BOOL = false;
        },
    };
    let meta = meta(q, paths);
    quote! {
        #[automatically_derived]
        impl #decl for #ident {
            const KEY: &'static #STR = #key;
            #arguments
            #meta
        }
    }
}

/// `const META: AskMeta = ..;`: the kind and fallback `tools/list` advertises (as declared,
/// also next to errors: a question with errors builds nothing that is listed).
fn meta(q: &Question, paths: &Paths) -> TokenStream {
    let (ask_meta, ask_kind, fallback_kind) =
        (paths.ask_meta(), paths.ask_kind(), paths.fallback_kind());
    let kind = match q.mode {
        Mode::Form => quote!(Form),
        Mode::Url => quote!(Url),
        Mode::Sample => quote!(Sampling),
        Mode::Roots => quote!(Roots),
    };
    let fallback = match q.fallback {
        Fallback::Function { .. } => quote!(Function),
        Fallback::Args(_) => quote!(Args),
        Fallback::Refuse => quote!(Refuse),
    };
    quote! {
        const META: #ask_meta = #ask_meta {
            key: Self::KEY,
            kind: #ask_kind::#kind,
            fallback: #fallback_kind::#fallback,
        };
    }
}

/// `impl<'..> Ask<(inputs)> for approve`: rendering and fallback. The rendering is the type the
/// function returns. The impl assumes it is a rendering (`where for<'r> R: Rendered`; the
/// binder keeps rustc from rejecting a bound that names no parameter), so a type that is not
/// adds no error inside the impl: [`mode_check`] reports it, once.
fn ask_impl(q: &Question, func: &syn::ItemFn, stage: Stage, paths: &Paths) -> TokenStream {
    let (ask, ident, inputs) = (paths.ask(), &q.sig.ident, inputs_ty(q));
    let (impl_generics, _, where_clause) = q.inputs.generics.split_for_impl();
    let predicates = where_clause.map(|w| &w.predicates);
    let (output, rendered) = (&q.sig.output, paths.rendered_trait());
    // A roots question renders through `RootsQuestion`, assumed the same way.
    let roots = (q.mode == Mode::Roots).then(|| {
        let roots = paths.roots_question();
        quote!(for<'__rondo_r> #output: #roots,)
    });
    let (render, fallback) = match stage {
        Stage::Full => (render(q, func, paths), fallback(q, &q.fallback, paths)),
        Stage::Stub => (render_stub(q, func), fallback(q, &Fallback::Refuse, paths)),
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics #ask<#inputs> for #ident
        where
            #predicates
            for<'__rondo_r> #output: #rendered,
            #roots
        {
            type Rendered = #output;
            #render
            #fallback
        }
    }
}

/// In a closure that is type-checked, never called, one error at the return type `R` when it
/// is not what the attribute asks. `#[elicit]`: `rendered::<R>()` when `R` is no rendering, and
/// `Mode::<R>::form()` (or `url()`) when it is a rendering of the other mode (no second error
/// when it is none). `#[sample]` and `#[roots]`: `is_sample::<R>()` (or `is_roots`) for either,
/// in their own words.
fn mode_check(q: &Question, paths: &Paths) -> TokenStream {
    let output = &q.sig.output;
    let (check, stand_ins) = match q.mode {
        Mode::Form | Mode::Url => {
            let (mode, rendered, not_rendered) =
                (paths.mode(), paths.rendered(), paths.not_rendered());
            let method = if q.mode == Mode::Form {
                quote!(form)
            } else {
                quote!(url)
            };
            let rendered = around_type(quote!(#rendered::<), output, quote!(>();));
            let mode = around_type(quote!(#mode::<), output, quote!(>::#method();));
            let stand_ins = quote! {
                #[allow(unused_imports)]
                use #not_rendered as _;
            };
            (quote!(#rendered #mode), stand_ins)
        }
        Mode::Sample | Mode::Roots => {
            let is = if q.mode == Mode::Sample {
                paths.is_sample()
            } else {
                paths.is_roots()
            };
            (
                around_type(quote!(#is::<), output, quote!(>();)),
                TokenStream::new(),
            )
        }
    };
    let bars = spanned_at(quote!(||), output.span());
    let mut body = Group::new(Delimiter::Brace, check);
    body.set_span(output.span());
    quote! {
        #stand_ins
        const _: fn() = #bars #body;
    }
}

/// `before ty after`, with `before` located at the type's first token and `after` at its last
/// and the type as written, so that the check's expression, where rustc reports its error,
/// spans the whole type (`Sample<Picks>`, not `Sample`).
fn around_type(before: TokenStream, ty: &syn::Type, after: TokenStream) -> TokenStream {
    let tokens = ty.to_token_stream();
    let mut spans = tokens.clone().into_iter().map(|t| t.span());
    let first = spans.next().unwrap_or_else(Span::call_site);
    let last = spans.last().unwrap_or(first);
    let (before, after) = (spanned_at(before, first), spanned_at(after, last));
    quote!(#before #tokens #after)
}

/// The local holding the inputs tuple in generated code.
fn inputs_ident() -> syn::Ident {
    syn::Ident::new("__rondo_inputs", Span::mixed_site())
}

/// `fn render(inputs) -> R`: the user's function, nested as written, called on clones of the
/// inputs (each clone spanned at its type, so an input that is not `Clone` is one error there).
fn render(q: &Question, func: &syn::ItemFn, paths: &Paths) -> TokenStream {
    let inputs = inputs_ident();
    let inputs_ty = inputs_ty(q);
    if q.mode == Mode::Roots {
        // `roots/list` renders nothing from the inputs (the fallback reads them); the function
        // has no body.
        let (output, roots) = (&q.sig.output, paths.roots_question());
        return quote! {
            fn render(_: &#inputs_ty) -> #output {
                <#output as #roots>::rendering()
            }
        };
    }
    let user = user_fn(func);
    let ident = &func.sig.ident;
    let clones = q.sig.args.iter().enumerate().map(|(i, a)| {
        let (index, input) = (syn::Index::from(i), paths.input());
        respan(quote!(#input(&#inputs.#index)), a.ty.span())
    });
    quote! {
        fn render(#inputs: &#inputs_ty) -> Self::Rendered {
            #user
            #ident(#(#clones),*)
        }
    }
}

/// `render` next to errors: never run. The user's function is nested, not called, so the errors
/// in its body are still reported (a roots question has none).
fn render_stub(q: &Question, func: &syn::ItemFn) -> TokenStream {
    let inputs_ty = inputs_ty(q);
    let user = (q.mode != Mode::Roots).then(|| {
        let user = user_fn(func);
        quote!(#[allow(dead_code)] #user)
    });
    quote! {
        fn render(_: &#inputs_ty) -> Self::Rendered {
            #user
            #PANIC!()
        }
    }
}

/// The user's function as written (its doc comments and attributes dropped: they are on the
/// constructor), nested inside `render`.
fn user_fn(func: &syn::ItemFn) -> TokenStream {
    let (sig, block) = (&func.sig, &func.block);
    quote! {
        #[allow(clippy::needless_pass_by_value)]
        #sig #block
    }
}

/// `fn fallback(cx, inputs)` of `kind`: `Refuse`, the tool's arguments, or the user's function.
fn fallback(q: &Question, kind: &Fallback, paths: &Paths) -> TokenStream {
    let (cx, inputs) = (
        syn::Ident::new("__rondo_cx", Span::mixed_site()),
        inputs_ident(),
    );
    let (cx_ty, inputs_ty, output) = (paths.cx(), inputs_ty(q), &q.sig.output);
    let (future, fallback_ty, answer_of) =
        (paths.box_future(), paths.fallback(), paths.answer_of());
    let underscore = quote!(_);
    // Each kind binds only what it reads (unused parameters are `_`).
    let (cx_pat, inputs_pat, body) = match kind {
        Fallback::Refuse => {
            let refuse = paths.refuse();
            (&underscore, &underscore, quote!(#refuse()))
        }
        Fallback::Args(span) => {
            let (form_args, not_a_form, key) = (paths.form_args(), paths.not_a_form(), &q.key);
            let call = quote! {
                #[allow(unused_imports)]
                use #not_a_form as _;
                #form_args::<#output>::fallback(#cx, #key)
            };
            (&quote!(#cx), &underscore, respan(call, *span))
        }
        Fallback::Function { path, key } => (
            &underscore,
            &quote!(#inputs),
            function_fallback(q, path, *key, paths),
        ),
    };
    quote! {
        fn fallback<'__rondo>(
            #cx_pat: &'__rondo #cx_ty,
            #inputs_pat: #inputs_ty,
        ) -> #future<'__rondo, #fallback_ty<#answer_of<Self, #inputs_ty>>>
        where
            #inputs_ty: '__rondo,
        {
            #body
        }
    }
}

/// Calls `some_fn(inputs..)` and turns what it returns (the answer, a `Fallback`, or a future of
/// either) into the fallback's future. The answer type is given to `FallbackCall`, not
/// inferred from what `some_fn` returns, and every token is located at `some_fn`, so a mismatch
/// in parameters or answer type is one error there.
fn function_fallback(q: &Question, path: &syn::Path, key: Span, paths: &Paths) -> TokenStream {
    let at = path.span();
    let inputs = inputs_ident();
    let names: Vec<syn::Ident> = (0..q.sig.args.len())
        .map(|i| format_ident!("__rondo_input_{}", i, span = Span::mixed_site()))
        .collect();
    let (call, via_future, via_value) =
        (paths.fallback_call(), paths.via_future(), paths.via_value());
    let (answer_of, inputs_ty) = (paths.answer_of(), inputs_ty(q));
    let prelude = quote! {
        let (#(#names,)*) = #inputs;
        #[allow(unused_imports)]
        use #via_future as _;
        #[allow(unused_imports)]
        use #via_value as _;
    };
    let new = respan(quote!(#call::<#answer_of<Self, #inputs_ty>, _>::new), at);
    let (callee, names) = (
        callee_block(q.mode, path, key),
        respan(quote!((#(#names),*)), at),
    );
    // `(&FallbackCall::new({ decoys; callee }(inputs..))).run()`, every token located at the
    // path but the decoys (`callee_block`).
    let new_call = located(Delimiter::Parenthesis, quote!(#callee #names), at);
    let new_call = located(Delimiter::Parenthesis, quote!(&#new #new_call), at);
    let (prelude, run) = (respan(prelude, at), respan(quote!(.run()), at));
    quote!(#prelude #new_call #run)
}

/// `{ fn refuse() {} fn args() {} path }`: the user's fallback path in a block of its own.
/// When the path does not resolve, rustc offers a similar name in scope, so a misspelt keyword
/// (`fallback = refused`) gets "a function with a similar name exists" and the attribute
/// rewritten to `fallback = refuse`. The hidden functions are located at the `fallback` key
/// (rustc never offers a name defined where the error is); `args` is declared only where it is a
/// valid fallback (a form). They shadow only the single-segment names `refuse` and `args`,
/// keywords here that never reach this block (`self::args` and `m::refuse` resolve in their
/// module). The path keeps the user's spans, which rustc needs to offer names in scope (the
/// user's own functions too); the block keeps rustc from offering a fix-it that would rewrite
/// the attribute into a call (`fallback = f(f, /* &str */)`).
fn callee_block(mode: Mode, path: &syn::Path, key: Span) -> TokenStream {
    let decoy = |name: &str| {
        let name = syn::Ident::new(name, Span::call_site());
        respan(quote!(#[allow(dead_code)] fn #name() {}), key)
    };
    let refuse = decoy(REFUSE);
    let args = (mode == Mode::Form).then(|| decoy(FALLBACK_ARGS));
    located(Delimiter::Brace, quote!(#refuse #args #path), path.span())
}

/// A group of `delimiter` around `tokens`, located at `at` (resolved at the call site).
fn located(delimiter: Delimiter, tokens: TokenStream, at: Span) -> TokenStream {
    let mut group = Group::new(delimiter, tokens);
    group.set_span(Span::call_site().located_at(at));
    group.into_token_stream()
}

/// The mode check, and for `fallback = args` the consent check: `args` lets the model fill in
/// the form, so a form that carries consent (a yes/no field not marked `not_consent`) cannot
/// take it, a `const` assertion located at `args` (the panic in the expansion, so rustc's
/// report has no note inside the runtime).
fn checks(q: &Question, paths: &Paths) -> TokenStream {
    let mode = mode_check(q, paths);
    let Fallback::Args(at) = &q.fallback else {
        return mode;
    };
    let (output, form_args, not_a_form) = (&q.sig.output, paths.form_args(), paths.not_a_form());
    let consent = spanned_at(
        quote! {
            const _: () = {
                #[allow(unused_imports)]
                use #not_a_form as _;
                if #form_args::<#output>::CONSENT {
                    #PANIC!(#CONSENT_ARGS)
                }
            };
        },
        *at,
    );
    quote!(#mode #consent)
}

/// The message when a form that carries consent takes `fallback = args`.
const CONSENT_ARGS: &str = "`fallback = args` would let the model fill in this form, and its yes/no field is consent, which never comes from the model; \
    use `fallback = refuse` or a function, or mark the field `#[elicit(not_consent)]` if it is plain data";
