//! The runtime core through the in-memory client: messages at both revisions (`core`), the
//! 2025-11-25 back-channel (`legacy`), client capabilities (`capabilities`), notifications
//! (`notifications`), paged lists (`paging`), a router's registry (`registry`), custom
//! methods (`custom_methods`), tower middleware (`middleware`) and panicking handlers
//! (`panics`).

mod capabilities;
mod core;
mod custom_methods;
mod legacy;
mod middleware;
mod notifications;
mod paging;
mod panics;
mod registry;
