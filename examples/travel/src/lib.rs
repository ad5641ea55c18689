//! The travel-booking MCP server of the MCP documents, complete: a flight search whose best
//! picks come from the client's model (`#[sample]`, with three fallbacks), a booking approved in
//! two forms (`#[elicit(form)]`: consent, then plain data), payment on a real page served by this
//! process (`#[elicit(url)]` and `UrlFlow::finished`), and the travel agent's workspace from the
//! client's roots (`#[roots]`). The same tool code serves 2026-07-28 and 2025-11-25.
//!
//! [`start`] builds the server and starts the payment page; `main.rs` serves it over stdio or
//! HTTP, `demo.rs` drives it as a client at both revisions.

pub mod booking;
pub mod files;
pub mod flights;
pub mod metrics;
pub mod payment;
pub mod pick;
pub mod provider;
pub mod store;
pub mod tools;
pub mod web;

use pick::FlightFallback;
use provider::ModelProvider;
use rondo_mcp::prelude::*;
use std::net::SocketAddr;

pub use tools::Travel;

/// How the server is configured.
#[derive(Debug, Clone)]
pub struct Config {
    /// What the flight search does without the client's model.
    pub fallback: FlightFallback,
    /// The workspace for clients without roots.
    pub workspace: Option<String>,
    /// Where the payment page listens (loopback; port 0 picks one).
    pub page_addr: SocketAddr,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            fallback: FlightFallback::Rank,
            workspace: None,
            page_addr: ([127, 0, 0, 1], 0).into(),
        }
    }
}

impl Config {
    /// From the environment: `TRAVEL_FLIGHT_FALLBACK` (`rank`, the default; `provider`;
    /// `host`), `TRAVEL_MODEL_PROVIDER` (`fake`, an `http://` endpoint or a command; setting it
    /// alone selects `provider`), `TRAVEL_WORKSPACE` (a folder), `TRAVEL_PAYMENT_ADDR`
    /// (default `127.0.0.1:0`).
    pub fn from_env() -> Result<Config, String> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let provider = var("TRAVEL_MODEL_PROVIDER")
            .map(|v| ModelProvider::parse(&v).map_err(|e| format!("TRAVEL_MODEL_PROVIDER: {e}")))
            .transpose()?;
        let fallback = match (var("TRAVEL_FLIGHT_FALLBACK").as_deref(), provider) {
            (None | Some("rank"), None) => FlightFallback::Rank,
            (Some("rank"), Some(_)) => FlightFallback::Rank,
            (None | Some("provider"), Some(p)) => FlightFallback::Provider(p),
            (Some("provider"), None) => {
                return Err("TRAVEL_FLIGHT_FALLBACK=provider needs TRAVEL_MODEL_PROVIDER".into());
            }
            (Some("host"), _) => FlightFallback::Host,
            (Some(other), _) => {
                return Err(format!(
                    "TRAVEL_FLIGHT_FALLBACK: `{other}` is not one of rank, provider, host"
                ));
            }
        };
        let page_addr = match var("TRAVEL_PAYMENT_ADDR") {
            Some(a) => a.parse().map_err(|e| format!("TRAVEL_PAYMENT_ADDR: {e}"))?,
            None => Config::default().page_addr,
        };
        Ok(Config {
            fallback,
            workspace: var("TRAVEL_WORKSPACE"),
            page_addr,
        })
    }
}

/// The server's description for clients.
pub const INSTRUCTIONS: &str = "Find flights with find_best_flight, book the Barcelona package \
    with book_trip (the traveller approves and gives their details), pay with pay_for_trip (on \
    the payment page), and list the travel workspace with trip_files.";

/// Starts the payment page and builds the server. The page runs on the current tokio runtime.
pub async fn start(config: Config) -> std::io::Result<(Server<Router>, Travel)> {
    let store = store::Store::default();
    let page = payment::PaymentPage::start(store.clone(), config.page_addr).await?;
    let travel = || Travel {
        store: store.clone(),
        page: page.base.clone(),
        fallback: config.fallback.clone(),
        workspace: config.workspace.clone(),
    };
    let info = ServerInfo::new("travel", env!("CARGO_PKG_VERSION")).instructions(INSTRUCTIONS);
    let server = Server::new(Router::new(info).tools(travel()));
    Ok((server, travel()))
}
