/// Lets the client's model pick the best flights.
pub fn pick_flights<'__rondo_0>(
    flights: &'__rondo_0 [Flight],
) -> ::rondo_mcp::__private::Asked<pick_flights, (&'__rondo_0 [Flight],)> {
    ::rondo_mcp::__private::Asked::new((flights,))
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
pub struct pick_flights {}
const _: () = {
    #[automatically_derived]
    impl ::rondo_mcp::__private::QuestionDecl for pick_flights {
        const KEY: &'static ::core::primitive::str = "pick_flights";
        const ARGUMENTS: &'static [&'static ::core::primitive::str] = &[];
        const ARGS_FALLBACK: ::core::primitive::bool = false;
        const META: ::rondo_mcp::__private::AskMeta = ::rondo_mcp::__private::AskMeta {
            key: Self::KEY,
            kind: ::rondo_mcp::__private::AskKind::Sampling,
            fallback: ::rondo_mcp::__private::FallbackKind::Function,
        };
    }
    #[automatically_derived]
    impl<'__rondo_0> ::rondo_mcp::__private::Ask<(&'__rondo_0 [Flight],)>
    for pick_flights
    where
        for<'__rondo_r> Sample<Picks>: ::rondo_mcp::__private::Rendered,
    {
        type Rendered = Sample<Picks>;
        fn render(__rondo_inputs: &(&'__rondo_0 [Flight],)) -> Self::Rendered {
            #[allow(clippy::needless_pass_by_value)]
            fn pick_flights(flights: &[Flight]) -> Sample<Picks> {
                Sample::user(listing(flights)).max_tokens(300)
            }
            pick_flights(::rondo_mcp::__private::input(&__rondo_inputs.0))
        }
        fn fallback<'__rondo>(
            _: &'__rondo ::rondo_mcp::__private::Cx,
            __rondo_inputs: (&'__rondo_0 [Flight],),
        ) -> ::rondo_mcp::__private::BoxFuture<
            '__rondo,
            ::rondo_mcp::__private::Fallback<
                ::rondo_mcp::__private::AnswerOf<Self, (&'__rondo_0 [Flight],)>,
            >,
        >
        where
            (&'__rondo_0 [Flight],): '__rondo,
        {
            let (__rondo_input_0,) = __rondo_inputs;
            #[allow(unused_imports)]
            use ::rondo_mcp::__private::ViaFuture as _;
            #[allow(unused_imports)]
            use ::rondo_mcp::__private::ViaValue as _;
            (&::rondo_mcp::__private::FallbackCall::<
                ::rondo_mcp::__private::AnswerOf<Self, (&'__rondo_0 [Flight],)>,
                _,
            >::new(
                {
                    #[allow(dead_code)]
                    fn refuse() {}
                    rank_locally
                }(__rondo_input_0),
            ))
                .run()
        }
    }
    const _: fn() = || {
        ::rondo_mcp::__private::is_sample::<Sample<Picks>>();
    };
};
