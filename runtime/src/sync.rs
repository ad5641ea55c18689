//! The one way this crate takes a `std::sync::Mutex`, and the boxed future of its object-safe
//! traits.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, MutexGuard};

/// A boxed, sendable future: what the object-safe handler traits return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Locks `mutex`, recovering the guard when a previous holder panicked.
///
/// A handler panic is caught and answered as an error while the server keeps serving, so a
/// poisoned lock must not take down every later request. Each critical section here is a
/// single read, insert or removal, so the data behind a poisoned lock is still consistent.
pub(crate) fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
