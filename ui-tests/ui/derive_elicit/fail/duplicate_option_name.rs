use rondo_mcp::Elicit;

#[derive(Elicit)]
#[elicit(rename_all = "lowercase")]
enum Size {
    Small,
    #[serde(rename = "small")]
    Tiny,
}

fn main() {}
