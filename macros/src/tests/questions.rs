//! Expansion snapshots of the question macros: `#[elicit]` with each fallback kind, `#[sample]`
//! with a function, `#[roots]` with `refuse`, and
//! `asks = [..]` on a tool and on toolbox methods.

use super::{check, items};
use expect_test::expect_file;
use proc_macro2::TokenStream;
use quote::quote;

#[test]
fn elicit_form_with_refuse() {
    let out = crate::elicit::expand(
        quote!(form, fallback = refuse),
        quote! {
            /// Asks the traveller to approve the package.
            pub fn approve(pkg: &Package, seats: u8) -> Form<Approval> {
                Form::new(format!("Book {} for {seats}?", pkg.name))
            }
        },
    );
    check(
        items(out),
        expect_file!["../../tests/snapshots/elicit_form_refuse.rs"],
    );
}

#[test]
fn elicit_form_with_args() {
    let out = crate::elicit::expand(
        quote!(form, fallback = args),
        quote! {
            /// Asks who is there.
            fn guest() -> Form<Guest> {
                Form::new("Who is there?")
            }
        },
    );
    check(
        items(out),
        expect_file!["../../tests/snapshots/elicit_form_args.rs"],
    );
}

#[test]
fn elicit_url_with_a_function() {
    let out = crate::elicit::expand(
        quote!(url, fallback = no_payment),
        quote! {
            /// Sends the user to pay.
            fn pay(order: &str) -> Url {
                Url::new("Pay", format!("https://pay.example.com/{order}"))
            }
        },
    );
    check(
        items(out),
        expect_file!["../../tests/snapshots/elicit_url_function.rs"],
    );
}

#[test]
fn tool_with_asks() {
    let out = crate::tool::expand(
        quote!(asks = [approve, travel::guest]),
        quote! {
            /// Books a package.
            async fn book(cx: &Cx, package_id: String) -> Result<String, String> {
                match cx.ask(approve(&package_id)).await {
                    Answer::Accept(a) if a.approve => Ok(package_id),
                    _ => Err("not booked".into()),
                }
            }
        },
    );
    check(
        items(out),
        expect_file!["../../tests/snapshots/tool_asks.rs"],
    );
}

#[test]
fn toolbox_with_asks() {
    let out = crate::toolbox::expand(
        TokenStream::new(),
        quote! {
            impl<T: Clone> Shop<T> {
                /// Books an item.
                #[tool(asks = [approve])]
                async fn book(&self, cx: &Cx, item: String) -> String {
                    match cx.ask(approve(&item)).await {
                        Answer::Accept(_) => item,
                        _ => String::new(),
                    }
                }

                /// Counts the stock, asking nothing.
                #[tool]
                async fn count(&self, cx: &Cx) -> u32 {
                    let _ = cx.revision();
                    3
                }
            }
        },
    );
    check(
        items(out),
        expect_file!["../../tests/snapshots/toolbox_asks.rs"],
    );
}

#[test]
fn sample_with_a_function() {
    let out = crate::sample::expand(
        quote!(fallback = rank_locally),
        quote! {
            /// Lets the client's model pick the best flights.
            pub fn pick_flights(flights: &[Flight]) -> Sample<Picks> {
                Sample::user(listing(flights)).max_tokens(300)
            }
        },
    );
    check(
        items(out),
        expect_file!["../../tests/snapshots/sample_function.rs"],
    );
}

#[test]
fn roots_with_refuse() {
    let out = crate::roots::expand(
        quote!(fallback = refuse),
        quote! {
            /// The client's roots.
            fn workspace(folders: &[String]) -> Roots;
        },
    );
    check(
        items(out),
        expect_file!["../../tests/snapshots/roots_refuse.rs"],
    );
}
