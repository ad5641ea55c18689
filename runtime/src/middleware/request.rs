//! [`McpRequest`]: one message as a layer sees it, and what passing it on does.

use super::McpResponse;
use crate::identity::Principal;
use crate::policy::ClientSide;
use crate::protocol::{ClientCapabilities, Implementation, Method, RequestId, Revision};
use crate::sync::BoxFuture;
use std::fmt;
use std::sync::Arc;

/// Which way a message goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// From the client to the server: a request the server serves.
    Inbound,
    /// From the server to the client: a request it asks a client of a handshake revision
    /// (answered by the client), or a notification it sends.
    Outbound,
}

/// One message, as a layer sees it: what it is and whom it concerns. Pass it on to the inner
/// service to do what it is for; answer without passing it on to refuse it. See the
/// [module](super) for which messages pass.
pub struct McpRequest {
    view: View,
    next: BoxFuture<'static, McpResponse>,
}

/// What a layer may read of a message, filled by whoever makes it (the engine, a request's
/// context, a transport's change forwarder).
pub(crate) struct View {
    pub direction: Direction,
    pub notification: bool,
    pub method: Method,
    pub name: Option<String>,
    pub revision: Revision,
    pub client: Option<Arc<ClientSide>>,
    pub principal: Option<Principal>,
    pub request_id: Option<RequestId>,
    pub flow: Option<String>,
    pub round: u32,
}

impl View {
    /// A change notification (a list change, a resource update, a task's status) a session of
    /// `revision` receives outside any request.
    pub(crate) fn change(
        method: &str,
        revision: Revision,
        client: Option<Arc<ClientSide>>,
        principal: Option<Principal>,
    ) -> View {
        View {
            direction: Direction::Outbound,
            notification: true,
            method: Method::parse(method),
            name: None,
            revision,
            client,
            principal,
            request_id: None,
            flow: None,
            round: 0,
        }
    }
}

impl McpRequest {
    /// A message described by `view`, which `next` does when passed on.
    pub(crate) fn new(view: View, next: BoxFuture<'static, McpResponse>) -> McpRequest {
        McpRequest { view, next }
    }

    /// What passing it on does (the innermost service runs it).
    pub(super) fn into_next(self) -> BoxFuture<'static, McpResponse> {
        self.next
    }

    /// Which way it goes.
    pub fn direction(&self) -> Direction {
        self.view.direction
    }

    /// Whether it is a notification (nothing answers it); otherwise a request.
    pub fn is_notification(&self) -> bool {
        self.view.notification
    }

    /// Its JSON-RPC method (`tools/call`, `elicitation/create`, `notifications/progress`).
    pub fn method(&self) -> &str {
        self.view.method.as_str()
    }

    /// Whether it is a client's `tools/call`.
    pub fn is_tool_call(&self) -> bool {
        self.view.direction == Direction::Inbound && self.view.method == Method::ToolsCall
    }

    /// The tool, prompt or resource (URI) it names: an inbound `tools/call`, `prompts/get` or
    /// `resources/read`, or the one whose request sends an outbound message.
    pub fn name(&self) -> Option<&str> {
        self.view.name.as_deref()
    }

    /// The protocol revision it is spoken in.
    pub fn revision(&self) -> Revision {
        self.view.revision
    }

    /// What the client declared, as the server's client policy left it (`None` before a
    /// session's `initialize`, and for a request whose `_meta` was refused).
    pub fn client_capabilities(&self) -> Option<&ClientCapabilities> {
        self.view.client.as_deref().map(|c| &c.capabilities)
    }

    /// The client's name and version, as it gave them.
    pub fn client_info(&self) -> Option<&Implementation> {
        self.view.client.as_deref().and_then(|c| c.info.as_ref())
    }

    /// Who sends it (inbound) or whom it is for (outbound), when the endpoint knows: a verified
    /// token's principal on a protected endpoint (its scopes are on
    /// [`Principal::access_token`]), or one a layer in front put there.
    pub fn principal(&self) -> Option<&Principal> {
        self.view.principal.as_ref()
    }

    /// The id of the request: its own (inbound), or the id of the client's request it belongs
    /// to (outbound).
    pub fn request_id(&self) -> Option<&RequestId> {
        self.view.request_id.as_ref()
    }

    /// The multi-round flow it belongs to (2026-07-28): the id its `requestState` carries, on a
    /// retry; `None` on a first round and at the handshake revisions.
    pub fn flow(&self) -> Option<&str> {
        self.view.flow.as_deref()
    }

    /// The round of that flow (0 for a first call).
    pub fn round(&self) -> u32 {
        self.view.round
    }
}

impl fmt::Debug for McpRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpRequest")
            .field("direction", &self.view.direction)
            .field("method", &self.method())
            .field("name", &self.view.name)
            .field("revision", &self.view.revision)
            .field("request_id", &self.view.request_id)
            .finish_non_exhaustive()
    }
}
