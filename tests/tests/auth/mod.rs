//! The endpoint as an OAuth 2.1 resource server (feature `auth`). Over Streamable HTTP, on the
//! bookshop of `bookshop.rs`: the metadata document and the challenges (`challenges`), scopes
//! (`scopes`), and sessions and streams bound to the token (`sessions`). Over HTTP+SSE
//! (`sse`), and the JWT verifier short of HTTP (`jwt`).

mod bookshop;
mod challenges;
mod jwt;
mod scopes;
mod sessions;
mod sse;
