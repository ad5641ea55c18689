//! The endpoint as an OAuth 2.1 resource server (feature `auth`): the bearer check, its
//! challenges and scopes over Streamable HTTP (`http`) and HTTP+SSE (`sse`), and the JWT
//! verifier short of HTTP (`jwt`).

mod http;
mod jwt;
mod sse;
