//! The derive inside a `macro_rules!`, naming the runtime through `$crate`.

pub use ::rondo_mcp as mcp;

macro_rules! form {
    ($name:ident, $field:ident: $ty:ty) => {
        #[derive($crate::mcp::Elicit)]
        #[elicit(crate = $crate::mcp)]
        struct $name {
            /// Made by a macro
            #[elicit(min_length = 2)]
            $field: $ty,
        }
    };
}

form!(Greeting, name: String);

fn main() {
    use rondo_mcp::Elicit;
    assert_eq!(Greeting::FIELDS, ["name"]);
    let answer = serde_json::json!({"name": "Ada"});
    let g = Greeting::from_content(answer.as_object().unwrap()).unwrap();
    assert_eq!(g.name, "Ada");
}
