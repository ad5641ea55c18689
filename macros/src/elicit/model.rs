//! The validated question: every user error of `#[elicit]` is raised here.

use super::parse::ElicitArgs;
use crate::common::args::crate_path;
use crate::common::lifetimes::{Named, name_elided};
use crate::common::signature::{self, Place, Signature};
use crate::common::unraw;
use crate::diag::{err_at, err_on};
use crate::symbols::{ELICIT, FALLBACK, FALLBACK_ARGS, FORM, REFUSE, ROOTS, SAMPLE, URL};
use darling::error::Accumulator;
use proc_macro2::Span;
use syn::spanned::Spanned;

/// A question function, ready to expand.
pub struct Question {
    /// Where the runtime is (`crate = ..`, checked absolute).
    pub krate: syn::Path,
    /// Form or URL mode; decides which rendered type the function must return.
    pub mode: Mode,
    /// What runs when the client cannot answer.
    pub fallback: Fallback,
    /// The key of the question's `inputRequests` entry: the function's name without `r#`.
    pub key: String,
    /// The function's shape: its inputs (every parameter) and the rendered type it returns.
    pub sig: Signature,
    /// The inputs' types with every elided lifetime named, and the impl generics declaring them:
    /// the question is implemented for the tuple of these types.
    pub inputs: Named,
}

/// What the question asks, which decides the attribute, the rendered type the function must
/// return and the fallbacks it may take.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `#[elicit(form)]`: a form of the fields of `T` (`Form<T>`).
    Form,
    /// `#[elicit(url)]`: a page the user opens (`Url`).
    Url,
    /// `#[sample]`: a completion from the client's model (`Sample<T>`).
    Sample,
    /// `#[roots]`: the client's roots (`Roots`; the function has no body).
    Roots,
}

impl Mode {
    /// The attribute, as written in messages.
    pub fn attr(self) -> &'static str {
        match self {
            Mode::Form | Mode::Url => ELICIT,
            Mode::Sample => SAMPLE,
            Mode::Roots => ROOTS,
        }
    }
}

/// What a question does when the client did not declare what it needs.
pub enum Fallback {
    /// `fallback = some_fn`: called with the same inputs; returns the answer (or ends the tool).
    /// `key` is where the `fallback` key is written.
    Function { path: syn::Path, key: Span },
    /// `fallback = args`: the answer is built from the tool's arguments, which the form's fields
    /// join as optional arguments. The span is the `args` token, where a form carrying consent
    /// is reported.
    Args(Span),
    /// `fallback = refuse`: the request ends with `-32021` naming what was missing.
    Refuse,
}

/// `#[sample]` without a fallback: the ways out.
const NO_SAMPLE_FALLBACK: &str = "sampling is optional and deprecated (MCP 2026-07-28), and many clients never implemented it, \
    so every `#[sample]` question needs a fallback: `fallback = some_fn` (called with the same inputs; a deterministic answer, \
    your own model provider if it is `async`, or `Fallback::end(..)` with every candidate) or `fallback = refuse` \
    (the request fails with -32021 naming `sampling`)";

/// `#[roots]` without a fallback: the ways out.
const NO_ROOTS_FALLBACK: &str = "roots are optional and deprecated (MCP 2026-07-28), and many clients never implemented them, \
    so every `#[roots]` question needs a fallback: `fallback = some_fn` (called with the same inputs: folders from a tool argument \
    or the server's configuration, never a guessed directory) or `fallback = refuse` (the request fails with -32021 naming `roots`)";

/// The `fallback` key as written.
pub struct FallbackArg {
    /// Its value, when it is a path.
    pub path: Option<syn::Path>,
    /// Where the key is written.
    pub key: Option<Span>,
    /// Whether the key is written (misspelt or with a refused value too): then a missing value
    /// is already reported.
    pub written: bool,
}

/// The message when no fallback is named: the three ways out.
const NO_FALLBACK: &str = "every `#[elicit]` question needs a fallback for clients that cannot answer it; \
    add one of: `fallback = some_fn` (a function called with the same inputs that returns the answer), \
    `fallback = args` (forms of plain data: the form's fields become optional tool arguments), \
    or `fallback = refuse` (the request fails with -32021, naming the capability the client lacks)";

