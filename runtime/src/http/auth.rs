//! The resource server at the endpoint (feature `auth`): the Protected Resource Metadata
//! document, the bearer check of every request, and the `401`/`403` challenges (design §26).

use super::body::{self, McpBody};
use super::exchange::{Challenger, StepUpWatch};
use crate::auth::{Challenge, Code, Refused, ResourceServer};
use crate::cx::Principal;
use crate::handler::Handler;
use crate::identity::{Scope, StepUp};
use crate::protocol::{Method as RpcMethod, Request};
use bytes::Bytes;
use http::header::{self, HeaderMap, HeaderValue};
use http::{Method, Response, StatusCode};
use std::sync::Arc;
use std::time::SystemTime;

/// What a protected endpoint is served with, built once from the resource server and the
/// handler's declarations.
pub(crate) struct Protection {
    rs: ResourceServer,
    /// The metadata document, serialized once.
    document: Bytes,
    /// The paths it is served at.
    paths: Vec<String>,
    /// The `scope` of the `401` challenges: the endpoint's required scopes, else the supported
    /// ones.
    minimum: Vec<Scope>,
}

const NEEDS_TOKEN: &str = "This server needs an access token (Authorization: Bearer)";

impl Protection {
    pub(crate) fn new(rs: ResourceServer, declared: &[Scope]) -> Self {
        let doc = rs.metadata(declared);
        let minimum = if rs.required_scopes().is_empty() {
            rs.scopes_supported(declared)
        } else {
            rs.required_scopes().to_vec()
        };
        Protection {
            document: Bytes::from(doc.to_string()),
            paths: rs.metadata_paths(),
            minimum,
            rs,
        }
    }

    /// The paths the metadata document is served at.
    pub(crate) fn paths(&self) -> &[String] {
        &self.paths
    }

    /// Whether `path` is one of the metadata paths.
    pub(crate) fn serves(&self, path: &str) -> bool {
        self.paths.iter().any(|p| p == path)
    }

    /// The answer at a metadata path: the document to `GET` and `HEAD`, the CORS preflight to
    /// `OPTIONS`, `405` to anything else. Public, so no token is read and no `Origin` checked.
    pub(crate) fn metadata(&self, method: &Method) -> Response<McpBody> {
        let mut r = match *method {
            Method::GET => Response::new(McpBody::full(self.document.clone())),
            Method::HEAD => Response::new(McpBody::empty()),
            Method::OPTIONS => {
                let mut r = body::status(StatusCode::NO_CONTENT);
                let h = r.headers_mut();
                h.insert(
                    header::ACCESS_CONTROL_ALLOW_METHODS,
                    HeaderValue::from_static("GET, HEAD, OPTIONS"),
                );
                h.insert(
                    header::ACCESS_CONTROL_ALLOW_HEADERS,
                    HeaderValue::from_static("MCP-Protocol-Version, Authorization"),
                );
                h.insert(
                    header::ACCESS_CONTROL_MAX_AGE,
                    HeaderValue::from_static("86400"),
                );
                r
            }
            _ => {
                let mut r = body::status(StatusCode::METHOD_NOT_ALLOWED);
                r.headers_mut().insert(
                    header::ALLOW,
                    HeaderValue::from_static("GET, HEAD, OPTIONS"),
                );
                return r;
            }
        };
        let h = r.headers_mut();
        h.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        if *method != Method::OPTIONS {
            h.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            h.insert(
                header::CACHE_CONTROL,
                HeaderValue::from_static("max-age=3600"),
            );
            h.insert(
                header::CONTENT_LENGTH,
                HeaderValue::from(self.document.len()),
            );
        }
        r
    }

    /// The principal of a request's bearer token, or the answer that refuses it. Runs before
    /// any byte of the body is read.
    pub(crate) async fn authenticate(
        &self,
        headers: &HeaderMap,
    ) -> Result<Principal, Response<McpBody>> {
        let values: Vec<&[u8]> = headers
            .get_all(header::AUTHORIZATION)
            .iter()
            .map(HeaderValue::as_bytes)
            .collect();
        match self.rs.principal(&values, SystemTime::now()).await {
            Ok(p) => Ok(p),
            Err(refused) => Err(self.refuse(refused)),
        }
    }

