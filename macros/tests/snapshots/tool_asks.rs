/// Books a package.
async fn book(cx: &Cx, package_id: String) -> Result<String, String> {
    #[allow(unused_imports)]
    let __rondo_asking = {
        use ::rondo_mcp::__private::RebindCx as _;
        use ::rondo_mcp::__private::RebindOther as _;
        (&cx).__rondo_asking::<book>()
    };
    #[allow(unused_imports)]
    let cx = {
        use ::rondo_mcp::__private::RebindRef as _;
        use ::rondo_mcp::__private::RebindRefOther as _;
        (&__rondo_asking).__rondo_context()
    };
    match cx.ask(approve(&package_id)).await {
        Answer::Accept(a) if a.approve => Ok(package_id),
        _ => Err("not booked".into()),
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct book {}
const _: () = {
    #[allow(non_camel_case_types, dead_code, unused_imports, unreachable_pub)]
    mod __rondo_fallback {
        mod functions {
            pub struct approve {}
            pub struct guest {}
        }
        pub use self::functions::approve as __rondo_ask_0_0;
        pub use self::functions::guest as __rondo_ask_0_1;
    }
    #[allow(unused_imports)]
    use __rondo_fallback::*;
    const _: () = {
        #[allow(unused_imports)]
        use approve as __rondo_ask_0_0;
        #[allow(unused_imports)]
        use travel::guest as __rondo_ask_0_1;
        #[allow(unused_imports)]
        use ::rondo_mcp::__private::NotListed as _;
        #[automatically_derived]
        impl ::rondo_mcp::__private::Declared<book> for __rondo_ask_0_0 {}
        #[automatically_derived]
        impl ::rondo_mcp::__private::Declared<book> for __rondo_ask_0_1 {}
        const _: () = {
            const MESSAGES: &[&::core::primitive::str] = &[
                "the argument `package_id` of tool `book` is also a field of the form `approve`, which `fallback = args` adds to the tool's arguments; rename the argument with `#[arg(rename = \"...\")]` or the field with `#[elicit(rename = \"...\")]`",
            ];
            match ::rondo_mcp::__private::argument_collision(
                &["package_id"],
                ::rondo_mcp::__private::Listed::<__rondo_ask_0_0>::ARGUMENTS,
            ) {
                ::core::option::Option::Some(i) => ::core::panic!("{}", MESSAGES[i]),
                ::core::option::Option::None => {}
            }
        };
        const _: () = {
            const MESSAGES: &[&::core::primitive::str] = &[
                "the argument `package_id` of tool `book` is also a field of the form `travel::guest`, which `fallback = args` adds to the tool's arguments; rename the argument with `#[arg(rename = \"...\")]` or the field with `#[elicit(rename = \"...\")]`",
            ];
            match ::rondo_mcp::__private::argument_collision(
                &["package_id"],
                ::rondo_mcp::__private::Listed::<__rondo_ask_0_1>::ARGUMENTS,
            ) {
                ::core::option::Option::Some(i) => ::core::panic!("{}", MESSAGES[i]),
                ::core::option::Option::None => {}
            }
        };
        #[automatically_derived]
        impl ::rondo_mcp::__private::ToolHandler for book {
            const NAME: &'static ::core::primitive::str = "book";
            fn definition() -> ::rondo_mcp::__private::Tool {
                ::rondo_mcp::__private::with_asks(
                    ::rondo_mcp::__private::tool_definition(
                        "book",
                        ::core::option::Option::None,
                        "Books a package.",
                        ::rondo_mcp::__private::with_question_arguments(
                            {
                                #[allow(unused_imports)]
                                use ::rondo_mcp::__private::NotParsed as _;
                                ::rondo_mcp::__private::input_schema_of(
                                    &[
                                        ::rondo_mcp::__private::Property {
                                            name: "package_id",
                                            description: ::core::option::Option::None,
                                            schema: ::rondo_mcp::__private::schemars::SchemaGenerator::subschema_for::<
                                                String,
                                            >,
                                            optional: ::rondo_mcp::__private::Optional::<
                                                String,
                                            >::optional,
                                        },
                                    ],
                                )
                            },
                            &[
                                ::rondo_mcp::__private::Listed::<
                                    __rondo_ask_0_0,
                                >::argument_schema,
                                ::rondo_mcp::__private::Listed::<
                                    __rondo_ask_0_1,
                                >::argument_schema,
                            ],
                        ),
                        <Result<
                            String,
                            String,
                        > as ::rondo_mcp::__private::IntoToolResult>::output_schema(),
                        [
                            ::core::option::Option::None,
                            ::core::option::Option::None,
                            ::core::option::Option::None,
                            ::core::option::Option::None,
                        ],
                    ),
                    &[
                        ::rondo_mcp::__private::Listed::<__rondo_ask_0_0>::META,
                        ::rondo_mcp::__private::Listed::<__rondo_ask_0_1>::META,
                    ],
                )
            }
            fn call<'__rondo>(
                __rondo_cx: &'__rondo ::rondo_mcp::__private::Cx,
                __rondo_arguments: &'__rondo ::rondo_mcp::__private::JsonObject,
            ) -> ::rondo_mcp::__private::BoxFuture<
                '__rondo,
                ::core::result::Result<
                    ::rondo_mcp::__private::CallToolResult,
                    ::rondo_mcp::__private::Error,
                >,
            > {
                '__rondo_parse: {
                    let __rondo_parsed = (
                        match ::rondo_mcp::__private::arg::<
                            String,
                        >(__rondo_arguments, "package_id") {
                            ::core::result::Result::Ok(__rondo_value) => __rondo_value,
                            ::core::result::Result::Err(__rondo_error) => {
                                break '__rondo_parse ::rondo_mcp::__private::invalid_tool_arguments(
                                    "book",
                                    __rondo_error,
                                );
                            }
                        },
                    );
                    ::std::boxed::Box::pin(async move {
                        let __rondo_out: Result<String, String> = book(
                                ::rondo_mcp::__private::context::<Cx>(__rondo_cx),
                                __rondo_parsed.0,
                            )
                            .await;
                        ::core::result::Result::Ok(
                            <Result<
                                String,
                                String,
                            > as ::rondo_mcp::__private::IntoToolResult>::into_tool_result(
                                __rondo_out,
                            ),
                        )
                    })
                }
            }
        }
    };
};
