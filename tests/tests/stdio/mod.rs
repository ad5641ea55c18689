//! The newline-delimited transport driven line by line: requests, cancellation, limits and
//! end of input (`serve`), and change notifications (`changes`).

mod changes;
mod serve;
