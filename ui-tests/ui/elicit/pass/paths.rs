//! Question functions used from other modules: through a path, under a `use .. as ..` rename,
//! and through a `pub use` re-export, in `asks = [..]` and in the asks themselves.

use rondo_mcp::prelude::*;
use rondo_mcp::{Answer, tool};

mod travel {
    pub mod questions {
        use rondo_mcp::{Elicit, Form, Url, elicit};

        #[derive(Elicit)]
        pub struct Approval {
            /// Book this trip?
            pub approve: bool,
        }

        /// Asks before booking.
        #[elicit(form, fallback = refuse)]
        pub fn approve(trip: &str) -> Form<Approval> {
            Form::new(format!("Book {trip}?"))
        }

        /// Sends the traveller to pay.
        #[elicit(url, fallback = refuse)]
        pub fn pay(order: &str) -> Url {
            Url::new(
                "Pay for the trip",
                format!("https://pay.example.com/{order}"),
            )
        }
    }

    pub use self::questions::pay;
}

use travel::questions::approve as confirm_trip;

/// Books a trip through a path.
#[tool(asks = [travel::questions::approve])]
async fn book(cx: &Cx, trip: String) -> String {
    match cx.ask(travel::questions::approve(&trip)).await {
        Answer::Accept(a) if a.approve => format!("booked {trip}"),
        _ => "not booked".into(),
    }
}

/// Books a trip through a renamed import.
#[tool(asks = [confirm_trip])]
async fn rebook(cx: &Cx, trip: String) -> String {
    match cx.ask(confirm_trip(&trip)).await {
        Answer::Accept(a) if a.approve => format!("rebooked {trip}"),
        _ => "not rebooked".into(),
    }
}

/// Pays through a re-export, and asks the renamed question too.
#[tool(asks = [travel::pay, confirm_trip])]
async fn pay(cx: &Cx, order: String) -> Result<String, String> {
    match cx.ask(confirm_trip(&order)).await {
        Answer::Accept(a) if a.approve => {}
        _ => return Ok("not paid".into()),
    }
    match cx.ask(travel::pay(&order)).await {
        Answer::Accept(_) => Ok(format!("paying {order}")),
        _ => Err("the payment was not started".into()),
    }
}

fn main() {
    let _ =
        Router::new(ServerInfo::new("paths", "1.0.0")).tools(rondo_mcp::tools![book, rebook, pay]);
}
