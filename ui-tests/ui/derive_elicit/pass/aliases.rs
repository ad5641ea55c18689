//! Field types are checked through traits, never by their spelling: aliases work.

use rondo_mcp::Elicit;

type Name = String;
type Count = u32;
type Maybe<T> = Option<T>;
type Choices<T> = Vec<T>;

#[derive(Elicit)]
enum Colour {
    Red,
    Blue,
}

#[derive(Elicit)]
struct Order {
    #[elicit(min_length = 1)]
    name: Name,
    #[elicit(min = 1)]
    count: Count,
    note: Maybe<Name>,
    #[elicit(min_items = 1)]
    colours: Choices<Colour>,
    express: std::primitive::bool,
}

fn main() {
    assert_eq!(
        Order::FIELDS,
        ["name", "count", "note", "colours", "express"]
    );
    const { assert!(Order::CONSENT) };
}
