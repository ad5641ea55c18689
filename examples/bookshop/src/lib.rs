//! The bookshop MCP server: [`router`] is the server, [`shop`] its tools. The binary
//! `bookshop` serves it over stdio or HTTP and drives it in a demo.

pub mod shop;

use rondo_mcp::prelude::*;

/// The bookshop server: search, order (the user confirms), and the orders placed.
pub fn router() -> Router {
    let info = ServerInfo::new("bookshop", env!("CARGO_PKG_VERSION")).instructions(
        "Search the catalogue with search_books; order with order_book (the user confirms); list_orders shows the orders placed.",
    );
    Router::new(info).tools(shop::Shop::new())
}
