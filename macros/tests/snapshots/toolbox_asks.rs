impl<T: Clone> Shop<T> {
    /// Books an item.
    async fn book(&self, cx: &Cx, item: String) -> String {
        #[allow(unused_imports)]
        let __rondo_asking = {
            use ::rondo_mcp::__private::RebindCx as _;
            use ::rondo_mcp::__private::RebindOther as _;
            (&cx).__rondo_asking::<<Self as ::rondo_mcp::__private::AsksOf<0>>::Set>()
        };
        #[allow(unused_imports)]
        let cx = {
            use ::rondo_mcp::__private::RebindRef as _;
            use ::rondo_mcp::__private::RebindRefOther as _;
            (&__rondo_asking).__rondo_context()
        };
        match cx.ask(approve(&item)).await {
            Answer::Accept(_) => item,
            _ => String::new(),
        }
    }
    /// Counts the stock, asking nothing.
    async fn count(&self, cx: &Cx) -> u32 {
        #[allow(unused_imports)]
        let __rondo_asking = {
            use ::rondo_mcp::__private::RebindCx as _;
            use ::rondo_mcp::__private::RebindOther as _;
            (&cx).__rondo_asking::<<Self as ::rondo_mcp::__private::AsksOf<1>>::Set>()
        };
        #[allow(unused_imports)]
        let cx = {
            use ::rondo_mcp::__private::RebindRef as _;
            use ::rondo_mcp::__private::RebindRefOther as _;
            (&__rondo_asking).__rondo_context()
        };
        let _ = cx.revision();
        3
    }
}
const _: () = {
    #[allow(non_camel_case_types, dead_code, unused_imports, unreachable_pub)]
    mod __rondo_fallback {
        mod functions {
            pub struct approve {}
        }
        pub use self::functions::approve as __rondo_ask_0_0;
    }
    #[allow(unused_imports)]
    use __rondo_fallback::*;
    const _: () = {
        #[allow(unused_imports)]
        use approve as __rondo_ask_0_0;
        #[allow(unused_imports)]
        use ::rondo_mcp::__private::NotListed as _;
        const _: () = {
            #[allow(non_camel_case_types, unreachable_pub)]
            pub struct book {}
            #[automatically_derived]
            impl<T: Clone> ::rondo_mcp::__private::AsksOf<0> for Shop<T> {
                type Set = book;
            }
            #[automatically_derived]
            impl ::rondo_mcp::__private::Declared<book> for __rondo_ask_0_0 {}
        };
        const _: () = {
            #[allow(non_camel_case_types, unreachable_pub)]
            pub struct count {}
            #[automatically_derived]
            impl<T: Clone> ::rondo_mcp::__private::AsksOf<1> for Shop<T> {
                type Set = count;
            }
        };
        const _: () = {
            const MESSAGES: &[&::core::primitive::str] = &[
                "the argument `item` of tool `book` is also a field of the form `approve`, which `fallback = args` adds to the tool's arguments; rename the argument with `#[arg(rename = \"...\")]` or the field with `#[elicit(rename = \"...\")]`",
            ];
            match ::rondo_mcp::__private::argument_collision(
                &["item"],
                ::rondo_mcp::__private::Listed::<__rondo_ask_0_0>::ARGUMENTS,
            ) {
                ::core::option::Option::Some(i) => ::core::panic!("{}", MESSAGES[i]),
                ::core::option::Option::None => {}
            }
        };
        #[automatically_derived]
        impl<T: Clone> ::rondo_mcp::__private::ToolBox for Shop<T> {
            fn tools(&self) -> ::std::vec::Vec<::rondo_mcp::__private::Tool> {
                ::std::vec![
                    ::rondo_mcp::__private::with_asks(::rondo_mcp::__private::tool_definition("book",
                    ::core::option::Option::None, "Books an item.",
                    ::rondo_mcp::__private::with_question_arguments({
                    #[allow(unused_imports)] use ::rondo_mcp::__private::NotParsed as _;
                    ::rondo_mcp::__private::input_schema_of(&
                    [::rondo_mcp::__private::Property { name : "item", description :
                    ::core::option::Option::None, schema :
                    ::rondo_mcp::__private::schemars::SchemaGenerator::subschema_for:: <
                    String >, optional : ::rondo_mcp::__private::Optional:: < String >
                    ::optional, }]) }, & [::rondo_mcp::__private::Listed:: <
                    __rondo_ask_0_0 > ::argument_schema]), < String as
                    ::rondo_mcp::__private::IntoToolResult > ::output_schema(),
                    [::core::option::Option::None, ::core::option::Option::None,
                    ::core::option::Option::None, ::core::option::Option::None],), &
                    [::rondo_mcp::__private::Listed:: < __rondo_ask_0_0 > ::META]),
                    ::rondo_mcp::__private::tool_definition("count",
                    ::core::option::Option::None, "Counts the stock, asking nothing.",
                    ::rondo_mcp::__private::no_arguments(), < u32 as
                    ::rondo_mcp::__private::IntoToolResult > ::output_schema(),
                    [::core::option::Option::None, ::core::option::Option::None,
                    ::core::option::Option::None, ::core::option::Option::None],)
                ]
            }
            fn call<'__rondo>(
                &'__rondo self,
                __rondo_cx: &'__rondo ::rondo_mcp::__private::Cx,
                __rondo_name: &'__rondo ::core::primitive::str,
                __rondo_arguments: &'__rondo ::rondo_mcp::__private::JsonObject,
            ) -> ::core::option::Option<
                ::rondo_mcp::__private::BoxFuture<
                    '__rondo,
                    ::core::result::Result<
                        ::rondo_mcp::__private::CallToolResult,
                        ::rondo_mcp::__private::Error,
                    >,
                >,
            > {
                match __rondo_name {
                    "book" => {
                        ::core::option::Option::Some('__rondo_parse: {
                            let __rondo_parsed = (
                                match ::rondo_mcp::__private::arg::<
                                    String,
                                >(__rondo_arguments, "item") {
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
                                let __rondo_out: String = self
                                    .book(
                                        ::rondo_mcp::__private::context::<Cx>(__rondo_cx),
                                        __rondo_parsed.0,
                                    )
                                    .await;
                                ::core::result::Result::Ok(
                                    <String as ::rondo_mcp::__private::IntoToolResult>::into_tool_result(
                                        __rondo_out,
                                    ),
                                )
                            })
                        })
                    }
                    "count" => {
                        ::core::option::Option::Some({
                            let _ = __rondo_arguments;
                            ::std::boxed::Box::pin(async move {
                                let __rondo_out: u32 = self
                                    .count(::rondo_mcp::__private::context::<Cx>(__rondo_cx))
                                    .await;
                                ::core::result::Result::Ok(
                                    <u32 as ::rondo_mcp::__private::IntoToolResult>::into_tool_result(
                                        __rondo_out,
                                    ),
                                )
                            })
                        })
                    }
                    _ => ::core::option::Option::None,
                }
            }
        }
    };
};
