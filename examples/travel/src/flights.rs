//! The flight data set: exactly 47 fixed flights to Barcelona (BCN) in June 2027, so every
//! search, ranking and test is reproducible; the search, and the deterministic ranking that is
//! the flight search's default fallback.

use serde::{Deserialize, Serialize};

/// A flight on offer. Times are local to the airport (`YYYY-MM-DDTHH:MM`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Flight {
    /// The offer's id (`BCN01`..`BCN47`).
    pub id: String,
    /// The airline.
    pub airline: String,
    /// The flight number.
    pub number: String,
    /// The departure airport (IATA code).
    pub from: String,
    /// The connections, in order (empty for a nonstop flight).
    pub via: Vec<String>,
    /// Departure, local time at `from`.
    pub departure: String,
    /// Arrival in Barcelona, local time.
    pub arrival: String,
    /// How many stops.
    pub stops: u32,
    /// The fare in US dollars, economy, one way.
    pub price_usd: u32,
}

impl Flight {
    /// Whether it leaves before noon.
    pub fn is_morning(&self) -> bool {
        self.departure
            .get(11..13)
            .and_then(|h| h.parse::<u32>().ok())
            .is_some_and(|h| h < 12)
    }

    /// One line for a model or a person: `BCN05 Level IB2668 BOS->BCN, dep 2027-06-13T19:45, ...`.
    pub fn line(&self) -> String {
        let via = if self.via.is_empty() {
            "nonstop".to_owned()
        } else {
            format!("via {}", self.via.join(", "))
        };
        format!(
            "{} {} {} {}->BCN {via}, departs {}, arrives {}, ${}",
            self.id,
            self.airline,
            self.number,
            self.from,
            self.departure,
            self.arrival,
            self.price_usd
        )
    }
}

/// What the traveller prefers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preferences {
    /// Prefer a departure before noon.
    pub morning_departure: bool,
    /// At most this many stops.
    pub max_stops: u32,
}

