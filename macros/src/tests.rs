//! Expansion snapshots (CONTRIBUTING.md, "Tests"): each macro shape expanded from `proc_macro2`
//! input, pretty-printed and compared with `macros/tests/snapshots/`. Bless with `UPDATE_EXPECT=1`, then
//! read the diff: generated code names the runtime only as `::rondo_mcp::__private::..` and std
//! only by full paths.

use expect_test::{ExpectFile, expect_file};
use proc_macro2::TokenStream;
use quote::quote;

/// Pretty-prints an expansion made of items.
fn items(tokens: TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens).expect("the expansion parses as items");
    prettyplease::unparse(&file)
}

/// Pretty-prints an expansion that is an expression.
fn expr(tokens: TokenStream) -> String {
    let file: syn::File = syn::parse_quote!(
        fn expansion() {
            let _ = #tokens;
        }
    );
    prettyplease::unparse(&file)
}

fn check(actual: String, expected: ExpectFile) {
    expected.assert_eq(&actual);
}

#[test]
fn tool_with_arguments_and_context() {
    let out = crate::tool::expand(
        quote!(
            name = "weather.forecast",
            title = "Forecast",
            read_only_hint = true
        ),
        quote! {
            /// Forecasts the weather.
            pub async fn forecast(
                cx: &Cx,
                #[arg(description = "City name")] city: String,
                #[arg(rename = "dayCount")] days: Option<u32>,
            ) -> Result<String, String> {
                Ok(format!("{city} {days:?} {:?}", cx.revision()))
            }
        },
    );
    check(
        items(out),
        expect_file!["../tests/snapshots/tool_arguments_context.rs"],
    );
}

#[test]
fn tool_without_arguments() {
    let out = crate::tool::expand(
        TokenStream::new(),
        quote! {
            /// Answers pong.
            fn ping() -> &'static str {
                "pong"
            }
        },
    );
    check(
        items(out),
        expect_file!["../tests/snapshots/tool_no_arguments.rs"],
    );
}

#[test]
fn tool_with_input_schema() {
    let out = crate::tool::expand(
        quote!(input_schema = serde_json::json!({"type": "object"})),
        quote! {
            /// Books a trip.
            async fn book(#[args] trip: Trip) -> String {
                trip.to_string()
            }
        },
    );
    check(
        items(out),
        expect_file!["../tests/snapshots/tool_input_schema.rs"],
    );
}

#[test]
fn tool_with_an_args_struct() {
    let out = crate::tool::expand(
        TokenStream::new(),
        quote! {
            /// Books a trip.
            async fn book(#[args] trip: Trip) -> String {
                trip.to_string()
            }
        },
    );
    check(
        items(out),
        expect_file!["../tests/snapshots/tool_args_struct.rs"],
    );
}

#[test]
fn tool_with_named_arguments_and_an_args_struct() {
    let out = crate::tool::expand(
        TokenStream::new(),
        quote! {
            /// Books a trip.
            async fn book(#[arg(description = "Who travels")] guest: String, #[args] trip: Trip) -> String {
                format!("{guest} {trip}")
            }
        },
    );
    check(
        items(out),
        expect_file!["../tests/snapshots/tool_args_struct_and_named.rs"],
    );
}

#[test]
fn tool_with_errors_emits_a_stub() {
    let out = crate::tool::expand(
        quote!(descripton = "Searches"),
        quote! {
            async fn search(query: String) -> String {
                query
            }
        },
    );
    check(
        items(out),
        expect_file!["../tests/snapshots/tool_errors_stub.rs"],
    );
}

#[test]
fn toolbox() {
    let out = crate::toolbox::expand(
        TokenStream::new(),
        quote! {
            impl Shop {
                /// How many items are in stock.
                #[tool(read_only_hint)]
                fn stock(&self) -> u32 {
                    self.stock
                }

                /// Orders items.
                #[tool(name = "order")]
                async fn place_order(&self, cx: &Cx, count: u32) -> Result<String, String> {
                    Ok(format!("{count} {:?}", cx.revision()))
                }

                fn helper(&self) -> u32 {
                    self.stock
                }
            }
        },
    );
    check(items(out), expect_file!["../tests/snapshots/toolbox.rs"]);
}

