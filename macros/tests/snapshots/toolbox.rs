impl Shop {
    /// How many items are in stock.
    fn stock(&self) -> u32 {
        self.stock
    }
    /// Orders items.
    async fn place_order(&self, cx: &Cx, count: u32) -> Result<String, String> {
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
        Ok(format!("{count} {:?}", cx.revision()))
    }
    fn helper(&self) -> u32 {
        self.stock
    }
}
const _: () = {
    const _: () = {
        #[allow(non_camel_case_types, unreachable_pub)]
        pub struct place_order {}
        #[automatically_derived]
        impl ::rondo_mcp::__private::AsksOf<1> for Shop {
            type Set = place_order;
        }
    };
    #[automatically_derived]
    impl ::rondo_mcp::__private::ToolBox for Shop {
        fn tools(&self) -> ::std::vec::Vec<::rondo_mcp::__private::Tool> {
            ::std::vec![
                ::rondo_mcp::__private::tool_definition("stock",
                ::core::option::Option::None, "How many items are in stock.",
                ::rondo_mcp::__private::no_arguments(), < u32 as
                ::rondo_mcp::__private::IntoToolResult > ::output_schema(),
                [::core::option::Option::Some(true), ::core::option::Option::None,
                ::core::option::Option::None, ::core::option::Option::None],),
                ::rondo_mcp::__private::tool_definition("order",
                ::core::option::Option::None, "Orders items.", { #[allow(unused_imports)]
                use ::rondo_mcp::__private::NotParsed as _;
                ::rondo_mcp::__private::input_schema_of(&
                [::rondo_mcp::__private::Property { name : "count", description :
                ::core::option::Option::None, schema :
                ::rondo_mcp::__private::schemars::SchemaGenerator::subschema_for:: < u32
                >, optional : ::rondo_mcp::__private::Optional:: < u32 > ::optional, }])
                }, < Result < String, String > as ::rondo_mcp::__private::IntoToolResult
                > ::output_schema(), [::core::option::Option::None,
                ::core::option::Option::None, ::core::option::Option::None,
                ::core::option::Option::None],)
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
                "stock" => {
                    ::core::option::Option::Some({
                        let _ = __rondo_arguments;
                        ::std::boxed::Box::pin(async move {
                            let __rondo_out: u32 = self.stock();
                            ::core::result::Result::Ok(
                                <u32 as ::rondo_mcp::__private::IntoToolResult>::into_tool_result(
                                    __rondo_out,
                                ),
                            )
                        })
                    })
                }
                "order" => {
                    ::core::option::Option::Some('__rondo_parse: {
                        let __rondo_parsed = (
                            match ::rondo_mcp::__private::arg::<
                                u32,
                            >(__rondo_arguments, "count") {
                                ::core::result::Result::Ok(__rondo_value) => __rondo_value,
                                ::core::result::Result::Err(__rondo_error) => {
                                    break '__rondo_parse ::rondo_mcp::__private::invalid_tool_arguments(
                                        "order",
                                        __rondo_error,
                                    );
                                }
                            },
                        );
                        ::std::boxed::Box::pin(async move {
                            let __rondo_out: Result<String, String> = self
                                .place_order(
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
                    })
                }
                _ => ::core::option::Option::None,
            }
        }
    }
};
