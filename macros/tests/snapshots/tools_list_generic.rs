fn expansion() {
    let _ = {
        #[allow(non_camel_case_types, dead_code, unused_imports, unreachable_pub)]
        mod __rondo_fallback {
            mod functions {
                pub struct ping {}
            }
            pub use self::functions::ping as __rondo_entry_1;
        }
        #[allow(unused_imports)]
        use __rondo_fallback::*;
        {
            #[allow(non_camel_case_types)]
            type __rondo_entry_0 = Echo<u8>;
            #[allow(unused_imports)]
            use ping as __rondo_entry_1;
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
                            "`ping` has the same tool name as `Echo<u8>`, earlier in this `tools![..]`; rename one with `#[tool(name = \"...\")]`",
                        ),
                    ],
                )
            };
            ::rondo_mcp::__private::ToolSet::new()
                .with::<__rondo_entry_0>()
                .with::<__rondo_entry_1>()
        }
    };
}
