/// Forecasts the weather.
pub async fn forecast(
    cx: &Cx,
    city: String,
    days: Option<u32>,
) -> Result<String, String> {
    #[allow(unused_imports)]
    let __rondo_asking = {
        use ::rondo_mcp::__private::RebindCx as _;
        use ::rondo_mcp::__private::RebindOther as _;
        (&cx).__rondo_asking::<forecast>()
    };
    #[allow(unused_imports)]
    let cx = {
        use ::rondo_mcp::__private::RebindRef as _;
        use ::rondo_mcp::__private::RebindRefOther as _;
        (&__rondo_asking).__rondo_context()
    };
    Ok(format!("{city} {days:?} {:?}", cx.revision()))
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
pub struct forecast {}
#[automatically_derived]
impl ::rondo_mcp::__private::ToolHandler for forecast {
    const NAME: &'static ::core::primitive::str = "weather.forecast";
    fn definition() -> ::rondo_mcp::__private::Tool {
        ::rondo_mcp::__private::tool_definition(
            "weather.forecast",
            ::core::option::Option::Some("Forecast"),
            "Forecasts the weather.",
            {
                #[allow(unused_imports)]
                use ::rondo_mcp::__private::NotParsed as _;
                ::rondo_mcp::__private::input_schema_of(
                    &[
                        ::rondo_mcp::__private::Property {
                            name: "city",
                            description: ::core::option::Option::Some("City name"),
                            schema: ::rondo_mcp::__private::schemars::SchemaGenerator::subschema_for::<
                                String,
                            >,
                            optional: ::rondo_mcp::__private::Optional::<
                                String,
                            >::optional,
                        },
                        ::rondo_mcp::__private::Property {
                            name: "dayCount",
                            description: ::core::option::Option::None,
                            schema: ::rondo_mcp::__private::schemars::SchemaGenerator::subschema_for::<
                                Option<u32>,
                            >,
                            optional: ::rondo_mcp::__private::Optional::<
                                Option<u32>,
                            >::optional,
                        },
                    ],
                )
            },
            <Result<
                String,
                String,
            > as ::rondo_mcp::__private::IntoToolResult>::output_schema(),
            [
                ::core::option::Option::Some(true),
                ::core::option::Option::None,
                ::core::option::Option::None,
                ::core::option::Option::None,
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
                match ::rondo_mcp::__private::arg::<String>(__rondo_arguments, "city") {
                    ::core::result::Result::Ok(__rondo_value) => __rondo_value,
                    ::core::result::Result::Err(__rondo_error) => {
                        break '__rondo_parse ::rondo_mcp::__private::invalid_tool_arguments(
                            "weather.forecast",
                            __rondo_error,
                        );
                    }
                },
                match ::rondo_mcp::__private::arg::<
                    Option<u32>,
                >(__rondo_arguments, "dayCount") {
                    ::core::result::Result::Ok(__rondo_value) => __rondo_value,
                    ::core::result::Result::Err(__rondo_error) => {
                        break '__rondo_parse ::rondo_mcp::__private::invalid_tool_arguments(
                            "weather.forecast",
                            __rondo_error,
                        );
                    }
                },
            );
            ::std::boxed::Box::pin(async move {
                let __rondo_out: Result<String, String> = forecast(
                        ::rondo_mcp::__private::context::<Cx>(__rondo_cx),
                        __rondo_parsed.0,
                        __rondo_parsed.1,
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
