use rondo_mcp::sample;

#[sample(fallback = refuse)]
struct Capital {
    country: String,
}

fn main() {}
