//! The travel-booking MCP server of the MCP documents, complete: a flight search whose best
//! picks come from the client's model (`#[sample]`, with three fallbacks), a booking approved in
//! two forms (`#[elicit(form)]`: consent, then plain data), payment on a real page served by this
//! process (`#[elicit(url)]` and `UrlFlow::finished`), and the travel agent's workspace from the
//! client's roots (`#[roots]`), and a skill, `plan-a-trip` (`skills/`, the Skills extension),
//! that says how to use the four tools. The same tool code serves 2026-07-28 and 2025-11-25.
//!
//! [`start`] builds the server and starts the payment page; `main.rs` serves it over stdio or
//! HTTP, `demo.rs` drives it as a client at both revisions.

pub mod booking;
pub mod files;
pub mod flights;
pub mod links;
pub mod metrics;
pub mod payment;
pub mod pick;
pub mod provider;
pub mod store;
pub mod tools;
pub mod web;

use links::{PageLogin, PayLinks};
use pick::FlightFallback;
use provider::ModelProvider;
use rondo_mcp::prelude::*;
use rondo_mcp::shared::Redis;
use rondo_mcp::state::{Clock, KeyRing, SystemClock};
use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;

pub use tools::Travel;

/// How the server is configured.
#[derive(Clone)]
pub struct Config {
    /// What the flight search does without the client's model.
    pub fallback: FlightFallback,
    /// The workspace for clients without roots.
    pub workspace: Option<String>,
    /// Where the payment page listens (loopback; port 0 picks one).
    pub page_addr: SocketAddr,
    /// The key ring that seals `requestState` and the payment links (`RONDO_STATE_KEYS`);
    /// `None`: a random one, right for one process.
    pub state_keys: Option<KeyRing>,
    /// What a fleet shares (`--redis`, `RONDO_REDIS_URL`): the replay guard, the task store,
    /// the decisions' ledger, and the record of used payment links.
    pub shared: Option<Redis>,
    /// The clock of the server and of the payment links' expiry (tests move it).
    pub clock: Arc<dyn Clock>,
    /// Who is signed in on the payment page, for a server whose pages have a user login: the
    /// page then refuses a link made for another user. The example has none.
    pub page_login: Option<PageLogin>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            fallback: FlightFallback::Rank,
            workspace: None,
            page_addr: ([127, 0, 0, 1], 0).into(),
            state_keys: None,
            shared: None,
            clock: Arc::new(SystemClock),
            page_login: None,
        }
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("fallback", &self.fallback)
            .field("workspace", &self.workspace)
            .field("page_addr", &self.page_addr)
            .field("state_keys", &self.state_keys)
            .field("shared", &self.shared)
            .field("page_login", &self.page_login.is_some())
            .finish_non_exhaustive()
    }
}

impl Config {
    /// From the environment: `TRAVEL_FLIGHT_FALLBACK` (`rank`, the default; `provider`;
    /// `host`), `TRAVEL_MODEL_PROVIDER` (`fake`, an `http://` endpoint or a command; setting it
    /// alone selects `provider`), `TRAVEL_WORKSPACE` (a folder), `TRAVEL_PAYMENT_ADDR`
    /// (default `127.0.0.1:0`), `RONDO_STATE_KEYS` (the key ring). What a fleet shares is
    /// connected to by the caller (`shared`).
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
        let state_keys =
            KeyRing::from_env("RONDO_STATE_KEYS").map_err(|e| format!("RONDO_STATE_KEYS: {e}"))?;
        Ok(Config {
            fallback,
            workspace: var("TRAVEL_WORKSPACE"),
            page_addr,
            state_keys,
            ..Config::default()
        })
    }
}

/// The server's description for clients.
pub const INSTRUCTIONS: &str = "Find flights with find_best_flight, book the Barcelona package \
    with book_trip (the traveller approves and gives their details), pay with pay_for_trip (on \
    the payment page), and list the travel workspace with trip_files. The skill plan-a-trip \
    (skill://plan-a-trip/SKILL.md) says in which order, and what never to do without the \
    traveller's answer.";

/// Starts the payment page and builds the server. The page runs on the current tokio runtime.
///
/// The payment links are sealed with the server's key ring (`state_keys`, else a random ring
/// of this process's own) and their use recorded on `shared` when given: a fleet that shares
/// the ring and the Redis checks and spends each link once, wherever it is opened.
pub async fn start(config: Config) -> std::io::Result<(Server<Router>, Travel)> {
    let store = store::Store::default();
    let keys = config.state_keys.clone().unwrap_or_else(KeyRing::random);
    let links = PayLinks::new(
        keys,
        store.id(),
        config.clock.clone(),
        config.shared.as_ref(),
        config.page_login.clone(),
    );
    let page = payment::PaymentPage::start(store.clone(), links.clone(), config.page_addr).await?;
    let travel = || Travel {
        store: store.clone(),
        links: links.clone(),
        page: page.base.clone(),
        fallback: config.fallback.clone(),
        workspace: config.workspace.clone(),
    };
    let info = ServerInfo::new("travel", env!("CARGO_PKG_VERSION")).instructions(INSTRUCTIONS);
    // The skill `plan-a-trip` (the Skills extension): `skills/` checked and embedded when the
    // crate compiles, so a broken skill fails the build.
    let router = Router::new(info)
        .tools(travel())
        .skills(rondo_mcp::skills!("skills"));
    let mut server = Server::new(router).clock(config.clock.clone());
    if let Some(keys) = config.state_keys {
        server = server.state_keys(keys);
    }
    if let Some(shared) = config.shared {
        server = server.shared_state(shared);
    }
    Ok((server, travel()))
}
