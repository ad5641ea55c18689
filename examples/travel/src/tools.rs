//! The travel server's four tools, written once for both protocol revisions.

use crate::booking::{self, Approval, TravellerDetails, approve_trip, traveller_details};
use crate::files::{self, workspace};
use crate::flights::{self, Preferences};
use crate::links::PayLinks;
use crate::payment::pay_on_page;
use crate::pick::{FlightFallback, FlightSearch, pick_flights, resolve};
use crate::store::{Booking, Store};
use rondo_mcp::prelude::*;
use rondo_mcp::toolbox;

/// The server's state and configuration.
pub struct Travel {
    /// The bookings and their payments.
    pub store: Store,
    /// Makes the payment links (and the page checks them).
    pub links: PayLinks,
    /// The payment page's base URL.
    pub page: String,
    /// What the flight search does without the client's model.
    pub fallback: FlightFallback,
    /// `TRAVEL_WORKSPACE`: the workspace for clients without roots.
    pub workspace: Option<String>,
}

#[toolbox]
impl Travel {
    /// Finds the best three flights to Barcelona for a month and the traveller's preferences.
    /// The client's model picks them, with reasons, when the client can sample; otherwise the
    /// server's fallback does (a ranking by the preferences, then stops, then price; or the
    /// server's own model; or every candidate, for you to choose from).
    // A long-running tool (`task = optional`): a 2026-07-28 client that declares the tasks
    // extension is answered with a task at once, and the question to its model (or the slow
    // server-side model provider, up to PROVIDER_TIMEOUT) runs inside it, parked in tasks/get
    // until tasks/update answers; every other client gets the same search as a plain call.
    // (A comment, not a doc line: the doc lines are the tool's description.)
    #[tool(read_only_hint = true, asks = [pick_flights], task = optional)]
    async fn find_best_flight(
        &self,
        cx: &Cx,
        #[arg(description = "Where to: Barcelona")] destination: String,
        #[arg(description = "The month of departure, YYYY-MM (flights are on sale for 2027-06)")]
        month: String,
        #[arg(description = "Prefer a departure before noon")] morning_departure: bool,
        #[arg(description = "At most this many stops (0 for nonstop)")] max_stops: u32,
    ) -> Result<Json<FlightSearch>, String> {
        let prefs = Preferences {
            morning_departure,
            max_stops,
        };
        // The search runs once per call: later rounds replay it from requestState.
        let search = async { flights::search(&destination, &month, max_stops) };
        let candidates = cx.memo("flights", search).await?;
        let submit_tool = cx.client_capabilities().sampling_tools();
        let answer = cx
            .ask(pick_flights(
                &candidates,
                &prefs,
                &self.fallback,
                submit_tool,
            ))
            .await;
        let (picks, chosen_by) = match resolve(&answer.0, &candidates) {
            Some(picks) => (picks, answer.1),
            None => {
                // A model that named no flight on the list: the ranking answers instead.
                let ranked = crate::pick::ranked(&candidates, &prefs);
                (resolve(&ranked, &candidates).unwrap_or_default(), "ranking")
            }
        };
        Ok(Json(FlightSearch {
            destination: "Barcelona".into(),
            month: month.trim().to_owned(),
            chosen_by: chosen_by.into(),
            picks,
            candidates: Vec::new(),
        }))
    }

    /// Books a travel package ("barcelona": Barcelona, flights 15 to 22 June 2027, a
    /// beachfront hotel, $3,000 in total). The traveller approves it in a form (the model
    /// cannot approve for them), then gives the passenger and emergency-contact details. Nothing
    /// is booked until both are in; declining either books nothing.
    #[tool(asks = [approve_trip, traveller_details])]
    async fn book_trip(
        &self,
        cx: &Cx,
        #[arg(description = "The package to book: \"barcelona\"")] package_id: String,
    ) -> Result<String, String> {
        let pkg = booking::package(&package_id)?;
        // The call's decision, a booking or a refusal, is made once (`Cx::once`, under the
        // call's flow id): a retried or replayed round, on this instance or any other sharing
        // the server's state, gets the decision already made, and books nothing twice; a
        // declined round sent again with "accept" gets the refusal.
        let approval: Approval = match cx.ask(approve_trip(&pkg)).await {
            Answer::Accept(a) if a.approve => a,
            Answer::Accept(_) | Answer::Decline => {
                return decided(cx, "The traveller declined the trip; nothing was booked.").await;
            }
            Answer::Cancel => {
                return decided(
                    cx,
                    "The traveller dismissed the approval; nothing was booked.",
                )
                .await;
            }
        };
        let details: TravellerDetails = match cx.ask(traveller_details(&pkg)).await {
            Answer::Accept(d) => d,
            Answer::Decline => {
                return decided(
                    cx,
                    "The traveller declined to give their details; nothing was booked.",
                )
                .await;
            }
            Answer::Cancel => {
                return decided(
                    cx,
                    "The traveller dismissed the details form; nothing was booked.",
                )
                .await;
            }
        };
        // Both answers are in: the one side effect comes last. On 2026-07-28 the tool runs
        // again from the top on each round, so anything done before the last question would
        // be done once per round.
        let booked = cx.once(DECISION, async {
            let booking = self.store.book(|id| Booking {
                id,
                summary: pkg.summary(),
                total_usd: pkg.total_usd,
                passenger: details.passenger_name.clone(),
                receipt: None,
            })?;
            Ok::<_, String>(confirmation(&booking, &approval))
        });
        Ok(booked.await?)
    }

