use rondo_mcp::Elicit;

// One error for the type, however many keys and uses there are.
#[derive(Elicit)]
struct Upload {
    #[elicit(format = "uri", min_length = 1, not_consent)]
    path: std::path::PathBuf,
}

fn main() {}
