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
const _: () = {
    #[derive(::rondo_mcp::__private::schemars::JsonSchema)]
    #[schemars(crate = "::rondo_mcp::__private::schemars")]
    #[allow(non_camel_case_types, dead_code)]
    struct __RondoArgs_forecast {
        #[serde(rename = "city")]
        #[schemars(description = "City name")]
        city: String,
        #[serde(rename = "dayCount")]
        days: Option<u32>,
    }
    #[automatically_derived]
    impl ::rondo_mcp::__private::ToolHandler for forecast {
        const NAME: &'static ::core::primitive::str = "weather.forecast";
        fn definition() -> ::rondo_mcp::__private::Tool {
            ::rondo_mcp::__private::tool_definition(
                "weather.forecast",
                ::core::option::Option::Some("Forecast"),
                "Forecasts the weather.",
                ::rondo_mcp::__private::input_schema::<__RondoArgs_forecast>(),
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
            ::std::boxed::Box::pin(async move {
                let __rondo_parsed = match ::rondo_mcp::__private::tool_args(
                    "weather.forecast",
                    __rondo_arguments,
                    |__rondo_arguments: &::rondo_mcp::__private::JsonObject| ::core::result::Result::Ok((
                        ::rondo_mcp::__private::arg::<
                            String,
                        >(__rondo_arguments, "city")?,
                        ::rondo_mcp::__private::arg::<
                            Option<u32>,
                        >(__rondo_arguments, "dayCount")?,
                    )),
                ) {
                    ::core::result::Result::Ok(__rondo_parsed) => __rondo_parsed,
                    ::core::result::Result::Err(__rondo_invalid) => {
                        return ::core::result::Result::Ok(__rondo_invalid);
                    }
                };
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
};
