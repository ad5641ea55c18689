/// Books a trip.
async fn book(trip: Trip) -> String {
    trip.to_string()
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct book {}
#[automatically_derived]
impl ::rondo_mcp::__private::ToolHandler for book {
    const NAME: &'static ::core::primitive::str = "book";
    fn definition() -> ::rondo_mcp::__private::Tool {
        ::rondo_mcp::__private::tool_definition(
            "book",
            ::core::option::Option::None,
            "Books a trip.",
            ::rondo_mcp::__private::schema_object(
                serde_json::json!({ "type" : "object" }),
            ),
            <String as ::rondo_mcp::__private::IntoToolResult>::output_schema(),
            [
                ::core::option::Option::None,
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
                match ::rondo_mcp::__private::flattened::<Trip>(__rondo_arguments, &[]) {
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
                let __rondo_out: String = book(__rondo_parsed.0).await;
                ::core::result::Result::Ok(
                    <String as ::rondo_mcp::__private::IntoToolResult>::into_tool_result(
                        __rondo_out,
                    ),
                )
            })
        }
    }
}
