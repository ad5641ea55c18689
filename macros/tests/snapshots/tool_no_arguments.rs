/// Answers pong.
fn ping() -> &'static str {
    "pong"
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct ping {}
#[automatically_derived]
impl ::rondo_mcp::__private::ToolHandler for ping {
    const NAME: &'static ::core::primitive::str = "ping";
    fn definition() -> ::rondo_mcp::__private::Tool {
        ::rondo_mcp::__private::tool_definition(
            "ping",
            ::core::option::Option::None,
            "Answers pong.",
            ::rondo_mcp::__private::no_arguments(),
            <&'static str as ::rondo_mcp::__private::IntoToolResult>::output_schema(),
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
        {
            let _ = __rondo_arguments;
            ::std::boxed::Box::pin(async move {
                let __rondo_out: &'static str = ping();
                ::core::result::Result::Ok(
                    <&'static str as ::rondo_mcp::__private::IntoToolResult>::into_tool_result(
                        __rondo_out,
                    ),
                )
            })
        }
    }
}
