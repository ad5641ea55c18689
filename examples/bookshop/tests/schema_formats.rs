//! The schemas the bookshop publishes (its tools' input and output schemas, the order form)
//! carry only formats JSON Schema 2020-12 defines, at both revisions.

use rondo_tests::published::{Target, assert_standard_formats};
use serde_json::json;

#[tokio::test]
async fn published_schemas_carry_only_standard_formats() {
    let bookshop = Target::binary(env!("CARGO_BIN_EXE_bookshop"), &[]);
    let order = (
        "order_book",
        json!({"isbn": "9781593278281", "quantity": 1}),
    );
    assert_standard_formats(bookshop, &[order]).await;
}
