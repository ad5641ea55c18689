async fn search(query: String) -> String {
    query
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct search {}
const _: () = {
    #[automatically_derived]
    impl ::rondo_mcp::__private::ToolHandler for search {
        const NAME: &'static ::core::primitive::str = "search";
        fn definition() -> ::rondo_mcp::__private::Tool {
            ::core::panic!("a `#[tool]` with errors")
        }
        fn call<'__rondo>(
            _: &'__rondo ::rondo_mcp::__private::Cx,
            _: &'__rondo ::rondo_mcp::__private::JsonObject,
        ) -> ::rondo_mcp::__private::BoxFuture<
            '__rondo,
            ::core::result::Result<
                ::rondo_mcp::__private::CallToolResult,
                ::rondo_mcp::__private::Error,
            >,
        > {
            ::core::panic!("a `#[tool]` with errors")
        }
    }
};
::core::compile_error! {
    "unknown `#[tool]` argument `descripton`; did you mean `description`?"
}
