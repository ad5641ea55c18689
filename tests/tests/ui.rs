//! Compile-time tests of the macros: every error message they emit, each in its own file under
//! `tests/ui/<macro>/fail/` with the expected `.stderr`, and accepted-but-tricky forms under
//! `tests/ui/<macro>/pass/`. Bless with `TRYBUILD=overwrite`, then read the diff.
//!
//! The expected output is rustc 1.95's (the toolchain in `rust-toolchain.toml`), so on another
//! compiler the test is ignored; `scripts/test-all.sh` sets `RONDO_REQUIRE_UI_TESTS`, under which
//! running on another compiler fails instead of skipping silently.

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

#[rustversion::not(stable(1.95))]
#[test]
fn ui_tests_run_on_the_pinned_compiler_in_ci() {
    assert!(
        std::env::var_os("RONDO_REQUIRE_UI_TESTS").is_none(),
        "the UI tests are pinned to rustc 1.95 (rust-toolchain.toml) and were skipped on this \
         compiler; run them with the pinned toolchain"
    );
}
