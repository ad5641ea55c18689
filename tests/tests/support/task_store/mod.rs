//! Shared by `tasks/store.rs`: the contract properties (`contract`, `flows`; `props` names them
//! all) and the handles each store is tested through (`Pair`).

#![allow(dead_code)]

pub mod contract;
pub mod flows;

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
