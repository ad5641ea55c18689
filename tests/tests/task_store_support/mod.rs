//! Shared by `task_store.rs` (and `redis_server` by `fleet_state.rs` and `task_fleet.rs`): the contract properties (`contract`, `flows`; `props` names them
//! all), the handles each store is
//! tested through (`Pair`), and a private `redis-server` (`redis_server`).

#![allow(dead_code)]

pub mod contract;
pub mod flows;
pub mod redis_server;

use std::any::Any;
use std::sync::Arc;

/// Two handles on one store (two server instances), and whatever must live as long as they
/// do (a Redis server).
pub struct Pair<S: ?Sized> {
    pub a: Arc<S>,
    pub b: Arc<S>,
    pub keep: Box<dyn Any>,
}

/// Every contract property, by name.
pub mod props {
    pub use super::contract::*;
    pub use super::flows::*;
}
