//! The bookshop MCP server: [`router`] is the server, [`shop`] and [`library`] its tools. The
//! binary `bookshop` serves it over stdio or HTTP and drives it in a demo.

pub mod library;
pub mod preorders;
pub mod shop;

use rondo_mcp::prelude::*;

/// The bookshop server: search, order (the user confirms), the orders placed, a blurb from the
/// client's model, the catalogue's export folder from the client's roots, and preorders, whose
/// tool comes and goes while the server runs ([`preorders`]). The export folder
/// for clients without roots is `BOOKSHOP_EXPORT_DIR`.
pub fn router() -> Router {
    let info = ServerInfo::new("bookshop", env!("CARGO_PKG_VERSION")).instructions(
        "Search the catalogue with search_books; order with order_book (the user confirms); list_orders shows the orders placed; blurb writes a one-sentence blurb; catalog_folder finds the export folder; preorders opens or closes preorders (preorder_book).",
    );
    let shop = shop::Shop::new();
    let library = library::Library {
        catalogue: shop.books().to_vec(),
        export_dir: std::env::var("BOOKSHOP_EXPORT_DIR")
            .ok()
            .filter(|d| !d.is_empty()),
    };
    let mut router = Router::new(info).tools(shop).tools(library);
    let registry = router.registry();
    router.tools(preorders::Preorders { registry })
}
