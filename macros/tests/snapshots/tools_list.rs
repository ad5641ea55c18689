fn expansion() {
    let _ = {
        #[allow(non_camel_case_types, dead_code, unused_imports, unreachable_pub)]
        mod __rondo_fallback {
            mod functions {
                pub struct add {}
                pub struct mul {}
                pub struct quote {}
            }
            pub use self::functions::add as __rondo_entry_0;
            pub use self::functions::mul as __rondo_entry_1;
            pub use self::functions::quote as __rondo_entry_2;
        }
        #[allow(unused_imports)]
        use __rondo_fallback::*;
        {
            #[allow(unused_imports)]
            use add as __rondo_entry_0;
            #[allow(unused_imports)]
            use math::mul as __rondo_entry_1;
            #[allow(unused_imports)]
            use quote as __rondo_entry_2;
            #[allow(dead_code)]
            struct __RondoEntry<T>(T);
            impl<T: ::rondo_mcp::__private::ToolHandler> __RondoEntry<T> {
                const LISTED: ::core::primitive::bool = true;
                const KEY: &'static ::core::primitive::str = <T as ::rondo_mcp::__private::ToolHandler>::NAME;
            }
            #[allow(dead_code)]
            trait __RondoNotListed {
                const LISTED: ::core::primitive::bool = false;
                const KEY: &'static ::core::primitive::str = "";
            }
            impl<T> __RondoNotListed for __RondoEntry<T> {}
            const _: () = if __RondoEntry::<__rondo_entry_1>::LISTED {
                ::rondo_mcp::__private::assert_unique(
                    __RondoEntry::<__rondo_entry_1>::KEY,
                    &[
                        (
                            __RondoEntry::<__rondo_entry_0>::KEY,
                            "`math::mul` has the same tool name as `add`, earlier in this `tools![..]`; rename one with `#[tool(name = \"...\")]`",
                        ),
                    ],
                )
            };
            const _: () = if __RondoEntry::<__rondo_entry_2>::LISTED {
                ::rondo_mcp::__private::assert_unique(
                    __RondoEntry::<__rondo_entry_2>::KEY,
                    &[
                        (
                            __RondoEntry::<__rondo_entry_0>::KEY,
                            "`quote` has the same tool name as `add`, earlier in this `tools![..]`; rename one with `#[tool(name = \"...\")]`",
                        ),
                        (
                            __RondoEntry::<__rondo_entry_1>::KEY,
                            "`quote` has the same tool name as `math::mul`, earlier in this `tools![..]`; rename one with `#[tool(name = \"...\")]`",
                        ),
                    ],
                )
            };
            ::rondo_mcp::__private::ToolSet::new()
                .with::<__rondo_entry_0>()
                .with::<__rondo_entry_1>()
                .with::<__rondo_entry_2>()
        }
    };
}
