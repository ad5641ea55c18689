use rondo_mcp::Elicit;

#[derive(Elicit)]
#[serde(rename_all = "camelcase")]
struct Person {
    first_name: String,
}

fn main() {}
