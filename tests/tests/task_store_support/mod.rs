//! Shared by `task_store.rs`: the contract properties (`contract`), the handles each store is
//! tested through (`Pair`), and a private `redis-server` (`redis_server`).

#![allow(dead_code)]

pub mod contract;
#[cfg(feature = "redis")]
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
