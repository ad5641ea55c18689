//! Compile-time tests of the macros: every error message they emit, each in its own file under
//! `tests/ui/<macro>/fail/` with the expected `.stderr`, and accepted-but-tricky forms under
//! `tests/ui/<macro>/pass/`. Bless with `TRYBUILD=overwrite`, then read the diff.

#[rustversion::attr(
    not(stable(1.95)),
    ignore = "UI output is pinned to rustc 1.95, the toolchain in rust-toolchain.toml"
)]
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*/fail/*.rs");
    t.pass("ui/*/pass/*.rs");
}
