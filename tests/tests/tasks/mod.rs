//! The tasks extension: through the engine (`engine`), and the task store contract held by
//! every store (`store`).

mod engine;
mod store;
