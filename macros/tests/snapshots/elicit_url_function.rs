/// Sends the user to pay.
fn pay<'__rondo_0>(
    order: &'__rondo_0 str,
) -> ::rondo_mcp::__private::Asked<pay, (&'__rondo_0 str,)> {
    ::rondo_mcp::__private::Asked::new((order,))
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct pay {}
const _: () = {
    #[automatically_derived]
    impl ::rondo_mcp::__private::QuestionDecl for pay {
        const KEY: &'static ::core::primitive::str = "pay";
        const ARGUMENTS: &'static [&'static ::core::primitive::str] = &[];
        const ARGS_FALLBACK: ::core::primitive::bool = false;
        const META: ::rondo_mcp::__private::AskMeta = ::rondo_mcp::__private::AskMeta {
            key: Self::KEY,
            kind: ::rondo_mcp::__private::AskKind::Url,
            fallback: ::rondo_mcp::__private::FallbackKind::Function,
        };
    }
    #[automatically_derived]
    impl<'__rondo_0> ::rondo_mcp::__private::Ask<(&'__rondo_0 str,)> for pay
    where
        for<'__rondo_r> Url: ::rondo_mcp::__private::Rendered,
    {
        type Rendered = Url;
        fn render(__rondo_inputs: &(&'__rondo_0 str,)) -> Self::Rendered {
            #[allow(clippy::needless_pass_by_value)]
            fn pay(order: &str) -> Url {
                Url::new("Pay", format!("https://pay.example.com/{order}"))
            }
            pay(::rondo_mcp::__private::input(&__rondo_inputs.0))
        }
        fn fallback<'__rondo>(
            _: &'__rondo ::rondo_mcp::__private::Cx,
            __rondo_inputs: (&'__rondo_0 str,),
        ) -> ::rondo_mcp::__private::BoxFuture<
            '__rondo,
            ::rondo_mcp::__private::Fallback<
                ::rondo_mcp::__private::AnswerOf<Self, (&'__rondo_0 str,)>,
            >,
        >
        where
            (&'__rondo_0 str,): '__rondo,
        {
            let (__rondo_input_0,) = __rondo_inputs;
            #[allow(unused_imports)]
            use ::rondo_mcp::__private::ViaFuture as _;
            #[allow(unused_imports)]
            use ::rondo_mcp::__private::ViaValue as _;
            (&::rondo_mcp::__private::FallbackCall::<
                ::rondo_mcp::__private::AnswerOf<Self, (&'__rondo_0 str,)>,
                _,
            >::new(
                {
                    #[allow(dead_code)]
                    fn refuse() {}
                    no_payment
                }(__rondo_input_0),
            ))
                .run()
        }
    }
    #[allow(unused_imports)]
    use ::rondo_mcp::__private::NotRendered as _;
    const _: fn() = || {
        ::rondo_mcp::__private::rendered::<Url>();
        ::rondo_mcp::__private::Mode::<Url>::url();
    };
};
