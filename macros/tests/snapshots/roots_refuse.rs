/// The client's roots.
fn workspace<'__rondo_0>(
    folders: &'__rondo_0 [String],
) -> ::rondo_mcp::__private::Asked<workspace, (&'__rondo_0 [String],)> {
    ::rondo_mcp::__private::Asked::new((folders,))
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct workspace {}
const _: () = {
    #[automatically_derived]
    impl ::rondo_mcp::__private::QuestionDecl for workspace {
        const KEY: &'static ::core::primitive::str = "workspace";
        const ARGUMENTS: &'static [&'static ::core::primitive::str] = &[];
        const ARGS_FALLBACK: ::core::primitive::bool = false;
        const META: ::rondo_mcp::__private::AskMeta = ::rondo_mcp::__private::AskMeta {
            key: Self::KEY,
            kind: ::rondo_mcp::__private::AskKind::Roots,
            fallback: ::rondo_mcp::__private::FallbackKind::Refuse,
        };
    }
    #[automatically_derived]
    impl<'__rondo_0> ::rondo_mcp::__private::Ask<(&'__rondo_0 [String],)> for workspace
    where
        for<'__rondo_r> Roots: ::rondo_mcp::__private::Rendered,
        for<'__rondo_r> Roots: ::rondo_mcp::__private::RootsQuestion,
    {
        type Rendered = Roots;
        fn render(_: &(&'__rondo_0 [String],)) -> Roots {
            <Roots as ::rondo_mcp::__private::RootsQuestion>::rendering()
        }
        fn fallback<'__rondo>(
            _: &'__rondo ::rondo_mcp::__private::Cx,
            _: (&'__rondo_0 [String],),
        ) -> ::rondo_mcp::__private::BoxFuture<
            '__rondo,
            ::rondo_mcp::__private::Fallback<
                ::rondo_mcp::__private::AnswerOf<Self, (&'__rondo_0 [String],)>,
            >,
        >
        where
            (&'__rondo_0 [String],): '__rondo,
        {
            ::rondo_mcp::__private::refuse()
        }
    }
    const _: fn() = || {
        ::rondo_mcp::__private::is_roots::<Roots>();
    };
};
