//! [`StoreError`]: why a task store could not do what it was asked.

use std::fmt;

/// Why a task store could not do what it was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreError {
    /// The principal already holds `max` tasks that have not expired.
    Full {
        /// The bound per principal.
        max: usize,
    },
    /// The store holds as many records as it may (`MemoryTaskStore`'s bound).
    Capacity {
        /// The bound.
        max: usize,
    },
    /// A record with this id already exists (never, with random ids).
    Exists,
    /// The record written breaks a rule of the store (a bug in the caller).
    Invalid(String),
    /// The store's backend failed or cannot be reached (the message is safe to show).
    Unavailable(String),
    /// Too many writers raced on one task; try again.
    Contended,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Full { max } => write!(
                f,
                "You hold {max} tasks, the most one client may; wait for some to expire (ttlMs) before starting another"
            ),
            StoreError::Capacity { max } => write!(
                f,
                "The server holds {max} tasks, its bound; try again when older ones expire"
            ),
            StoreError::Exists => f.write_str("a task with this id already exists"),
            StoreError::Invalid(why) => write!(f, "invalid task record: {why}"),
            StoreError::Unavailable(why) => write!(f, "the task store is unavailable: {why}"),
            StoreError::Contended => f.write_str("the task changed too often at once; try again"),
        }
    }
}

impl std::error::Error for StoreError {}
