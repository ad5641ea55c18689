/// Reviews code.
async fn review(code: String, focus: Option<String>) -> String {
    format!("{code} {focus:?}")
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct review {}
const _: () = {
    #[automatically_derived]
    impl ::rondo_mcp::__private::PromptHandler for review {
        const NAME: &'static ::core::primitive::str = "review";
        fn definition() -> ::rondo_mcp::__private::Prompt {
            ::rondo_mcp::__private::assert_prompt_argument::<String>();
            ::rondo_mcp::__private::assert_prompt_argument::<Option<String>>();
            ::rondo_mcp::__private::prompt_definition(
                "review",
                ::core::option::Option::Some("Code review"),
                "Reviews code.",
                ::rondo_mcp::__private::prompt_arguments({
                    #[allow(unused_imports)]
                    use ::rondo_mcp::__private::NotParsed as _;
                    ::rondo_mcp::__private::input_schema_of(
                        &[
                            ::rondo_mcp::__private::Property {
                                name: "code",
                                description: ::core::option::Option::Some("The code"),
                                schema: ::rondo_mcp::__private::schemars::SchemaGenerator::subschema_for::<
                                    String,
                                >,
                                optional: ::rondo_mcp::__private::Optional::<
                                    String,
                                >::optional,
                            },
                            ::rondo_mcp::__private::Property {
                                name: "focus",
                                description: ::core::option::Option::None,
                                schema: ::rondo_mcp::__private::schemars::SchemaGenerator::subschema_for::<
                                    Option<String>,
                                >,
                                optional: ::rondo_mcp::__private::Optional::<
                                    Option<String>,
                                >::optional,
                            },
                        ],
                    )
                }),
            )
        }
        fn get<'__rondo>(
            __rondo_cx: &'__rondo ::rondo_mcp::__private::Cx,
            __rondo_arguments: &'__rondo ::rondo_mcp::__private::JsonObject,
        ) -> ::rondo_mcp::__private::BoxFuture<
            '__rondo,
            ::core::result::Result<
                ::rondo_mcp::__private::GetPromptResult,
                ::rondo_mcp::__private::Error,
            >,
        > {
            '__rondo_parse: {
                let __rondo_parsed = (
                    match ::rondo_mcp::__private::arg::<
                        String,
                    >(__rondo_arguments, "code") {
                        ::core::result::Result::Ok(__rondo_value) => __rondo_value,
                        ::core::result::Result::Err(__rondo_error) => {
                            break '__rondo_parse ::rondo_mcp::__private::invalid_prompt_arguments(
                                "review",
                                __rondo_error,
                            );
                        }
                    },
                    match ::rondo_mcp::__private::arg::<
                        Option<String>,
                    >(__rondo_arguments, "focus") {
                        ::core::result::Result::Ok(__rondo_value) => __rondo_value,
                        ::core::result::Result::Err(__rondo_error) => {
                            break '__rondo_parse ::rondo_mcp::__private::invalid_prompt_arguments(
                                "review",
                                __rondo_error,
                            );
                        }
                    },
                );
                ::std::boxed::Box::pin(async move {
                    let __rondo_out: String = review(__rondo_parsed.0, __rondo_parsed.1)
                        .await;
                    <String as ::rondo_mcp::__private::IntoPromptResult>::into_prompt_result(
                        __rondo_out,
                    )
                })
            }
        }
    }
};
