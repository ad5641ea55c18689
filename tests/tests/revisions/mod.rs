//! Every handshake revision (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25) from the same tool
//! code (`server.rs`): what `initialize` negotiates and what each session is sent
//! (`negotiation`), questions at each revision (`questions`), and 2025-03-26's batches
//! (`batches`). The test client checks every line against its revision's official schema,
//! closed for the three oldest (a member the revision does not define fails), so each test
//! here also proves the shapes.

mod batches;
mod negotiation;
mod questions;
mod server;
