//! The schemas the conformance server publishes (its tools' schemas and the forms its asking
//! tools send) carry only formats JSON Schema 2020-12 defines, at both revisions; the form's
//! `email` stays.

use rondo_mcp::Server;
use rondo_tests::published::{Target, assert_standard_formats};
use serde_json::json;

#[tokio::test]
async fn published_schemas_carry_only_standard_formats() {
    let calls = [
        ("test_elicitation", json!({"message": "Your details?"})),
        ("test_elicitation_sep1034_defaults", json!({})),
        ("test_elicitation_sep1330_enums", json!({})),
    ];
    let server = Target::server(|| Server::new(rondo_example_conformance::router()));
    let found = assert_standard_formats(server, &calls).await;
    assert!(found.iter().any(|f| f.format == "email"), "{found:?}");
}