/// Every flight in the data set (47), in a fixed order (one flight a line: skip rustfmt).
#[rustfmt::skip]
pub fn all() -> Vec<Flight> {
    #[allow(clippy::too_many_arguments)]
    fn f(
        id: &str,
        airline: &str,
        number: &str,
        from: &str,
        via: &str,
        departure: &str,
        arrival: &str,
        stops: u32,
        price_usd: u32,
    ) -> Flight {
        Flight {
            id: id.into(),
            airline: airline.into(),
            number: number.into(),
            from: from.into(),
            via: via.split(',').filter(|v| !v.is_empty()).map(Into::into).collect(),
            departure: departure.into(),
            arrival: arrival.into(),
            stops,
            price_usd,
        }
    }
    vec![
        f("BCN01", "Iberia", "IB365", "JFK", "", "2027-06-15T18:05", "2027-06-16T08:00", 0, 1025),
        f("BCN02", "Delta", "DL767", "JFK", "", "2027-06-14T17:30", "2027-06-15T07:30", 0, 1060),
        f("BCN03", "United", "UA990", "EWR", "", "2027-06-14T18:25", "2027-06-15T08:30", 0, 1030),
        f("BCN04", "American", "AA851", "JFK", "", "2027-06-15T19:10", "2027-06-16T09:05", 0, 1060),
        f("BCN05", "Level", "IB2668", "BOS", "", "2027-06-13T19:45", "2027-06-14T09:30", 0, 660),
        f("BCN06", "Delta", "DL130", "ATL", "", "2027-06-15T16:40", "2027-06-16T07:40", 0, 1240),
        f("BCN07", "American", "AA957", "MIA", "", "2027-06-15T17:55", "2027-06-16T08:35", 0, 930),
        f("BCN08", "United", "UA186", "IAD", "", "2027-06-14T17:40", "2027-06-15T07:55", 0, 1075),
        f("BCN09", "TAP Air Portugal", "TP242", "EWR", "LIS", "2027-06-16T18:00", "2027-06-17T10:45", 1, 765),
        f("BCN10", "Lufthansa", "LH970", "JFK", "FRA", "2027-06-15T16:20", "2027-06-16T10:50", 1, 880),
        f("BCN11", "Air France", "AF677", "JFK", "CDG", "2027-06-17T18:35", "2027-06-18T12:25", 1, 1010),
        f("BCN12", "KLM", "KL753", "ORD", "AMS", "2027-06-16T15:50", "2027-06-17T11:50", 1, 910),
        f("BCN13", "British Airways", "BA454", "BOS", "LHR", "2027-06-15T19:25", "2027-06-16T13:40", 1, 915),
        f("BCN14", "Swiss", "LX725", "ORD", "ZRH", "2027-06-17T16:55", "2027-06-18T13:10", 1, 910),
        f("BCN15", "Turkish Airlines", "TK648", "IAD", "IST", "2027-06-16T22:05", "2027-06-17T22:20", 1, 690),
        f("BCN16", "Aer Lingus", "EI307", "BOS", "DUB", "2027-06-15T18:50", "2027-06-16T12:35", 1, 760),
        f("BCN17", "United", "UA480", "ORD", "EWR,LIS", "2027-06-15T06:45", "2027-06-16T06:40", 2, 800),
        f("BCN18", "Iberia", "IB386", "JFK", "", "2027-06-17T20:40", "2027-06-18T10:20", 0, 1100),
        f("BCN19", "Delta", "DL691", "JFK", "", "2027-06-15T22:10", "2027-06-16T12:10", 0, 1190),
        f("BCN20", "United", "UA678", "EWR", "", "2027-06-14T21:05", "2027-06-15T10:55", 0, 1030),
        f("BCN21", "American", "AA234", "JFK", "", "2027-06-15T23:00", "2027-06-16T13:00", 0, 1030),
        f("BCN22", "Level", "IB2683", "BOS", "", "2027-06-15T07:55", "2027-06-15T21:30", 0, 830),
        f("BCN23", "Delta", "DL836", "ATL", "", "2027-06-13T09:30", "2027-06-14T00:30", 0, 1280),
        f("BCN24", "American", "AA245", "MIA", "", "2027-06-14T11:05", "2027-06-15T01:55", 0, 1180),
        f("BCN25", "United", "UA958", "IAD", "", "2027-06-15T08:20", "2027-06-15T22:45", 0, 1220),
        f("BCN26", "TAP Air Portugal", "TP263", "EWR", "LIS", "2027-06-15T09:40", "2027-06-16T02:25", 1, 880),
        f("BCN27", "Lufthansa", "LH307", "JFK", "FRA", "2027-06-15T07:35", "2027-06-16T01:50", 1, 980),
        f("BCN28", "Air France", "AF820", "JFK", "CDG", "2027-06-15T08:10", "2027-06-16T02:10", 1, 950),
        f("BCN29", "KLM", "KL982", "ORD", "AMS", "2027-06-14T10:25", "2027-06-15T06:25", 1, 810),
        f("BCN30", "British Airways", "BA697", "BOS", "LHR", "2027-06-15T08:00", "2027-06-16T02:00", 1, 990),
        f("BCN31", "Swiss", "LX402", "ORD", "ZRH", "2027-06-15T16:55", "2027-06-16T12:55", 1, 930),
        f("BCN32", "Turkish Airlines", "TK214", "IAD", "IST", "2027-06-17T22:05", "2027-06-18T22:15", 1, 710),
        f("BCN33", "Aer Lingus", "EI539", "BOS", "DUB", "2027-06-13T07:20", "2027-06-14T01:15", 1, 740),
        f("BCN34", "United", "UA945", "ORD", "EWR,LIS", "2027-06-15T06:45", "2027-06-16T06:25", 2, 730),
        f("BCN35", "Iberia", "IB103", "JFK", "", "2027-06-17T09:15", "2027-06-17T23:00", 0, 1020),
        f("BCN36", "Delta", "DL517", "JFK", "", "2027-06-13T10:45", "2027-06-14T00:35", 0, 1125),
        f("BCN37", "United", "UA679", "EWR", "", "2027-06-15T08:50", "2027-06-15T22:45", 0, 1020),
        f("BCN38", "American", "AA475", "JFK", "", "2027-06-17T11:20", "2027-06-18T01:15", 0, 1040),
        f("BCN39", "Level", "IB2642", "BOS", "", "2027-06-15T19:45", "2027-06-16T09:20", 0, 640),
        f("BCN40", "Delta", "DL673", "ATL", "", "2027-06-15T16:40", "2027-06-16T07:40", 0, 1270),
        f("BCN41", "American", "AA403", "MIA", "", "2027-06-14T17:55", "2027-06-15T08:35", 0, 930),
        f("BCN42", "United", "UA831", "IAD", "", "2027-06-17T17:40", "2027-06-18T08:05", 0, 1030),
        f("BCN43", "TAP Air Portugal", "TP249", "EWR", "LIS", "2027-06-15T18:00", "2027-06-16T10:55", 1, 765),
        f("BCN44", "Lufthansa", "LH364", "JFK", "FRA", "2027-06-14T16:20", "2027-06-15T10:35", 1, 980),
        f("BCN45", "Air France", "AF891", "JFK", "CDG", "2027-06-15T18:35", "2027-06-16T12:25", 1, 910),
        f("BCN46", "KLM", "KL538", "ORD", "AMS", "2027-06-15T15:50", "2027-06-16T12:05", 1, 850),
        f("BCN47", "British Airways", "BA139", "BOS", "LHR", "2027-06-16T19:25", "2027-06-17T13:40", 1, 950),
    ]
}

