const _: () = {
    #[automatically_derived]
    impl ::rondo_mcp::__private::ElicitEnum for Seat {
        const OPTIONS: &'static [::rondo_mcp::__private::EnumOption] = &[
            ::rondo_mcp::__private::EnumOption {
                value: "Window",
                title: ::core::option::Option::Some("A window seat"),
            },
            ::rondo_mcp::__private::EnumOption {
                value: "aisle",
                title: ::core::option::Option::Some("An aisle seat"),
            },
        ];
        const LEGACY_NAMES: ::core::primitive::bool = false;
        fn from_wire(
            __rondo_value: &::core::primitive::str,
        ) -> ::core::option::Option<Self> {
            match __rondo_value {
                "Window" => ::core::option::Option::Some(Self::Window),
                "aisle" => ::core::option::Option::Some(Self::Aisle),
                _ => ::core::option::Option::None,
            }
        }
        fn to_wire(&self) -> &'static ::core::primitive::str {
            match self {
                Self::Window => "Window",
                Self::Aisle => "aisle",
            }
        }
    }
    #[automatically_derived]
    impl ::rondo_mcp::__private::FormField for Seat {
        const KIND: ::rondo_mcp::__private::FieldKind = ::rondo_mcp::__private::FieldKind::Enum;
        fn schema(
            __rondo_revision: ::rondo_mcp::__private::Revision,
        ) -> ::rondo_mcp::__private::JsonObject {
            ::rondo_mcp::__private::enum_schema::<Self>(__rondo_revision)
        }
        fn from_value(
            __rondo_value: ::core::option::Option<
                &::rondo_mcp::__private::serde_json::Value,
            >,
        ) -> ::core::result::Result<Self, ::rondo_mcp::__private::FieldProblem> {
            ::rondo_mcp::__private::enum_from_value::<Self>(__rondo_value)
        }
        fn to_value(&self) -> ::rondo_mcp::__private::serde_json::Value {
            ::rondo_mcp::__private::enum_to_value::<Self>(self)
        }
    }
};
