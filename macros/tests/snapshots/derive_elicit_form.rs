const _: () = {
    const __RONDO_FIELDS: [::rondo_mcp::__private::FieldSpec; 5usize] = [
        ::rondo_mcp::__private::FieldSpec::new("approve").title("Book this trip?"),
        ::rondo_mcp::__private::FieldSpec::new("seat").title("Seat preference"),
        ::rondo_mcp::__private::FieldSpec::new("insurance"),
        ::rondo_mcp::__private::FieldSpec::new("contactEmail")
            .max_length(80u64)
            .format(::rondo_mcp::__private::StringFormat::Email),
        ::rondo_mcp::__private::FieldSpec::new("travellers")
            .min(::rondo_mcp::__private::Bound::Int(1i128))
            .max(::rondo_mcp::__private::Bound::Int(9i128)),
    ];
    #[doc(hidden)]
    fn __rondo_default_2() -> bool {
        ::rondo_mcp::__private::default_value::<bool, _>(false)
    }
    const _: () = if !<bool as ::rondo_mcp::__private::FormField>::KIND.is_boolean() {
        ::core::panic!(
            "`not_consent` applies to yes/no (`bool`) fields, and `insurance: bool` is not one; remove `not_consent` or make the field a `bool`"
        )
    };
    const _: () = if !<Option<String> as ::rondo_mcp::__private::FormField>::KIND
        .is_string()
    {
        ::core::panic!(
            "`format` applies to string fields, and `contact_email: Option<String>` is not one; remove `format` or make the field a `String`"
        )
    };
    const _: () = if !<Option<String> as ::rondo_mcp::__private::FormField>::KIND
        .is_string()
    {
        ::core::panic!(
            "`max_length` applies to string fields, and `contact_email: Option<String>` is not one; remove `max_length` or make the field a `String`"
        )
    };
    const _: () = if !<u8 as ::rondo_mcp::__private::FormField>::KIND.is_number() {
        ::core::panic!(
            "`min` applies to number and integer fields, and `travellers: u8` is not one; remove `min` or make the field a number"
        )
    };
    const _: () = if !<u8 as ::rondo_mcp::__private::FormField>::KIND.is_number() {
        ::core::panic!(
            "`max` applies to number and integer fields, and `travellers: u8` is not one; remove `max` or make the field a number"
        )
    };
    #[automatically_derived]
    impl ::rondo_mcp::__private::Elicit for Approval {
        const FIELDS: &'static [&'static ::core::primitive::str] = &[
            "approve",
            "seat",
            "insurance",
            "contactEmail",
            "travellers",
        ];
        const CONSENT: ::core::primitive::bool = <bool as ::rondo_mcp::__private::FormField>::KIND
            .is_boolean()
            || <Option<Seat> as ::rondo_mcp::__private::FormField>::KIND.is_boolean()
            || <Option<String> as ::rondo_mcp::__private::FormField>::KIND.is_boolean()
            || <u8 as ::rondo_mcp::__private::FormField>::KIND.is_boolean() || false;
        fn requested_schema(
            __rondo_revision: ::rondo_mcp::__private::Revision,
        ) -> ::rondo_mcp::__private::JsonObject {
            let mut __rondo_form = ::rondo_mcp::__private::FormSchema::new(
                __rondo_revision,
            );
            __rondo_form
                .field(
                    &__RONDO_FIELDS[0usize],
                    <bool as ::rondo_mcp::__private::FormField>::schema(
                        __rondo_revision,
                    ),
                    <bool as ::rondo_mcp::__private::FormField>::REQUIRED,
                    ::core::option::Option::None,
                );
            __rondo_form
                .field(
                    &__RONDO_FIELDS[1usize],
                    <Option<
                        Seat,
                    > as ::rondo_mcp::__private::FormField>::schema(__rondo_revision),
                    <Option<Seat> as ::rondo_mcp::__private::FormField>::REQUIRED,
                    ::core::option::Option::None,
                );
            __rondo_form
                .field(
                    &__RONDO_FIELDS[2usize],
                    <bool as ::rondo_mcp::__private::FormField>::schema(
                        __rondo_revision,
                    ),
                    <bool as ::rondo_mcp::__private::FormField>::REQUIRED,
                    ::core::option::Option::Some(
                        <bool as ::rondo_mcp::__private::FormField>::to_value(
                            &__rondo_default_2(),
                        ),
                    ),
                );
            __rondo_form
                .field(
                    &__RONDO_FIELDS[3usize],
                    <Option<
                        String,
                    > as ::rondo_mcp::__private::FormField>::schema(__rondo_revision),
                    <Option<String> as ::rondo_mcp::__private::FormField>::REQUIRED,
                    ::core::option::Option::None,
                );
            __rondo_form
                .field(
                    &__RONDO_FIELDS[4usize],
                    <u8 as ::rondo_mcp::__private::FormField>::schema(__rondo_revision),
                    <u8 as ::rondo_mcp::__private::FormField>::REQUIRED,
                    ::core::option::Option::None,
                );
            __rondo_form.finish()
        }
        fn from_content(
            __rondo_content: &::rondo_mcp::__private::JsonObject,
        ) -> ::core::result::Result<Self, ::rondo_mcp::__private::FormError> {
            let mut __rondo_reader = ::rondo_mcp::__private::FormReader::new(
                __rondo_content,
            );
            let __rondo_0 = __rondo_reader
                .field(
                    &__RONDO_FIELDS[0usize],
                    <bool as ::rondo_mcp::__private::FormField>::from_value,
                    ::core::option::Option::None,
                );
            let __rondo_1 = __rondo_reader
                .field(
                    &__RONDO_FIELDS[1usize],
                    <Option<Seat> as ::rondo_mcp::__private::FormField>::from_value,
                    ::core::option::Option::None,
                );
            let __rondo_2 = __rondo_reader
                .field(
                    &__RONDO_FIELDS[2usize],
                    <bool as ::rondo_mcp::__private::FormField>::from_value,
                    ::core::option::Option::Some(__rondo_default_2),
                );
            let __rondo_3 = __rondo_reader
                .field(
                    &__RONDO_FIELDS[3usize],
                    <Option<String> as ::rondo_mcp::__private::FormField>::from_value,
                    ::core::option::Option::None,
                );
            let __rondo_4 = __rondo_reader
                .field(
                    &__RONDO_FIELDS[4usize],
                    <u8 as ::rondo_mcp::__private::FormField>::from_value,
                    ::core::option::Option::None,
                );
            match (__rondo_0, __rondo_1, __rondo_2, __rondo_3, __rondo_4) {
                (
                    ::core::option::Option::Some(__rondo_0),
                    ::core::option::Option::Some(__rondo_1),
                    ::core::option::Option::Some(__rondo_2),
                    ::core::option::Option::Some(__rondo_3),
                    ::core::option::Option::Some(__rondo_4),
                ) => {
                    ::core::result::Result::Ok(Self {
                        approve: __rondo_0,
                        seat: __rondo_1,
                        insurance: __rondo_2,
                        contact_email: __rondo_3,
                        travellers: __rondo_4,
                    })
                }
                _ => ::core::result::Result::Err(__rondo_reader.error()),
            }
        }
    }
};
