fn expansion() {
    let _ = {
        #[allow(non_camel_case_types, dead_code, unused_imports, unreachable_pub)]
        mod __rondo_fallback {
            mod functions {
                pub struct welcome {}
                pub struct item {}
            }
            pub use self::functions::welcome as __rondo_entry_0;
            pub use self::functions::item as __rondo_entry_1;
        }
        #[allow(unused_imports)]
        use __rondo_fallback::*;
        {
            #[allow(unused_imports)]
            use welcome as __rondo_entry_0;
            #[allow(unused_imports)]
            use item as __rondo_entry_1;
            #[allow(dead_code)]
            struct __RondoEntry<T>(T);
            impl<T: crate::reexport::mcp::__private::ResourceHandler> __RondoEntry<T> {
                const LISTED: ::core::primitive::bool = true;
                const KEY: &'static ::core::primitive::str = <T as crate::reexport::mcp::__private::ResourceHandler>::URI;
            }
            #[allow(dead_code)]
            trait __RondoNotListed {
                const LISTED: ::core::primitive::bool = false;
                const KEY: &'static ::core::primitive::str = "";
            }
            impl<T> __RondoNotListed for __RondoEntry<T> {}
            const _: () = if __RondoEntry::<__rondo_entry_1>::LISTED {
                crate::reexport::mcp::__private::assert_unique(
                    __RondoEntry::<__rondo_entry_1>::KEY,
                    &[
                        (
                            __RondoEntry::<__rondo_entry_0>::KEY,
                            "`item` serves the same URI as `welcome`, earlier in this `resources![..]`; give one another URI",
                        ),
                    ],
                )
            };
            crate::reexport::mcp::__private::ResourceSet::new()
                .with::<__rondo_entry_0>()
                .with::<__rondo_entry_1>()
        }
    };
}
