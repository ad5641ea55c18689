//! `rondo_mcp::testing` itself: the schema check (`schema_checks`) and how a test client's
//! conversation ends (`client_ends`).

mod client_ends;
mod schema_checks;
