//! The one way this crate takes a `std::sync::Mutex`.

use std::sync::{Mutex, MutexGuard};

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
