use rondo_mcp::Elicit;

#[derive(Elicit)]
enum Topping {
    Cheese,
    Olives,
}

#[derive(Elicit)]
struct Pizza {
    #[elicit(max_items = 2)]
    topping: Option<Topping>,
}

fn main() {}
