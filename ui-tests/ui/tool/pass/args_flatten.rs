//! `#[args]` takes the arguments as one struct, next to plain ones.

use rondo_mcp::Cx;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Trip {
    /// Departure city.
    from: String,
    /// Arrival city.
    to: String,
}

/// Quotes a trip.
#[rondo_mcp::tool]
async fn quote(_cx: &Cx, #[args] trip: Trip, passengers: Option<u32>) -> String {
    format!("{}-{} x{}", trip.from, trip.to, passengers.unwrap_or(1))
}

/// Searches with a verbatim schema.
#[rondo_mcp::tool(input_schema = serde_json::json!({
    "type": "object",
    "properties": {"from": {"type": "string"}, "to": {"type": "string"}},
}))]
async fn search(#[args] trip: Trip) -> String {
    format!("{}-{}", trip.from, trip.to)
}

fn main() {
    let _ = rondo_mcp::tools![quote, search];
}
