use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Confirm {
    #[elicit(max = 1)]
    ok: bool,
}

fn main() {}
