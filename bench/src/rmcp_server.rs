//! The rmcp server: the same `add` tool with rmcp's `#[tool_router]`/`#[tool]` macros, and the
//! same question as Rondo's `delete_file`, written the way rmcp offers it on each revision:
//!
//! - `delete_file` (2025-11-25): `peer.elicit::<Deletion>(..)` sends `elicitation/create` and
//!   awaits the answer.
//! - `delete_file_mrtr` (2026-07-28): rmcp has no typed question there; the tool returns an
//!   `InputRequiredResult` by hand, sealing its `requestState` with rmcp's `RequestStateCodec`
//!   (HMAC-SHA256, bound to the tool and its arguments, with a lifetime), and on the retry
//!   opens it and reads `inputResponses`.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{InputResponses, RequestState};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, ElicitRequest, ElicitRequestParams,
    ElicitationSchema, InputRequest, InputRequests, InputRequiredResult, RequestStateCodec,
    SealOptions,
};
use rmcp::service::{ElicitationError, Peer, RoleServer};
use rmcp::{ErrorData, elicit_safe, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;

/// The arguments of `add`.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct AddArgs {
    /// The first term
    pub a: i64,
    /// The second term
    pub b: i64,
}

/// The arguments of the two deletion tools.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
pub struct PathArgs {
    /// The file to delete
    pub path: String,
}

/// The form the deletion tools ask.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct Deletion {
    /// Delete the file?
    pub confirm: bool,
}

elicit_safe!(Deletion);

/// The server: its tool router is built once, at construction.
#[derive(Clone)]
pub struct Bench {
    tool_router: ToolRouter<Bench>,
    codec: Arc<RequestStateCodec>,
}

impl Default for Bench {
    fn default() -> Self {
        Self::new()
    }
}

impl Bench {
    /// A server with a fixed 32-byte state key (the benchmark has no secret to keep).
    pub fn new() -> Self {
        Bench {
            tool_router: Self::tool_router(),
            codec: Arc::new(
                RequestStateCodec::try_new(*b"rondo-bench-request-state-key-32")
                    .expect("a 32-byte key"),
            ),
        }
    }

    /// The same server with the `wait` tool too (the stdio server: the memory run keeps many
    /// `wait` calls in flight).
    pub fn with_wait() -> Self {
        let mut bench = Self::new();
        bench.tool_router += Self::wait_router();
        bench
    }
}

#[tool_router(router = wait_router)]
impl Bench {
    #[tool(
        description = "Waits 300 ms, then answers.",
        annotations(read_only_hint = true)
    )]
    async fn wait(&self) -> String {
        tokio::time::sleep(crate::floor::WAIT).await;
        "waited".to_owned()
    }
}

/// The wire key of the one question in `inputRequests`.
const QUESTION: &str = "confirm_delete";

#[tool_router]
impl Bench {
    #[tool(description = "Adds two integers.", annotations(read_only_hint = true))]
    async fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> String {
        (a + b).to_string()
    }

    #[tool(
        description = "Deletes a file after the user confirms (2025-11-25: elicitation/create).",
        annotations(destructive_hint = true)
    )]
    async fn delete_file(
        &self,
        peer: Peer<RoleServer>,
        Parameters(PathArgs { path }): Parameters<PathArgs>,
    ) -> Result<String, ErrorData> {
        match peer.elicit::<Deletion>(format!("Delete {path}?")).await {
            Ok(Some(d)) if d.confirm => Ok(format!("deleted {path}")),
            Ok(_) | Err(ElicitationError::UserDeclined | ElicitationError::UserCancelled) => {
                Ok(format!("kept {path}"))
            }
            Err(e) => Err(ErrorData::internal_error(e.to_string(), None)),
        }
    }

    #[tool(
        description = "Deletes a file after the user confirms (2026-07-28: InputRequiredResult).",
        annotations(destructive_hint = true)
    )]
    async fn delete_file_mrtr(
        &self,
        Parameters(args): Parameters<PathArgs>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        // The state is bound to the tool and its arguments, as Rondo binds its own.
        let bound = serde_json::to_vec(&("delete_file_mrtr", &args))
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let answer = match state {
            None => None,
            Some(sealed) => {
                let asked: String = self.codec.open_json_with(&sealed, &bound).map_err(|_| {
                    ErrorData::invalid_params("Invalid or expired requestState", None)
                })?;
                responses
                    .as_ref()
                    .and_then(|r| r.get(&asked))
                    .filter(|r| r["action"] == "accept")
                    .map(|r| serde_json::from_value::<Deletion>(r["content"].clone()))
                    .transpose()
                    .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?
            }
        };
        let path = args.path;
        match answer {
            Some(d) if d.confirm => Ok(text(format!("deleted {path}"))),
            Some(_) => Ok(text(format!("kept {path}"))),
            None => {
                let schema = ElicitationSchema::from_type::<Deletion>()
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                let mut requests = InputRequests::new();
                requests.insert(
                    QUESTION.to_owned(),
                    InputRequest::Elicitation(ElicitRequest::new(
                        ElicitRequestParams::FormElicitationParams {
                            meta: None,
                            message: format!("Delete {path}?"),
                            requested_schema: schema,
                        },
                    )),
                );
                let options = SealOptions::new()
                    .associated_data(&bound)
                    .ttl(Duration::from_secs(3600));
                let sealed = self
                    .codec
                    .seal_json_with(&QUESTION, &options)
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                Ok(InputRequiredResult::new(Some(requests), Some(sealed)).into())
            }
        }
    }
}

fn text(s: String) -> CallToolResponse {
    CallToolResult::success(vec![ContentBlock::text(s)]).into()
}

#[tool_handler(router = self.tool_router)]
impl rmcp::ServerHandler for Bench {}