#[test]
fn prompt() {
    let out = crate::prompt::expand(
        quote!(title = "Code review"),
        quote! {
            /// Reviews code.
            async fn review(
                #[arg(description = "The code")] code: String,
                focus: Option<String>,
            ) -> String {
                format!("{code} {focus:?}")
            }
        },
    );
    check(items(out), expect_file!["../tests/snapshots/prompt.rs"]);
}

#[test]
fn resource_fixed() {
    let out = crate::resource::expand(
        quote!("note://welcome", mime_type = "text/plain"),
        quote! {
            /// The welcome note.
            async fn welcome() -> ResourceContents {
                ResourceContents::text("note://welcome", "text/plain", "Welcome!")
            }
        },
    );
    check(
        items(out),
        expect_file!["../tests/snapshots/resource_fixed.rs"],
    );
}

#[test]
fn resource_template() {
    let out = crate::resource::expand(
        quote!("note://items/{id}", name = "item"),
        quote! {
            /// A note by id.
            async fn item(cx: &Cx, id: String) -> Result<ResourceContents, Error> {
                Ok(ResourceContents::text(format!("note://items/{id}"), "text/plain", id))
            }
        },
    );
    check(
        items(out),
        expect_file!["../tests/snapshots/resource_template.rs"],
    );
}

#[test]
fn tools_list() {
    let out = crate::list::expand(crate::list::Kind::Tools, quote!(add, math::mul, quote));
    check(expr(out), expect_file!["../tests/snapshots/tools_list.rs"]);
}

#[test]
fn tools_list_with_a_generic_handler() {
    let out = crate::list::expand(crate::list::Kind::Tools, quote!(Echo<u8>, ping));
    check(
        expr(out),
        expect_file!["../tests/snapshots/tools_list_generic.rs"],
    );
}

#[test]
fn resources_list_with_crate_path() {
    let out = crate::list::expand(
        crate::list::Kind::Resources,
        quote!(crate = crate::reexport::mcp; welcome, item),
    );
    check(
        expr(out),
        expect_file!["../tests/snapshots/resources_list_crate.rs"],
    );
}

#[cfg(feature = "skills")]
#[test]
fn skills_folder() {
    // `skills/` of this crate (the folder its docs embed): one skill, one file.
    let out = crate::skills::expand(quote!("skills"));
    check(
        expr(out),
        expect_file!["../tests/snapshots/skills_folder.rs"],
    );
}

#[cfg(feature = "skills")]
#[test]
fn skills_folder_with_a_crate_path() {
    let out = crate::skills::expand(quote!(crate = ::mcp; "skills"));
    check(
        expr(out),
        expect_file!["../tests/snapshots/skills_folder_crate.rs"],
    );
}

#[cfg(feature = "skills")]
#[test]
fn skills_folder_that_is_missing() {
    // Only the error (at the literal: `ui-tests/ui/skills/fail/missing_folder.rs`), no stub: the
    // expression is the error.
    let out = crate::skills::expand(quote!("no-such-folder"));
    check(
        expr(out),
        expect_file!["../tests/snapshots/skills_missing.rs"],
    );
}

#[test]
fn derive_elicit_form() {
    let out = crate::derive_elicit::expand(quote! {
        #[elicit(rename_all = "camelCase")]
        struct Approval {
            /// Book this trip?
            approve: bool,
            /// Seat preference
            seat: Option<Seat>,
            #[elicit(default = false, not_consent)]
            insurance: bool,
            #[elicit(format = "email", max_length = 80)]
            contact_email: Option<String>,
            #[elicit(min = 1, max = 9)]
            travellers: u8,
        }
    });
    check(
        items(out),
        expect_file!["../tests/snapshots/derive_elicit_form.rs"],
    );
}

#[test]
fn derive_elicit_choice() {
    let out = crate::derive_elicit::expand(quote! {
        enum Seat {
            /// A window seat
            Window,
            #[elicit(rename = "aisle", title = "An aisle seat")]
            Aisle,
        }
    });
    check(
        items(out),
        expect_file!["../tests/snapshots/derive_elicit_choice.rs"],
    );
}

#[test]
fn derive_elicit_with_errors_emits_a_stub() {
    let out = crate::derive_elicit::expand(quote! {
        struct Login {
            password: String,
        }
    });
    check(
        items(out),
        expect_file!["../tests/snapshots/derive_elicit_errors_stub.rs"],
    );
}

mod questions;
