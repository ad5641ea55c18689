//! The schemas the greeter publishes (its tools' input schemas, the name form) carry only
//! formats JSON Schema 2020-12 defines, at both revisions.

use rondo_tests::published::{Target, assert_standard_formats};

#[tokio::test]
async fn published_schemas_carry_only_standard_formats() {
    let greeter = Target::binary(env!("CARGO_BIN_EXE_stdio-greeter"), &[]);
    assert_standard_formats(greeter, &[("greet", serde_json::json!({}))]).await;
}
