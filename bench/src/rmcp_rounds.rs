//! The rmcp server of the multi-round benchmarks: `confirm_steps_mrtr`, the hand-built
//! equivalent of Rondo's `confirm_steps` (rmcp 3.11 has no question API at 2026-07-28). As in
//! `rmcp_server::delete_file_mrtr`, the first round builds the `InputRequiredResult` by hand and
//! seals its `requestState` with `RequestStateCodec` (HMAC-SHA256, bound to the tool and its
//! arguments, with a lifetime); here the state carries the wire keys asked and the memo, and
//! the retry opens it, reads one `inputResponses` entry per key and takes the memo from it
//! instead of computing it again. Signed, not encrypted: the client can read the memo.

use crate::rounds::{MAX_MEMO_BYTES, MAX_QUESTIONS, blob, summary};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{InputResponses, RequestState};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, ElicitRequest, ElicitRequestParams,
    ElicitationSchema, InputRequest, InputRequests, InputRequiredResult, RequestStateCodec,
    SealOptions,
};
use rmcp::{ErrorData, elicit_safe, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;

/// The arguments of `confirm_steps_mrtr`.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
pub struct StepsArgs {
    /// How many questions to ask at once
    pub questions: u32,
    /// How many bytes of memo to carry
    pub memo_bytes: u32,
}

/// One of the questions.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct Confirm {
    /// Go ahead?
    pub ok: bool,
}

elicit_safe!(Confirm);

/// What the sealed state carries: the wire keys asked, and the memo.
#[derive(Serialize, Deserialize)]
pub struct Carried {
    /// The `inputRequests` keys of the first round.
    pub asked: Vec<String>,
    /// The memoised text.
    pub memo: String,
}

/// The server: its tool router built once, a fixed state key.
#[derive(Clone)]
pub struct Rounds {
    tool_router: ToolRouter<Rounds>,
    codec: Arc<RequestStateCodec>,
}

impl Default for Rounds {
    fn default() -> Self {
        Self::new()
    }
}

impl Rounds {
    /// A server with a fixed 32-byte state key (the benchmark has no secret to keep).
    pub fn new() -> Self {
        Rounds {
            tool_router: Self::tool_router(),
            codec: Arc::new(
                RequestStateCodec::try_new(*b"rondo-bench-request-state-key-32")
                    .expect("a 32-byte key"),
            ),
        }
    }
}

fn internal(e: impl std::fmt::Display) -> ErrorData {
    ErrorData::internal_error(e.to_string(), None)
}

#[tool_router]
impl Rounds {
    #[tool(
        description = "Asks to confirm `questions` steps at once, carrying a memo across the round."
    )]
    async fn confirm_steps_mrtr(
        &self,
        Parameters(args): Parameters<StepsArgs>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        if args.questions > MAX_QUESTIONS || args.memo_bytes > MAX_MEMO_BYTES {
            return Err(ErrorData::invalid_params(
                "too many questions or memo bytes",
                None,
            ));
        }
        // The state is bound to the tool and its arguments, as Rondo binds its own.
        let bound = serde_json::to_vec(&("confirm_steps_mrtr", &args)).map_err(internal)?;
        if let Some(sealed) = state {
            let carried: Carried = self
                .codec
                .open_json_with(&sealed, &bound)
                .map_err(|_| ErrorData::invalid_params("Invalid or expired requestState", None))?;
            let responses = responses.unwrap_or_default();
            let mut confirmed = 0;
            for key in &carried.asked {
                let Some(r) = responses.get(key) else {
                    return Err(ErrorData::invalid_params(
                        format!("`{key}` unanswered"),
                        None,
                    ));
                };
                if r["action"] == "accept" {
                    let c: Confirm = serde_json::from_value(r["content"].clone())
                        .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
                    confirmed += usize::from(c.ok);
                }
            }
            let text = summary(confirmed, args.questions, &carried.memo);
            return Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into());
        }
        let memo = blob(args.memo_bytes as usize);
        let schema = ElicitationSchema::from_type::<Confirm>().map_err(internal)?;
        let mut requests = InputRequests::new();
        let mut asked = Vec::with_capacity(args.questions as usize);
        for step in 0..args.questions {
            let key = format!("confirm_step_{step}");
            requests.insert(
                key.clone(),
                InputRequest::Elicitation(ElicitRequest::new(
                    ElicitRequestParams::FormElicitationParams {
                        meta: None,
                        message: format!("Run step {step}?"),
                        requested_schema: schema.clone(),
                    },
                )),
            );
            asked.push(key);
        }
        let options = SealOptions::new()
            .associated_data(&bound)
            .ttl(Duration::from_secs(600));
        let sealed = self
            .codec
            .seal_json_with(&Carried { asked, memo }, &options)
            .map_err(internal)?;
        Ok(InputRequiredResult::new(Some(requests), Some(sealed)).into())
    }
}

#[tool_handler(router = self.tool_router)]
impl rmcp::ServerHandler for Rounds {}
