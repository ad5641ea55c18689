//! `book_trip`'s package and its two forms: the final approval with optional preferences
//! (consent: `fallback = refuse`, never from the model's arguments) and the traveller details
//! (plain data: `fallback = args`, the fields become optional arguments of the tool).

use rondo_mcp::prelude::*;
use rondo_mcp::{Elicit, elicit};
use serde::{Deserialize, Serialize};

/// A travel package on sale.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Package {
    /// Its id.
    pub id: String,
    /// The destination.
    pub destination: String,
    /// The outbound flight's date.
    pub depart: String,
    /// The return flight's date.
    pub back: String,
    /// The hotel.
    pub hotel: String,
    /// The total, in US dollars.
    pub total_usd: u32,
}

impl Package {
    /// One line: what, when, where, how much.
    pub fn summary(&self) -> String {
        format!(
            "{}: flights {} to {}, {}, ${} in total",
            self.destination,
            self.depart,
            self.back,
            self.hotel,
            thousands(self.total_usd)
        )
    }
}

/// `3000` as `3,000`.
pub fn thousands(n: u32) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The built-in package, id `barcelona`.
pub fn barcelona() -> Package {
    Package {
        id: "barcelona".into(),
        destination: "Barcelona".into(),
        depart: "15 June 2027".into(),
        back: "22 June 2027".into(),
        hotel: "Hotel Arts Barcelona (beachfront), 7 nights".into(),
        total_usd: 3000,
    }
}

/// The package with this id, or why not.
pub fn package(id: &str) -> Result<Package, String> {
    match id.trim() {
        "barcelona" => Ok(barcelona()),
        other => Err(format!(
            "No package {other:?}: the package on sale is \"barcelona\"."
        )),
    }
}

/// Seat preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Elicit)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// Window
    Window,
    /// Aisle
    Aisle,
    /// No preference
    Any,
}

/// Room type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Elicit)]
#[serde(rename_all = "lowercase")]
pub enum RoomType {
    /// Standard double
    Double,
    /// Twin beds
    Twin,
    /// Sea-view suite (same price in this package)
    Suite,
}

/// The final approval: consent, with optional preferences.
#[derive(Debug, Clone, PartialEq, Eq, Elicit)]
pub struct Approval {
    /// Book this trip?
    pub approve: bool,
    /// Seat preference
    pub seat: Option<Seat>,
    /// Room type
    pub room_type: Option<RoomType>,
    /// Travel insurance (included in the total)
    #[elicit(default = false, not_consent)]
    pub travel_insurance: bool,
}

/// What the booking still needs to know: plain data, no consent.
#[derive(Debug, Clone, PartialEq, Eq, Elicit)]
pub struct TravellerDetails {
    /// Passenger name, as on the passport
    #[elicit(min_length = 1, max_length = 100)]
    pub passenger_name: String,
    /// Passenger date of birth
    #[elicit(format = "date")]
    pub date_of_birth: String,
    /// Special requests for the hotel
    #[elicit(max_length = 500)]
    pub hotel_requests: Option<String>,
    /// Emergency contact: name
    #[elicit(min_length = 1, max_length = 100)]
    pub emergency_contact_name: String,
    /// Emergency contact: phone
    #[elicit(min_length = 3, max_length = 30)]
    pub emergency_contact_phone: String,
}

/// The traveller approves the package, its price and the preferences. Consent never comes
/// from the model: a client that cannot show forms gets `-32021` naming `elicitation`.
#[elicit(form, fallback = refuse)]
pub fn approve_trip(pkg: &Package) -> Form<Approval> {
    Form::new(format!("Book {}?", pkg.summary()))
}

/// The details the booking still needs. Plain data, so a client without forms may give them as
/// tool arguments instead (`fallback = args`).
#[elicit(form, fallback = args)]
pub fn traveller_details(pkg: &Package) -> Form<TravellerDetails> {
    Form::new(format!(
        "Traveller details for the {} trip ({} to {})",
        pkg.destination, pkg.depart, pkg.back
    ))
}
