/// Asks who is there.
fn guest() -> ::rondo_mcp::__private::Asked<guest, ()> {
    ::rondo_mcp::__private::Asked::new(())
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct guest {}
const _: () = {
    #[automatically_derived]
    impl ::rondo_mcp::__private::QuestionDecl for guest {
        const KEY: &'static ::core::primitive::str = "guest";
        const ARGUMENTS: &'static [&'static ::core::primitive::str] = ::rondo_mcp::__private::FormArgs::<
            Form<Guest>,
        >::FIELDS;
        const ARGS_FALLBACK: ::core::primitive::bool = true;
        fn argument_schema() -> ::core::option::Option<
            ::rondo_mcp::__private::JsonObject,
        > {
            ::rondo_mcp::__private::FormArgs::<Form<Guest>>::schema()
        }
        const META: ::rondo_mcp::__private::AskMeta = ::rondo_mcp::__private::AskMeta {
            key: Self::KEY,
            kind: ::rondo_mcp::__private::AskKind::Form,
            fallback: ::rondo_mcp::__private::FallbackKind::Args,
        };
    }
    #[automatically_derived]
    impl ::rondo_mcp::__private::Ask<()> for guest
    where
        for<'__rondo_r> Form<Guest>: ::rondo_mcp::__private::Rendered,
    {
        type Rendered = Form<Guest>;
        fn render(__rondo_inputs: &()) -> Self::Rendered {
            #[allow(clippy::needless_pass_by_value)]
            fn guest() -> Form<Guest> {
                Form::new("Who is there?")
            }
            guest()
        }
        fn fallback<'__rondo>(
            __rondo_cx: &'__rondo ::rondo_mcp::__private::Cx,
            _: (),
        ) -> ::rondo_mcp::__private::BoxFuture<
            '__rondo,
            ::rondo_mcp::__private::Fallback<::rondo_mcp::__private::AnswerOf<Self, ()>>,
        >
        where
            (): '__rondo,
        {
            #[allow(unused_imports)]
            use ::rondo_mcp::__private::NotAForm as _;
            ::rondo_mcp::__private::FormArgs::<
                Form<Guest>,
            >::fallback(__rondo_cx, "guest")
        }
    }
    #[allow(unused_imports)]
    use ::rondo_mcp::__private::NotRendered as _;
    const _: fn() = || {
        ::rondo_mcp::__private::rendered::<Form<Guest>>();
        ::rondo_mcp::__private::Mode::<Form<Guest>>::form();
    };
    const _: () = {
        #[allow(unused_imports)]
        use ::rondo_mcp::__private::NotAForm as _;
        if ::rondo_mcp::__private::FormArgs::<Form<Guest>>::CONSENT {
            ::core::panic!(
                "`fallback = args` would let the model fill in this form, and its yes/no field is consent, which never comes from the model; use `fallback = refuse` or a function, or mark the field `#[elicit(not_consent)]` if it is plain data"
            )
        }
    };
};
