/// The welcome note.
async fn welcome() -> ResourceContents {
    ResourceContents::text("note://welcome", "text/plain", "Welcome!")
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct welcome {}
const _: () = {
    #[automatically_derived]
    impl ::rondo_mcp::__private::ResourceHandler for welcome {
        const URI: &'static ::core::primitive::str = "note://welcome";
        fn definition() -> ::rondo_mcp::__private::ResourceDef {
            ::rondo_mcp::__private::resource_definition(
                false,
                "note://welcome",
                "welcome",
                ::core::option::Option::None,
                ::core::option::Option::Some("The welcome note."),
                ::core::option::Option::Some("text/plain"),
            )
        }
        fn read<'__rondo>(
            __rondo_cx: &'__rondo ::rondo_mcp::__private::Cx,
            __rondo_uri: &'__rondo ::core::primitive::str,
            __rondo_vars: ::rondo_mcp::__private::BTreeMap<
                ::std::string::String,
                ::std::string::String,
            >,
        ) -> ::rondo_mcp::__private::BoxFuture<
            '__rondo,
            ::core::result::Result<
                ::rondo_mcp::__private::ReadResourceResult,
                ::rondo_mcp::__private::Error,
            >,
        > {
            {
                let _ = (__rondo_uri, __rondo_vars);
                ::std::boxed::Box::pin(async move {
                    let __rondo_out: ResourceContents = welcome().await;
                    <ResourceContents as ::rondo_mcp::__private::IntoResourceResult>::into_resource_result(
                        __rondo_out,
                    )
                })
            }
        }
    }
};
