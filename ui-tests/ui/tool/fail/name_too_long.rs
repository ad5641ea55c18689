/// Searches.
#[rondo_mcp::tool(name = "a_name_that_is_sixty_five_characters_long_which_is_one_too_many_x")]
async fn search(query: String) -> String {
    query
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
