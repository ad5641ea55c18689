/// A note by id.
async fn item(cx: &Cx, id: String) -> Result<ResourceContents, Error> {
    #[allow(unused_imports)]
    let __rondo_asking = {
        use ::rondo_mcp::__private::RebindCx as _;
        use ::rondo_mcp::__private::RebindOther as _;
        (&cx).__rondo_asking::<item>()
    };
    #[allow(unused_imports)]
    let cx = {
        use ::rondo_mcp::__private::RebindRef as _;
        use ::rondo_mcp::__private::RebindRefOther as _;
        (&__rondo_asking).__rondo_context()
    };
    Ok(ResourceContents::text(format!("note://items/{id}"), "text/plain", id))
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct item {}
const _: () = {
    #[automatically_derived]
    impl ::rondo_mcp::__private::ResourceHandler for item {
        const URI: &'static ::core::primitive::str = "note://items/{id}";
        fn definition() -> ::rondo_mcp::__private::ResourceDef {
            ::rondo_mcp::__private::resource_definition(
                true,
                "note://items/{id}",
                "item",
                ::core::option::Option::None,
                ::core::option::Option::Some("A note by id."),
                ::core::option::Option::None,
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
                let __rondo_arguments = &::rondo_mcp::__private::template_arguments(
                    __rondo_vars,
                );
                '__rondo_parse: {
                    let __rondo_parsed = (
                        match ::rondo_mcp::__private::arg::<
                            String,
                        >(__rondo_arguments, "id") {
                            ::core::result::Result::Ok(__rondo_value) => __rondo_value,
                            ::core::result::Result::Err(__rondo_error) => {
                                break '__rondo_parse ::rondo_mcp::__private::invalid_template_arguments(
                                    __rondo_uri,
                                    __rondo_error,
                                );
                            }
                        },
                    );
                    ::std::boxed::Box::pin(async move {
                        let __rondo_out: Result<ResourceContents, Error> = item(
                                ::rondo_mcp::__private::context::<Cx>(__rondo_cx),
                                __rondo_parsed.0,
                            )
                            .await;
                        <Result<
                            ResourceContents,
                            Error,
                        > as ::rondo_mcp::__private::IntoResourceResult>::into_resource_result(
                            __rondo_out,
                        )
                    })
                }
            }
        }
    }
};