    /// Pays for a booking on the travel server's payment page (URL mode: the card details are
    /// typed on that page, never into the chat). Waits until the page reports the payment.
    /// The booking "demo" always exists.
    #[tool(asks = [pay_on_page])]
    async fn pay_for_trip(
        &self,
        cx: &Cx,
        #[arg(description = "The booking id from book_trip, or \"demo\"")] booking_id: String,
    ) -> Result<String, String> {
        let lookup = async { self.store.get(&booking_id).ok_or(()) };
        let Ok(booking) = cx.memo("booking", lookup).await else {
            return Err(format!(
                "No booking {booking_id:?}: book with book_trip first, or pay for \"demo\"."
            ));
        };
        if let Some(receipt) = &booking.receipt {
            return Ok(format!(
                "Booking {} is already paid (receipt {receipt}).",
                booking.id
            ));
        }
        // The link is made once per call and carried in `requestState`: every round renders
        // the same URL (a new one would be a new question). It names the booking and this
        // call's flow, sealed, so the URL carries neither.
        let mint = async {
            let principal = cx.principal();
            self.links.mint(&booking.id, cx.flow_id(), principal)
        };
        let token = cx.memo("pay-link", mint).await?;
        let link = format!("{}/pay/{token}", self.page);
        let asked = pay_on_page(&booking.id, booking.total_usd, &link);
        match cx.ask(asked).await {
            Answer::Accept(flow) => {
                let store = self.store.clone();
                let receipt = flow
                    .finished(cx, || std::future::ready(store.receipt(&booking.id)))
                    .await;
                Ok(format!(
                    "Paid ${} for booking {}: receipt {receipt}.",
                    booking::thousands(booking.total_usd),
                    booking.id
                ))
            }
            Answer::Decline => Ok(format!(
                "The traveller declined to open the payment page; nothing was paid for booking {}.",
                booking.id
            )),
            Answer::Cancel => Ok(format!(
                "The traveller dismissed the payment page; nothing was paid for booking {}.",
                booking.id
            )),
        }
    }

    /// Lists the itineraries (travel-planning/), templates (travel-templates/) and client
    /// documents (client-documents/) in the travel agent's workspace: the client's roots, or,
    /// for a client that shares none, the `folders` given or the server's TRAVEL_WORKSPACE.
    /// Roots are advisory: they say where the user meant the server to look; the operating
    /// system decides what it may read.
    #[tool(read_only_hint = true, asks = [workspace])]
    async fn trip_files(
        &self,
        cx: &Cx,
        #[arg(description = "Workspace folders, for a client that shares no roots")]
        folders: Option<Vec<String>>,
    ) -> Result<String, String> {
        let given = folders.unwrap_or_default();
        let mut roots = cx.ask(workspace(&given, &self.workspace)).await.paths();
        if roots.is_empty() {
            // The client declares roots but shares no local folder: the same fallback as for a
            // client without roots, not a listing of nothing.
            let fallback = files::given_or_configured_folders(&given, &self.workspace);
            roots = fallback.ok_or(files::NO_WORKSPACE)?.paths();
        }
        Ok(files::listing(&roots))
    }
}

/// The name `book_trip` records its decision under.
const DECISION: &str = "booking";

/// Records a refusal as the call's decision (or gives the decision already recorded).
async fn decided(cx: &Cx, refusal: &str) -> Result<String, String> {
    let refusal = async { Ok::<_, std::convert::Infallible>(refusal.to_owned()) };
    Ok(cx.once(DECISION, refusal).await?)
}

fn confirmation(b: &Booking, a: &Approval) -> String {
    let mut prefs = Vec::new();
    if let Some(seat) = a.seat {
        prefs.push(format!("{seat:?} seat").to_lowercase());
    }
    if let Some(room) = a.room_type {
        prefs.push(format!("{room:?} room").to_lowercase());
    }
    if a.travel_insurance {
        prefs.push("travel insurance".into());
    }
    let prefs = if prefs.is_empty() {
        String::new()
    } else {
        format!(" ({})", prefs.join(", "))
    };
    format!(
        "Booked {} for {}{prefs}: booking {}. Pay with pay_for_trip(booking_id: \"{}\").",
        b.summary, b.passenger, b.id, b.id
    )
}
