struct Greeter;

impl Greeter {
    /// Greets.
    #[rondo_mcp::prompt]
    fn greeting(&self, name: String) -> String {
        format!("hello {name}")
    }
}

fn main() {}
