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
                const KEY: ::core::option::Option<&'static ::core::primitive::str> = ::core::option::Option::Some(
                    <T as crate::reexport::mcp::__private::ResourceHandler>::URI,
                );
            }
            #[allow(dead_code)]
            trait __RondoNotListed {
                const KEY: ::core::option::Option<&'static ::core::primitive::str> = ::core::option::Option::None;
            }
            impl<T> __RondoNotListed for __RondoEntry<T> {}
            static __RONDO_DUPLICATES: crate::reexport::mcp::__private::Duplicates<
                2usize,
            > = crate::reexport::mcp::__private::Duplicates::new(
                [
                    __RondoEntry::<__rondo_entry_0>::KEY,
                    __RondoEntry::<__rondo_entry_1>::KEY,
                ],
                ["welcome", "item"],
                "serves the same URI as",
                "earlier in this `resources![..]`; give one another URI",
            );
            const _: () = __RONDO_DUPLICATES.check(1usize);
            crate::reexport::mcp::__private::ResourceSet::new()
                .with::<__rondo_entry_0>()
                .with::<__rondo_entry_1>()
        }
    };
}
