//! `#[serde(rename..)]` renames the schema and the parsing alike, with or without serde's derive.

use rondo_mcp::Elicit;
use rondo_mcp::protocol::Revision;

#[derive(Elicit, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Profile {
    first_name: String,
    #[serde(rename = "years")]
    age: u8,
    #[serde(rename(serialize = "tone_out", deserialize = "tone"))]
    preferred_tone: Option<Tone>,
}

#[derive(Elicit, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
#[serde(rename_all = "kebab-case")]
enum Tone {
    VeryFormal,
    #[serde(rename = "casual")]
    Relaxed,
}

/// Without serde's derive, `serde` is still a helper attribute of `Elicit`.
#[derive(Elicit)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
struct Shouting {
    #[serde(default, rename = "quiet")]
    loud: bool,
    very_loud: bool,
}

fn main() {
    assert_eq!(Profile::FIELDS, ["firstName", "years", "tone"]);
    assert_eq!(Shouting::FIELDS, ["quiet", "VERY_LOUD"]);
    let schema = Profile::requested_schema(Revision::V2026_07_28);
    assert_eq!(
        schema["properties"]["tone"]["enum"],
        serde_json::json!(["very-formal", "casual"])
    );
    let answer = serde_json::json!({"firstName": "Ada", "years": 36, "tone": "very-formal"});
    let parsed = Profile::from_content(answer.as_object().unwrap()).unwrap();
    let by_serde: Profile = serde_json::from_value(answer).unwrap();
    assert_eq!(parsed, by_serde);
}
