//! Every key, on the fields and on the container, and raw identifiers.

use rondo_mcp::Elicit;
use rondo_mcp::protocol::Revision;

#[derive(Elicit)]
#[elicit(rename_all = "UPPERCASE", legacy_enum_names)]
enum Size {
    #[elicit(title = "Small cup")]
    Small,
    /// Large cup
    ///
    /// (only the first paragraph becomes the title)
    Large,
    #[elicit(rename = "xl")]
    ExtraLarge,
}

#[derive(Elicit)]
enum Extra {
    Sugar,
    Milk,
}

#[derive(Elicit)]
#[elicit(rename_all = "camelCase", crate = ::rondo_mcp)]
struct Coffee {
    /// Your name
    ///
    /// We call it out when the coffee is ready.
    #[elicit(min_length = 1, max_length = 40)]
    customer_name: String,
    #[elicit(title = "Email", description = "For the receipt", format = "email")]
    email: Option<String>,
    #[elicit(format = "uri")]
    website: Option<String>,
    #[elicit(format = "date")]
    pickup_day: Option<String>,
    #[elicit(format = "date-time", rename = "when")]
    pickup_at: Option<String>,
    #[elicit(default = Size::Large)]
    size: Size,
    #[elicit(min_items = 0, max_items = 2, default = vec![Extra::Milk])]
    extras: Vec<Extra>,
    #[elicit(min = 1, max = 6, default = 1)]
    shots: u8,
    #[elicit(min = -0.5, max = 99.5)]
    tip: Option<f64>,
    #[elicit(default = "no foam")]
    r#note: String,
    #[elicit(not_consent)]
    decaf: bool,
    #[elicit(not_secret)]
    pin_to_favourites: Option<bool>,
}

fn main() {
    const {
        assert!(
            Coffee::CONSENT,
            "decaf is not consent, pin_to_favourites is"
        )
    };
    let schema = serde_json::Value::Object(Coffee::requested_schema(Revision::V2025_11_25));
    let p = &schema["properties"];
    assert_eq!(p["customerName"]["title"], "Your name");
    assert_eq!(
        p["customerName"]["description"],
        "We call it out when the coffee is ready."
    );
    assert_eq!(p["when"]["format"], "date-time");
    assert_eq!(
        p["size"]["enumNames"],
        serde_json::json!(["Small cup", "Large cup", "xl"])
    );
    assert_eq!(p["extras"]["default"], serde_json::json!(["Milk"]));
    assert_eq!(p["shots"]["minimum"], 1);
    assert_eq!(p["tip"]["minimum"], -0.5);
    assert_eq!(p["note"]["default"], "no foam");
    assert_eq!(
        schema["required"],
        serde_json::json!(["customerName", "decaf"])
    );
}
