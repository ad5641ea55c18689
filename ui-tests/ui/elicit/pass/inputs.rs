//! Every kind of question input: `&T`, `&[T]`, `&str`, two references, an owned `Clone` input,
//! and none; each asked from a tool with values that borrow from the tool's locals.

use rondo_mcp::prelude::*;
use rondo_mcp::{Elicit, Form, elicit, tool};

#[derive(Elicit)]
struct Approval {
    /// Go ahead?
    approve: bool,
}

#[derive(Clone)]
struct Package {
    name: String,
    total: u32,
}

/// A reference to a struct.
#[elicit(form, fallback = refuse)]
fn by_ref(pkg: &Package) -> Form<Approval> {
    Form::new(format!("Book {} for ${}?", pkg.name, pkg.total))
}

/// A slice.
#[elicit(form, fallback = refuse)]
fn by_slice(items: &[String]) -> Form<Approval> {
    Form::new(format!("Buy {}?", items.join(", ")))
}

/// A string slice.
#[elicit(form, fallback = refuse)]
fn by_str(name: &str) -> Form<Approval> {
    Form::new(format!("Greet {name}?"))
}

/// Two references, one with a named lifetime.
#[elicit(form, fallback = refuse)]
fn two_refs<'a>(pkg: &'a Package, note: &str) -> Form<Approval> {
    Form::new(format!("Book {} ({note})?", pkg.name))
}

/// An owned input that is `Clone`.
#[elicit(form, fallback = refuse)]
fn owned(pkg: Package, count: u32) -> Form<Approval> {
    Form::new(format!("Book {} x{count}?", pkg.name))
}

/// No inputs.
#[elicit(form, fallback = refuse)]
fn nothing() -> Form<Approval> {
    Form::new("Go ahead?")
}

/// Asks every question.
#[tool(asks = [by_ref, by_slice, by_str, two_refs, owned, nothing])]
async fn everything(cx: &Cx, name: String) -> String {
    let pkg = Package {
        name: name.clone(),
        total: 10,
    };
    let items = vec![name.clone()];
    let _ = cx.ask(by_ref(&pkg)).await;
    let _ = cx.ask(by_slice(&items)).await;
    let _ = cx.ask(by_str(&name)).await;
    let _ = cx.ask(two_refs(&pkg, "window seat")).await;
    let _ = cx.ask(owned(pkg.clone(), 2)).await;
    let _ = cx.ask(nothing()).await;
    name
}

fn main() {
    let _ = rondo_mcp::tools![everything];
}
