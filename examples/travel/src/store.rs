//! The bookings of this process and their payments: `"demo"` always exists (unpaid until paid),
//! `book_trip` adds the others. In memory, bounded, shared by the tools and the payment page.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// The most bookings a process holds (a client could otherwise book without end).
pub const MAX_BOOKINGS: usize = 10_000;

/// A booked trip.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Booking {
    /// Its id (`demo`, `trip-1`, ...).
    pub id: String,
    /// What was booked, in one line.
    pub summary: String,
    /// The total to pay, in US dollars.
    pub total_usd: u32,
    /// The passenger.
    pub passenger: String,
    /// The receipt, once paid on the payment page.
    pub receipt: Option<String>,
}

#[derive(Debug, Default)]
struct Inner {
    bookings: HashMap<String, Booking>,
    next: u64,
}

/// The shared store.
#[derive(Debug, Clone)]
pub struct Store(Arc<Mutex<Inner>>);

impl Default for Store {
    fn default() -> Self {
        let mut inner = Inner::default();
        inner.bookings.insert(
            "demo".into(),
            Booking {
                id: "demo".into(),
                summary: crate::booking::barcelona().summary(),
                total_usd: crate::booking::barcelona().total_usd,
                passenger: "Ada Lovelace".into(),
                receipt: None,
            },
        );
        Store(Arc::new(Mutex::new(inner)))
    }
}

impl Store {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Books a trip (`book_trip` does it once per call, through `Cx::once`).
    pub fn book(&self, make: impl FnOnce(String) -> Booking) -> Result<Booking, String> {
        let mut inner = self.lock();
        if inner.bookings.len() >= MAX_BOOKINGS {
            return Err(format!(
                "Nothing was booked: this server holds {MAX_BOOKINGS} bookings already."
            ));
        }
        inner.next += 1;
        let booking = make(format!("trip-{}", inner.next));
        inner.bookings.insert(booking.id.clone(), booking.clone());
        Ok(booking)
    }

    /// The booking with this id.
    pub fn get(&self, id: &str) -> Option<Booking> {
        self.lock().bookings.get(id).cloned()
    }

    /// How many bookings were made (besides `demo`).
    pub fn booked(&self) -> u64 {
        self.lock().next
    }

    /// Marks the booking paid (what the payment page does) and returns the receipt; paying
    /// twice gives the first receipt.
    pub fn pay(&self, id: &str) -> Option<String> {
        let mut inner = self.lock();
        let booking = inner.bookings.get_mut(id)?;
        let receipt = booking
            .receipt
            .get_or_insert_with(|| format!("R-{}-{}", id.to_uppercase(), booking.total_usd));
        Some(receipt.clone())
    }

    /// The receipt, once paid.
    pub fn receipt(&self, id: &str) -> Option<String> {
        self.lock().bookings.get(id).and_then(|b| b.receipt.clone())
    }
}
