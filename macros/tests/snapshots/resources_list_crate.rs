fn expansion() {
    let _ = {
        const _: () = crate::reexport::mcp::__private::assert_unique(
            <item as crate::reexport::mcp::__private::ResourceHandler>::URI,
            &[
                (
                    <welcome as crate::reexport::mcp::__private::ResourceHandler>::URI,
                    "`item` serves the same URI as `welcome`, earlier in this `resources![..]`; give one another URI",
                ),
            ],
        );
        crate::reexport::mcp::__private::ResourceSet::new()
            .with::<welcome>()
            .with::<item>()
    };
}