/// The flights the search returns for a destination and month (`YYYY-MM`) with at most
/// `max_stops` stops, in data-set order; `Err` says why there are none, for the model to read.
pub fn search(destination: &str, month: &str, max_stops: u32) -> Result<Vec<Flight>, String> {
    let d = destination.trim().to_lowercase();
    if !matches!(d.as_str(), "barcelona" | "bcn") {
        return Err(format!(
            "No flights to {destination:?}: this server sells flights to Barcelona only."
        ));
    }
    let in_month: Vec<Flight> = all()
        .into_iter()
        .filter(|f| f.departure.starts_with(&format!("{}-", month.trim())))
        .collect();
    if in_month.is_empty() {
        return Err(format!(
            "No flights to Barcelona in {month:?}: give the month as YYYY-MM; flights are on sale for 2027-06."
        ));
    }
    let fewest = in_month.iter().map(|f| f.stops).min().unwrap_or(0);
    let fit: Vec<Flight> = in_month
        .into_iter()
        .filter(|f| f.stops <= max_stops)
        .collect();
    if fit.is_empty() {
        return Err(format!(
            "No flight to Barcelona in {month} has at most {max_stops} stops; the fewest is {fewest}."
        ));
    }
    Ok(fit)
}

/// The deterministic ranking: the preferences first (a morning departure when asked for), then
/// fewer stops, then the lower price, then the data set's order. The best `n`.
pub fn rank(flights: &[Flight], prefs: &Preferences, n: usize) -> Vec<Flight> {
    let mut ranked = flights.to_vec();
    ranked.sort_by_key(|f| {
        (
            prefs.morning_departure && !f.is_morning(),
            f.stops,
            f.price_usd,
        )
    });
    ranked.truncate(n);
    ranked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_set_has_47_distinct_flights_to_barcelona_in_june_2027() {
        let flights = all();
        assert_eq!(flights.len(), 47);
        let mut ids: Vec<&str> = flights.iter().map(|f| f.id.as_str()).collect();
        ids.dedup();
        assert_eq!(ids.len(), 47);
        for f in &flights {
            assert_eq!(f.via.len() as u32, f.stops, "{}", f.id);
            assert!(
                f.departure.starts_with("2027-06-") && f.arrival > f.departure,
                "{}",
                f.id
            );
        }
    }

    #[test]
    fn ranking_puts_preferences_then_stops_then_price() {
        let fit = search("Barcelona", "2027-06", 1).unwrap();
        let morning = Preferences {
            morning_departure: true,
            max_stops: 1,
        };
        let ids: Vec<String> = rank(&fit, &morning, 3).into_iter().map(|f| f.id).collect();
        assert_eq!(ids, ["BCN22", "BCN35", "BCN37"]);
        let any = Preferences {
            morning_departure: false,
            max_stops: 1,
        };
        let ids: Vec<String> = rank(&fit, &any, 3).into_iter().map(|f| f.id).collect();
        assert_eq!(ids, ["BCN39", "BCN05", "BCN22"]);
    }

    #[test]
    fn a_search_with_nothing_to_offer_says_why() {
        assert!(
            search("Paris", "2027-06", 2)
                .unwrap_err()
                .contains("Barcelona only")
        );
        assert!(search("bcn", "2027-07", 2).unwrap_err().contains("2027-06"));
        assert_eq!(search("BCN", "2027-06", 0).unwrap().len(), 24);
        assert_eq!(search("BCN", "2027-06", 2).unwrap().len(), 47);
    }
}
