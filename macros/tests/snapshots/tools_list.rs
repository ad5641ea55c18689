fn expansion() {
    let _ = {
        const _: () = ::rondo_mcp::__private::assert_unique(
            <math::mul as ::rondo_mcp::__private::ToolHandler>::NAME,
            &[
                (
                    <add as ::rondo_mcp::__private::ToolHandler>::NAME,
                    "`math::mul` has the same tool name as `add`, earlier in this `tools![..]`; rename one with `#[tool(name = \"...\")]`",
                ),
            ],
        );
        const _: () = ::rondo_mcp::__private::assert_unique(
            <quote as ::rondo_mcp::__private::ToolHandler>::NAME,
            &[
                (
                    <add as ::rondo_mcp::__private::ToolHandler>::NAME,
                    "`quote` has the same tool name as `add`, earlier in this `tools![..]`; rename one with `#[tool(name = \"...\")]`",
                ),
                (
                    <math::mul as ::rondo_mcp::__private::ToolHandler>::NAME,
                    "`quote` has the same tool name as `math::mul`, earlier in this `tools![..]`; rename one with `#[tool(name = \"...\")]`",
                ),
            ],
        );
        ::rondo_mcp::__private::ToolSet::new()
            .with::<add>()
            .with::<math::mul>()
            .with::<quote>()
    };
}
