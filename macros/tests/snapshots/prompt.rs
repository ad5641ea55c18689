/// Reviews code.
async fn review(code: String, focus: Option<String>) -> String {
    format!("{code} {focus:?}")
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct review {}
const _: () = {
    #[derive(::rondo_mcp::__private::schemars::JsonSchema)]
    #[schemars(crate = "::rondo_mcp::__private::schemars")]
    #[allow(non_camel_case_types, dead_code)]
    struct __RondoArgs_review {
        #[serde(rename = "code")]
        #[schemars(description = "The code")]
        code: String,
        #[serde(rename = "focus")]
        focus: Option<String>,
    }
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
                ::rondo_mcp::__private::prompt_arguments::<__RondoArgs_review>(),
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
            ::std::boxed::Box::pin(async move {
                let __rondo_parsed = ::rondo_mcp::__private::prompt_args(
                    "review",
                    __rondo_arguments,
                    |__rondo_arguments: &::rondo_mcp::__private::JsonObject| ::core::result::Result::Ok((
                        ::rondo_mcp::__private::arg::<
                            String,
                        >(__rondo_arguments, "code")?,
                        ::rondo_mcp::__private::arg::<
                            Option<String>,
                        >(__rondo_arguments, "focus")?,
                    )),
                )?;
                let __rondo_out: String = review(__rondo_parsed.0, __rondo_parsed.1)
                    .await;
                <String as ::rondo_mcp::__private::IntoPromptResult>::into_prompt_result(
                    __rondo_out,
                )
            })
        }
    }
};
