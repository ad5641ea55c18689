//! `crate = ..` with the runtime renamed: an absolute path or one from `crate::`.

mod reexport {
    pub use ::rondo_mcp as mcp;
}

use rondo_mcp::Elicit;

#[derive(Elicit)]
#[elicit(crate = crate::reexport::mcp)]
enum Mood {
    Happy,
    Sad,
}

#[derive(Elicit)]
#[elicit(crate = ::rondo_mcp)]
struct Checkin {
    mood: Mood,
}

fn main() {
    assert_eq!(Checkin::FIELDS, ["mood"]);
}
