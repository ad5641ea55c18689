//! The example: a yes/no answer (consent), an optional titled choice, a defaulted field.

use rondo_mcp::Elicit;
use rondo_mcp::protocol::Revision;

#[derive(Elicit)]
struct Approval {
    /// Book this trip?
    approve: bool,
    /// Seat preference
    seat: Option<Seat>,
    #[elicit(default = false)]
    insurance: bool,
}

#[derive(Elicit, Debug, PartialEq)]
enum Seat {
    /// A window seat
    Window,
    /// An aisle seat
    Aisle,
}

fn main() {
    const { assert!(Approval::CONSENT) };
    let schema = Approval::requested_schema(Revision::V2026_07_28);
    assert_eq!(schema["required"], serde_json::json!(["approve"]));
    let answer = serde_json::json!({"approve": true, "seat": "Window"});
    let a = Approval::from_content(answer.as_object().unwrap()).unwrap();
    assert!(a.approve && !a.insurance && a.seat == Some(Seat::Window));
}
