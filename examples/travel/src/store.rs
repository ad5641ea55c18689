//! The bookings of this process and their payments: `"demo"` always exists (unpaid until paid),
//! `book_trip` adds the others. In memory, bounded, shared by the tools and the payment page.
//!
//! The store has a random id of its own: a payment link names the store it was made for, so a
//! link made by another process (one sharing this one's key ring, in a fleet) is refused here
//! instead of paying this process's booking of the same name.

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

/// What [`Store::pay`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payment {
    /// Paid now: the receipt.
    Paid(String),
    /// Paid before, through the link of the flow `by` (a flow id); nothing was charged now.
    AlreadyPaid {
        /// The flow whose payment link paid it.
        by: String,
    },
    /// No such booking.
    NoBooking,
}

#[derive(Debug, Default)]
struct Inner {
    bookings: HashMap<String, Booking>,
    /// Booking id to the flow whose payment link paid it.
    paid_by: HashMap<String, String>,
    next: u64,
}

/// The shared store.
#[derive(Debug, Clone)]
pub struct Store {
    id: Arc<str>,
    inner: Arc<Mutex<Inner>>,
}

impl Default for Store {
    /// # Panics
    /// When the operating system has no random generator (for the store's id).
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
        let mut id = [0u8; 8];
        if let Err(e) = getrandom::fill(&mut id) {
            panic!("no operating-system random number generator: {e}");
        }
        Store {
            id: crate::links::hex(&id).into(),
            inner: Arc::new(Mutex::new(inner)),
        }
    }
}

impl Store {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// This store's random id (16 hex digits), which the payment links it issues name.
    pub fn id(&self) -> &str {
        &self.id
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

    /// Marks the booking paid through the payment link of `flow` (what the payment page does)
    /// and returns the receipt. A booking is paid once: paying it again charges nothing and
    /// says which flow's link paid it.
    pub fn pay(&self, id: &str, flow: &str) -> Payment {
        let mut inner = self.lock();
        let Some(booking) = inner.bookings.get_mut(id) else {
            return Payment::NoBooking;
        };
        if booking.receipt.is_some() {
            let by = inner.paid_by.get(id).cloned().unwrap_or_default();
            return Payment::AlreadyPaid { by };
        }
        let receipt = format!("R-{}-{}", id.to_uppercase(), booking.total_usd);
        booking.receipt = Some(receipt.clone());
        inner.paid_by.insert(id.to_owned(), flow.to_owned());
        Payment::Paid(receipt)
    }

    /// The flow whose payment link paid the booking, once paid.
    pub fn paid_by(&self, id: &str) -> Option<String> {
        self.lock().paid_by.get(id).cloned()
    }

    /// The receipt, once paid.
    pub fn receipt(&self, id: &str) -> Option<String> {
        self.lock().bookings.get(id).and_then(|b| b.receipt.clone())
    }
}
