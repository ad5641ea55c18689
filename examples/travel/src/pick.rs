//! `find_best_flight`'s question to the client's model (`#[sample]`), the answer it expects,
//! and its three fallbacks: the deterministic ranking (the default), the server's own model
//! provider (an `async` fallback), and ending the tool with every candidate so the host's model
//! chooses (`Fallback::End`).

use crate::booking::thousands;
use crate::flights::{self, Flight, Preferences};
use crate::provider::ModelProvider;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::ToolChoice;
use rondo_mcp::question::SampleAnswer;
use rondo_mcp::{Fallback, Json, ModelReply, sample};
use serde::{Deserialize, Serialize};

/// What a model answers: the best flights, best first, each with its reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ModelPicks {
    /// Up to three picks, best first.
    pub picks: Vec<ModelPick>,
}

/// One of a model's picks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ModelPick {
    /// The flight's `id` from the list (`BCN05`).
    pub flight_id: String,
    /// Why it suits the traveller, in one sentence.
    pub reason: String,
}

/// The answer of the sampling question: the model's picks, read from its text (JSON, fenced or
/// not) or, when the request offered the `submit_picks` tool, from the call of that tool; and
/// who chose them (`client_model`, or the fallback's `ranking` or `server_model`).
#[derive(Debug, Clone, PartialEq)]
pub struct Answered(pub ModelPicks, pub &'static str);

/// The tool a client that declared `sampling.tools` is given to answer with.
pub const SUBMIT: &str = "submit_picks";

impl SampleAnswer for Answered {
    fn instruction() -> Option<String> {
        <ModelPicks as SampleAnswer>::instruction()
    }

    fn from_reply(reply: ModelReply) -> Result<Self, String> {
        if let Some(call) = reply.tool_uses().into_iter().find(|u| u.name == SUBMIT) {
            return serde_json::from_value(call.input.into())
                .map(|p| Answered(p, "client_model"))
                .map_err(|e| format!("`{SUBMIT}` was called with other arguments: {e}"));
        }
        <ModelPicks as SampleAnswer>::from_reply(reply).map(|p| Answered(p, "client_model"))
    }
}

/// What the flight search does when the client's model does not answer (the server's
/// configuration: `TRAVEL_FLIGHT_FALLBACK`, `TRAVEL_MODEL_PROVIDER`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum FlightFallback {
    /// Rank by the preferences, then stops, then price (the default).
    #[default]
    Rank,
    /// Ask the server's own model provider; if it fails too, rank.
    Provider(ModelProvider),
    /// End the tool with every candidate, so the host's model chooses in its conversation.
    Host,
}

/// What `find_best_flight` returns (its `outputSchema`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FlightSearch {
    /// The destination searched.
    pub destination: String,
    /// The month searched (`YYYY-MM`).
    pub month: String,
    /// Who chose the picks: `client_model`, `server_model`, `ranking` or `host_model` (when
    /// `host_model`, `picks` is empty and `candidates` lists every flight to choose from).
    pub chosen_by: String,
    /// The best flights, best first.
    pub picks: Vec<Pick>,
    /// Every candidate, when the host's model is to choose.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<Flight>,
}

/// A picked flight and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Pick {
    /// The flight.
    pub flight: Flight,
    /// Why it was picked.
    pub reason: String,
}

/// The conversation: the candidates, the preferences, what to answer.
pub fn prompt(candidates: &[Flight], prefs: &Preferences) -> String {
    let listing: Vec<String> = candidates.iter().map(Flight::line).collect();
    let morning = if prefs.morning_departure {
        "prefers to leave before noon"
    } else {
        "has no preferred time of day"
    };
    format!(
        "A traveller flying to Barcelona {morning} and accepts at most {} stop(s). \
         Pick the best three flights from this list, best first, each with a one-sentence reason. \
         Use the ids as written.\n{}",
        prefs.max_stops,
        listing.join("\n")
    )
}

