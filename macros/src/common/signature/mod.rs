//! The shape of a function under one of our attributes: receiver, context and named arguments
//! for `#[tool]`, `#[prompt]` and `#[resource]` (context by position, arguments by name,
//! docs/design.md §3: a reference parameter is the context and must come first); inputs only for
//! a question function (`Place::Question`), where every parameter, a reference too, is an input.

mod params;
mod rules;

use darling::error::Accumulator;
use proc_macro2::Span;
use syn::Type;

/// The analysed signature.
pub struct Signature {
    /// The function's name: the default tool or prompt name, and the name of the hidden type.
    pub ident: syn::Ident,
    /// `async fn`: the generated call adds `.await`. Never set for a question function.
    pub is_async: bool,
    /// The referent type of the context parameter (`Cx` in `cx: &Cx`), if there is one; passed
    /// through `__private::context::<T>` so a wrong type is one error at it. Never set for a
    /// question function, which has no context.
    pub context: Option<Type>,
    /// The named arguments (a question function's inputs), in parameter order, which is the
    /// order of the call.
    pub args: Vec<Arg>,
    /// The return type (`()` when omitted), converted through the macro's `Into*Result` trait.
    pub output: Type,
}

/// One named argument, or one input of a question function.
pub struct Arg {
    /// The parameter's identifier: the field of the arguments struct.
    pub ident: syn::Ident,
    /// Its type, spliced at the user's span so trait errors point at it. An input's type may be
    /// a reference with elided lifetimes (`&Package`); `common::lifetimes` names them.
    pub ty: Type,
    /// Its name on the wire (`rename = ..`, or the identifier without `r#`).
    pub wire: String,
    /// `#[arg(description = ..)]`: the argument's description in the schema.
    pub description: Option<String>,
    /// `#[args]`: the struct's fields are the arguments, so it has no wire name of its own.
    pub flatten: bool,
    /// The parameter's span, for errors about it found after analysis (duplicates, URI
    /// variables).
    pub span: Span,
}

/// Where the function sits, which decides what its parameters are.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A free function: an optional context first (a reference), then named arguments.
    Free,
    /// A method of a `#[toolbox]` impl: `&self`, then as [`Place::Free`].
    Method,
    /// A question function (`#[elicit]`, `#[sample]`, `#[roots]`): it renders a question from
    /// its inputs only, so it has no receiver, no context and no `async`, and every parameter,
    /// `&T`, `&[T]`, `&str` and `&'a T` included, is an input its caller passes.
    Question,
}

impl Place {
    /// What the parameters are called in messages: tool arguments or question inputs.
    fn params(self) -> &'static str {
        match self {
            Place::Free | Place::Method => "arguments",
            Place::Question => "inputs",
        }
    }
}

/// Analyses `sig` for the attribute `attr`, stripping `#[arg]`/`#[args]` from its parameters.
pub fn analyze(
    attr: &str,
    sig: &mut syn::Signature,
    place: Place,
    acc: &mut Accumulator,
) -> Signature {
    rules::check_qualifiers(attr, sig, place, acc);
    let params::Params {
        has_self,
        context,
        args,
    } = params::params(attr, sig, place, acc);
    if place == Place::Method && !has_self {
        acc.push(crate::diag::err_on(
            &sig.ident,
            format!("`#[{attr}]` methods in a `#[toolbox]` impl take `&self`; add it as the first parameter"),
        ));
    }
    Signature {
        ident: sig.ident.clone(),
        is_async: sig.asyncness.is_some(),
        context,
        args,
        output: rules::output(attr, &sig.output, acc),
    }
}

/// `Cx` in `&Cx` behind the invisible group a `macro_rules!` `$t:ty` fragment adds.
fn peel(ty: &Type) -> &Type {
    match ty {
        Type::Group(g) => peel(&g.elem),
        Type::Paren(p) => peel(&p.elem),
        other => other,
    }
}

/// An error for a duplicate wire name among arguments, at the second one.
pub fn check_duplicate_args(attr: &str, args: &[Arg], acc: &mut Accumulator) {
    for (i, a) in args.iter().enumerate() {
        let first = args[..i]
            .iter()
            .find(|b| !b.flatten && !a.flatten && b.wire == a.wire);
        if let Some(first) = first {
            acc.push(crate::diag::err_at(
                a.span,
                format!(
                    "two `#[{attr}]` arguments are named `{}` (`{}` and `{}`); rename one with `#[arg(rename = \"...\")]`",
                    a.wire, first.ident, a.ident
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests;
