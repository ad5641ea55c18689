//! The newline-delimited transport (`Server::serve_io`, which `serve_stdio` wraps) driven line
//! by line over in-memory pipes (`wire.rs`): requests, cancellation and `max_in_flight`
//! (`requests`), bad lines and end of input (`input`), and change notifications (`changes`).

mod changes;
mod input;
mod requests;
mod wire;
