use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Setup {
    #[elicit(rename = "db_password")]
    database: String,
}

fn main() {}
