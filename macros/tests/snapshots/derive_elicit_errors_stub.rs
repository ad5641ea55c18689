const _: () = {
    #[automatically_derived]
    impl ::rondo_mcp::__private::Elicit for Login {
        const FIELDS: &'static [&'static ::core::primitive::str] = &[];
        const CONSENT: ::core::primitive::bool = false;
        fn requested_schema(
            _: ::rondo_mcp::__private::Revision,
        ) -> ::rondo_mcp::__private::JsonObject {
            ::core::panic!("a `#[derive(Elicit)]` with errors")
        }
        fn from_content(
            _: &::rondo_mcp::__private::JsonObject,
        ) -> ::core::result::Result<Self, ::rondo_mcp::__private::FormError> {
            ::core::panic!("a `#[derive(Elicit)]` with errors")
        }
    }
};
::core::compile_error! {
    "form field `password` looks like a secret (`password`): MCP forbids asking for passwords, API keys, tokens or payment credentials in a form; ask for it with a URL-mode question (`#[elicit(url)]`) instead, or mark the field `#[elicit(not_secret)]` if it is not a secret"
}
