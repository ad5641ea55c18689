#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/derive_elicit/fail/unsupported_type_with_keys.rs");
}