/// The client's model picks the best three. `submit_tool` (set when the client declared
/// `sampling.tools`) offers the `submit_picks` tool to answer with: a request that carries
/// tools goes only to clients that declared `sampling.tools`, every other gets the fallback, so
/// the tool adds it only for them.
#[sample(fallback = when_no_model)]
pub fn pick_flights(
    candidates: &[Flight],
    prefs: &Preferences,
    _fallback: &FlightFallback,
    submit_tool: bool,
) -> Sample<Answered> {
    let sample = Sample::user(prompt(candidates, prefs))
        .system("You are a travel agent's assistant. You choose flights for travellers.")
        .max_tokens(600)
        .temperature(0.2);
    if !submit_tool {
        return sample;
    }
    let schema = serde_json::to_value(schemars::schema_for!(ModelPicks)).unwrap_or_default();
    let mut input = schema.as_object().cloned().unwrap_or_default();
    input.remove("$schema");
    input.remove("title");
    let tool = Tool::new(SUBMIT, "Submit the picked flights, best first", input);
    sample.tools(vec![tool]).tool_choice(ToolChoice::Required)
}

/// The fallback, by the server's configuration: the ranking, the server's own model, or the
/// end of the tool with every candidate.
pub async fn when_no_model(
    candidates: &[Flight],
    prefs: &Preferences,
    fallback: &FlightFallback,
    _submit_tool: bool,
) -> Fallback<Answered> {
    match fallback {
        FlightFallback::Rank => Fallback::Answer(Answered(ranked(candidates, prefs), "ranking")),
        FlightFallback::Provider(provider) => {
            let system = "You are a travel agent's assistant. You choose flights for travellers.";
            let instruction = Answered::instruction().unwrap_or_default();
            match provider
                .complete(
                    &format!("{system}\n\n{instruction}"),
                    &prompt(candidates, prefs),
                )
                .await
                .and_then(|text| <ModelPicks as SampleAnswer>::from_reply(text_reply(text)))
            {
                Ok(picks) => Fallback::Answer(Answered(picks, "server_model")),
                Err(why) => {
                    tracing::warn!(%why, "the server's model provider failed; ranking instead");
                    Fallback::Answer(Answered(ranked(candidates, prefs), "ranking"))
                }
            }
        }
        FlightFallback::Host => Fallback::end(Json(FlightSearch {
            destination: "Barcelona".into(),
            month: month_of(candidates),
            chosen_by: "host_model".into(),
            picks: Vec::new(),
            candidates: candidates.to_vec(),
        })),
    }
}

/// The deterministic ranking as model-shaped picks, each reason saying what decided it.
pub fn ranked(candidates: &[Flight], prefs: &Preferences) -> ModelPicks {
    let picks = flights::rank(candidates, prefs, 3)
        .into_iter()
        .map(|f| {
            let when = if f.is_morning() {
                "morning"
            } else {
                "afternoon or evening"
            };
            let stops = match f.stops {
                0 => "nonstop".to_owned(),
                n => format!("{n} stop(s)"),
            };
            ModelPick {
                reason: format!(
                    "Ranked: {when} departure, {stops}, ${}.",
                    thousands(f.price_usd)
                ),
                flight_id: f.id,
            }
        })
        .collect();
    ModelPicks { picks }
}

fn text_reply(text: String) -> ModelReply {
    ModelReply {
        content: vec![serde_json::json!({"type": "text", "text": text})],
        model: "server-provider".into(),
        stop_reason: None,
    }
}

fn month_of(candidates: &[Flight]) -> String {
    candidates
        .first()
        .and_then(|f| f.departure.get(..7))
        .unwrap_or_default()
        .to_owned()
}

/// The picks as the tool returns them: the flights they name among the candidates, at most
/// three, unknown and repeated ids dropped. `None` when none of them is a candidate (a model
/// that invented flights).
pub fn resolve(picks: &ModelPicks, candidates: &[Flight]) -> Option<Vec<Pick>> {
    let mut out: Vec<Pick> = Vec::new();
    for p in &picks.picks {
        let id = p.flight_id.trim();
        let Some(f) = candidates.iter().find(|f| f.id.eq_ignore_ascii_case(id)) else {
            continue;
        };
        if out.iter().any(|o| o.flight.id == f.id) || out.len() == 3 {
            continue;
        }
        out.push(Pick {
            flight: f.clone(),
            reason: p.reason.clone(),
        });
    }
    (!out.is_empty()).then_some(out)
}