/// Validates `#[elicit(args)]` on `func` (a question function).
pub fn model(args: ElicitArgs, func: &mut syn::ItemFn, acc: &mut Accumulator) -> Question {
    let mode = mode(&args, acc);
    let fallback = FallbackArg {
        written: args.wrote(FALLBACK),
        path: args.fallback,
        key: args.fallback_key,
    };
    question(mode, fallback, args.krate, func, acc)
}

/// Validates a question function of `mode` with its `fallback` and `crate` keys.
pub fn question(
    mode: Mode,
    fallback: FallbackArg,
    krate: Option<syn::Path>,
    func: &mut syn::ItemFn,
    acc: &mut Accumulator,
) -> Question {
    let krate = crate_path(krate, acc);
    let fallback = checked_fallback(fallback, mode, acc);
    let sig = signature::analyze(mode.attr(), &mut func.sig, Place::Question, acc);
    let inputs = name_elided(&func.sig.generics, sig.args.iter().map(|a| &a.ty));
    Question {
        krate,
        mode,
        fallback,
        key: unraw(&sig.ident),
        sig,
        inputs,
    }
}

/// `form` or `url`, exactly one (a mode written with a refused value is already reported).
fn mode(args: &ElicitArgs, acc: &mut Accumulator) -> Mode {
    match (args.form.is_present(), args.url.is_present()) {
        (true, false) => Mode::Form,
        (false, true) => Mode::Url,
        (true, true) => {
            acc.push(err_at(
                args.url.span(),
                "a question is either `form` or `url`, not both; remove one",
            ));
            Mode::Form
        }
        (false, false) if args.wrote(FORM) || args.wrote(URL) => Mode::Form,
        (false, false) => {
            acc.push(err_at(
                Span::call_site(),
                "`#[elicit]` needs a mode: `#[elicit(form, fallback = ..)]` for a form the user fills in, \
                 or `#[elicit(url, fallback = ..)]` for a page the user opens (passwords, keys, payments)",
            ));
            Mode::Form
        }
    }
}

/// The fallback: `refuse` and `args` are keywords here (a function named `args` is reached as
/// `self::args`); anything else is a function path. A fallback written with a value that was
/// refused (`written`) is not reported again as missing.
fn checked_fallback(given: FallbackArg, mode: Mode, acc: &mut Accumulator) -> Fallback {
    let Some(path) = given.path else {
        if !given.written {
            let message = match mode {
                Mode::Form | Mode::Url => NO_FALLBACK,
                Mode::Sample => NO_SAMPLE_FALLBACK,
                Mode::Roots => NO_ROOTS_FALLBACK,
            };
            acc.push(err_at(Span::call_site(), message));
        }
        return Fallback::Refuse;
    };
    if path.is_ident(REFUSE) {
        Fallback::Refuse
    } else if path.is_ident(FALLBACK_ARGS) {
        if let Some(msg) = args_refused(mode) {
            acc.push(err_on(&path, msg));
        }
        Fallback::Args(path.span())
    } else {
        let key = given.key.unwrap_or_else(Span::call_site);
        Fallback::Function { path, key }
    }
}

/// Why `fallback = args` does not fit a question of `mode`, if it does not: the rule, then the
/// fix in that question's own terms.
fn args_refused(mode: Mode) -> Option<&'static str> {
    match mode {
        Mode::Form => None,
        Mode::Url => Some(
            "`fallback = args` builds a form's answer from tool arguments, and a URL-mode question has no form; \
             use `fallback = refuse` or a function",
        ),
        Mode::Sample => Some(
            "`#[sample]` cannot take `fallback = args`: a sampling answer comes from the client's model, not from \
             tool arguments; use `fallback = some_fn` (called with the same inputs) or `fallback = refuse`",
        ),
        Mode::Roots => Some(
            "`#[roots]` cannot take `fallback = args`: roots come from the client, not from tool arguments; take the \
             folders as an input, `fn workspace(folders: &[String]) -> Roots;`, and answer them from \
             `fallback = some_fn`, or use `fallback = refuse`",
        ),
    }
}
