use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Meeting {
    slot: (u32, u32),
}

fn main() {}
