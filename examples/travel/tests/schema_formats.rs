//! The schemas the travel server publishes (its tools' input and output schemas, the approval
//! and traveller-details forms) carry only formats JSON Schema 2020-12 defines, at both
//! revisions.

use rondo_tests::published::{Target, assert_standard_formats};
use serde_json::json;

#[tokio::test]
async fn published_schemas_carry_only_standard_formats() {
    let travel = Target::binary(env!("CARGO_BIN_EXE_travel"), &[]);
    let booking = ("book_trip", json!({"package_id": "barcelona"}));
    assert_standard_formats(travel, &[booking]).await;
}
