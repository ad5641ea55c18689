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
                const KEY: ::core::option::Option<&'static ::core::primitive::str> = ::core::option::Option::Some(
                    <T as ::rondo_mcp::__private::ToolHandler>::NAME,
                );
            }
            #[allow(dead_code)]
            trait __RondoNotListed {
                const KEY: ::core::option::Option<&'static ::core::primitive::str> = ::core::option::Option::None;
            }
            impl<T> __RondoNotListed for __RondoEntry<T> {}
            static __RONDO_DUPLICATES: ::rondo_mcp::__private::Duplicates<3usize> = ::rondo_mcp::__private::Duplicates::new(
                [
                    __RondoEntry::<__rondo_entry_0>::KEY,
                    __RondoEntry::<__rondo_entry_1>::KEY,
                    __RondoEntry::<__rondo_entry_2>::KEY,
                ],
                ["add", "math::mul", "quote"],
                "has the same tool name as",
                "earlier in this `tools![..]`; rename one with `#[tool(name = \"...\")]`",
            );
            const _: () = __RONDO_DUPLICATES.check(1usize);
            const _: () = __RONDO_DUPLICATES.check(2usize);
            ::rondo_mcp::__private::ToolSet::new()
                .with::<__rondo_entry_0>()
                .with::<__rondo_entry_1>()
                .with::<__rondo_entry_2>()
        }
    };
}
