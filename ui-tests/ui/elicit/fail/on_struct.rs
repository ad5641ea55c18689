use rondo_mcp::elicit;

#[elicit(form, fallback = refuse)]
struct Approval {
    approve: bool,
}

fn main() {}
