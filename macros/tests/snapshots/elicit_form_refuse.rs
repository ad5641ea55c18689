/// Asks the traveller to approve the package.
pub fn approve<'__rondo_0>(
    pkg: &'__rondo_0 Package,
    seats: u8,
) -> ::rondo_mcp::__private::Asked<approve, (&'__rondo_0 Package, u8)> {
    ::rondo_mcp::__private::Asked::new((pkg, seats))
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
pub struct approve {}
const _: () = {
    #[automatically_derived]
    impl ::rondo_mcp::__private::QuestionDecl for approve {
        const KEY: &'static ::core::primitive::str = "approve";
        const ARGUMENTS: &'static [&'static ::core::primitive::str] = &[];
        const ARGS_FALLBACK: ::core::primitive::bool = false;
        const META: ::rondo_mcp::__private::AskMeta = ::rondo_mcp::__private::AskMeta {
            key: Self::KEY,
            kind: ::rondo_mcp::__private::AskKind::Form,
            fallback: ::rondo_mcp::__private::FallbackKind::Refuse,
        };
    }
    #[automatically_derived]
    impl<'__rondo_0> ::rondo_mcp::__private::Ask<(&'__rondo_0 Package, u8)> for approve
    where
        for<'__rondo_r> Form<Approval>: ::rondo_mcp::__private::Rendered,
    {
        type Rendered = Form<Approval>;
        fn render(__rondo_inputs: &(&'__rondo_0 Package, u8)) -> Self::Rendered {
            #[allow(clippy::needless_pass_by_value)]
            fn approve(pkg: &Package, seats: u8) -> Form<Approval> {
                Form::new(format!("Book {} for {seats}?", pkg.name))
            }
            approve(
                ::rondo_mcp::__private::input(&__rondo_inputs.0),
                ::rondo_mcp::__private::input(&__rondo_inputs.1),
            )
        }
        fn fallback<'__rondo>(
            _: &'__rondo ::rondo_mcp::__private::Cx,
            _: (&'__rondo_0 Package, u8),
        ) -> ::rondo_mcp::__private::BoxFuture<
            '__rondo,
            ::rondo_mcp::__private::Fallback<
                ::rondo_mcp::__private::AnswerOf<Self, (&'__rondo_0 Package, u8)>,
            >,
        >
        where
            (&'__rondo_0 Package, u8): '__rondo,
        {
            ::rondo_mcp::__private::refuse()
        }
    }
    #[allow(unused_imports)]
    use ::rondo_mcp::__private::NotRendered as _;
    const _: fn() = || {
        ::rondo_mcp::__private::rendered::<Form<Approval>>();
        ::rondo_mcp::__private::Mode::<Form<Approval>>::form();
    };
};
