use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Confirm {
    #[elicit(min_length = 1)]
    ok: bool,
}

fn main() {}
