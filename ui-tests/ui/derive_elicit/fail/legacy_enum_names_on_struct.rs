use rondo_mcp::Elicit;

#[derive(Elicit)]
#[elicit(legacy_enum_names)]
struct Form {
    name: String,
}

fn main() {}
