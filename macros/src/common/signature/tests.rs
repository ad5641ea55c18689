//! Signature analysis by place; each error as (message, the source text it points at).

use super::{Place, Signature, analyze};

/// Analyses `func` (source text) as a function under `#[question]` at `place`.
fn analysed(place: Place, func: &str) -> (Signature, syn::Signature, Vec<(String, String)>) {
    let mut item: syn::ItemFn = syn::parse_str(func).expect("the test function parses");
    let mut acc = darling::Error::accumulator();
    let sig = analyze("question", &mut item.sig, place, &mut acc);
    let errors = acc
        .into_inner()
        .into_iter()
        .map(|e| (e.to_string(), e.span().source_text().unwrap_or_default()))
        .collect();
    (sig, item.sig, errors)
}

/// Each input as `name: type`.
fn inputs(sig: &Signature) -> Vec<String> {
    sig.args
        .iter()
        .map(|a| format!("{}: {}", a.wire, crate::diag::written(&a.ty)))
        .collect()
}

fn error(msg: &str, at: &str) -> (String, String) {
    (msg.to_owned(), at.to_owned())
}

#[test]
fn a_question_takes_every_parameter_references_included_as_an_input() {
    let (sig, _, errors) = analysed(
        Place::Question,
        "fn approve<'a>(pkg: &Package, seats: &[Seat], note: &str, owner: &'a Owner, count: u32, r#type: Kind) -> Form<Approval> { Form::new(\"Book it?\") }",
    );
    assert_eq!(errors, []);
    assert!(sig.context.is_none() && !sig.is_async);
    assert_eq!(
        inputs(&sig),
        [
            "pkg: &Package",
            "seats: &[Seat]",
            "note: &str",
            "owner: &'aOwner",
            "count: u32",
            "type: Kind"
        ]
    );
    assert_eq!(crate::diag::written(&sig.output), "Form<Approval>");
}

#[test]
fn the_same_references_are_a_context_and_errors_for_a_tool() {
    let (sig, _, errors) = analysed(Place::Free, "fn f(cx: &Cx, pkg: &Package) {}");
    assert_eq!(crate::diag::written(&sig.context.expect("a context")), "Cx");
    assert_eq!(
        errors,
        [error(
            "a reference parameter is the context and must come first; `#[question]` arguments are owned values (write `String` rather than `&str`)",
            "&Package"
        )]
    );
}

#[test]
fn a_question_refuses_self_async_and_patterns_each_at_the_culprit() {
    let (sig, _, errors) = analysed(
        Place::Question,
        "async fn approve(&self, (a, b): (u8, u8), Pkg { id }: &Pkg, ok: &Pkg) {}",
    );
    assert_eq!(
        errors,
        [
            error(
                "`#[question]` question functions render from their inputs only; remove `async`",
                "async"
            ),
            error(
                "`#[question]` functions render from their inputs only and take no `self`; move the function out of the `impl` block and pass what it reads as parameters",
                "&self"
            ),
            error(
                "`#[question]` inputs must be plain names such as `city`, not patterns; bind the value to a name and destructure it in the body",
                "(a, b)"
            ),
            error(
                "`#[question]` inputs must be plain names such as `city`, not patterns; bind the value to a name and destructure it in the body",
                "Pkg { id }"
            ),
        ]
    );
    assert_eq!(inputs(&sig), ["ok: &Pkg"]);
}

#[test]
fn a_question_refuses_impl_trait_inputs_and_argument_attributes() {
    let (sig, stripped, errors) = analysed(
        Place::Question,
        "fn ask(#[arg(description = \"x\")] a: &A, #[args] b: B, c: impl Display) {}",
    );
    assert_eq!(
        errors,
        [
            error(
                "`#[arg]` describes tool arguments, and `#[question]` inputs come from the code that asks; remove it",
                "arg"
            ),
            error(
                "`#[args]` describes tool arguments, and `#[question]` inputs come from the code that asks; remove it",
                "args"
            ),
            error(
                "`#[question]` inputs cannot be `impl Trait`: the question's type names each input; write the concrete type",
                "impl"
            ),
        ]
    );
    assert_eq!(inputs(&sig), ["a: &A", "b: B"]);
    // The attributes are gone from the function, so rustc reports nothing more about them.
    assert!(stripped.inputs.iter().all(|i| match i {
        syn::FnArg::Typed(pt) => pt.attrs.is_empty(),
        syn::FnArg::Receiver(_) => true,
    }));
}

#[test]
fn a_question_keeps_the_rules_every_function_has() {
    let (_, _, errors) = analysed(Place::Question, "unsafe fn ask<T>(t: T) -> impl Q {}");
    let messages: Vec<&str> = errors.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`#[question]` functions cannot be generic; use concrete types",
            "`#[question]` functions cannot be `unsafe`: the server calls them; remove `unsafe` and use an `unsafe` block inside",
            "`#[question]` functions cannot return `impl Trait`: the result is converted through a trait on its type; write the concrete type",
        ]
    );
}