    /// The answer to refused credentials.
    fn refuse(&self, refused: Refused) -> Response<McpBody> {
        let (code, description, scopes) = match &refused {
            Refused::Missing => (Code::Missing, NEEDS_TOKEN, &self.minimum[..]),
            Refused::Malformed(why) => (Code::InvalidRequest, *why, &[][..]),
            Refused::Invalid(why) => (Code::InvalidToken, why.as_str(), &self.minimum[..]),
            Refused::Scope(scopes) => (
                Code::InsufficientScope,
                "The access token lacks a scope this server requires",
                &scopes[..],
            ),
            Refused::Forbidden(why) => (Code::InsufficientScope, why.as_str(), &[][..]),
            Refused::Unavailable(why) => {
                tracing::warn!(reason = %why, "the access token could not be verified");
                return body::refuse(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the access token could not be verified now; try again later",
                );
            }
        };
        tracing::debug!(?code, description, "credentials refused");
        self.challenge(code, description, scopes)
    }

    /// A `401`, `400` or `403` with its `WWW-Authenticate` challenge and the OAuth error body.
    fn challenge(&self, code: Code, description: &str, scopes: &[Scope]) -> Response<McpBody> {
        let c = Challenge {
            code,
            description,
            scopes,
            resource_metadata: self.rs.metadata_url(),
        };
        let mut r = Response::new(McpBody::full(c.body().to_string()));
        *r.status_mut() = StatusCode::from_u16(code.status()).unwrap_or(StatusCode::UNAUTHORIZED);
        let h = r.headers_mut();
        if let Ok(v) = HeaderValue::from_str(&c.header()) {
            h.insert(header::WWW_AUTHENTICATE, v);
        }
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        r
    }

    /// `403 insufficient_scope` when `who` lacks a scope of `required` (after the hierarchy),
    /// `None` when every one is granted:
    /// the challenge names every required scope at once, then the ones already granted, so
    /// that the client's next authorization asks for all it needs.
    pub(crate) fn require(
        &self,
        who: Option<&Principal>,
        required: &[Scope],
        what: &str,
    ) -> Option<Response<McpBody>> {
        if required.is_empty() {
            return None;
        }
        let empty = Default::default();
        let granted = who
            .and_then(Principal::access_token)
            .map_or(&empty, |t| &t.scopes);
        let h = self.rs.hierarchy();
        let missing = h.missing(required, granted);
        if missing.is_empty() {
            return None;
        }
        let names: Vec<&str> = missing.iter().map(|s| s.as_str()).collect();
        let description = format!("{what} needs {}", names.join(" "));
        tracing::debug!(%description, "insufficient scope");
        let scopes = h.challenge_scopes(required, granted);
        Some(self.challenge(Code::InsufficientScope, &description, &scopes))
    }

    /// The watch of one request for a step-up from `cx.require_scopes`.
    pub(crate) fn watch(self: &Arc<Self>) -> StepUpWatch {
        StepUpWatch {
            slot: Default::default(),
            answer: self.clone(),
        }
    }

    /// The refusal when `who` lacks a scope the target of `req` declares (step 9 of the order
    /// of checks, after the headers were checked against the body).
    pub(crate) fn check_target<H: Handler>(
        &self,
        handler: &H,
        req: &Request,
        who: Option<&Principal>,
    ) -> Option<Response<McpBody>> {
        let t = req.params.target()?;
        let (required, what) = match req.method {
            RpcMethod::ToolsCall => (handler.tool_scopes(&t.target), "the tool"),
            RpcMethod::PromptsGet => (handler.prompt_scopes(&t.target), "the prompt"),
            RpcMethod::ResourcesRead => (handler.resource_scopes(&t.target), "the resource"),
            _ => return None,
        };
        self.require(who, &required, &format!("{what} {}", t.target))
    }
}

impl Challenger for Protection {
    fn step_up(&self, s: &StepUp) -> Response<McpBody> {
        let names: Vec<&str> = s.missing.iter().map(Scope::as_str).collect();
        let description = format!("This request needs {}", names.join(" "));
        tracing::debug!(%description, "step-up asked by the handler");
        self.challenge(Code::InsufficientScope, &description, &s.scopes)
    }
}
