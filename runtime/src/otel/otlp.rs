//! OTLP export over HTTP/protobuf (the `otlp` feature): a tracer provider with a batch
//! exporter, configured by the standard variables, and the `tracing` layer that feeds it.
//!
//! The SDK's batch processor exports from a thread of its own, outside any tokio runtime, so
//! the exporter's HTTP client cannot be a plain hyper client of the application's runtime.
//! [`HyperExport`] keeps a current-thread runtime on a thread of its own and sends each export
//! there; a request never waits for an export, and an endpoint that is down costs the export
//! thread its timeout, never a request (the queue is bounded: spans past it are dropped).

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full, Limited};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_http::{HttpClient, HttpError, Request, Response};
use opentelemetry_otlp::{Protocol, SpanExporter, WithExportConfig as _, WithHttpConfig as _};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{SdkTracer, SdkTracerProvider};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;
use tracing_opentelemetry::OpenTelemetryLayer;

/// The variables that turn export on ([`Otlp::from_env`]).
const ENDPOINT_VARS: [&str; 2] = [
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_ENDPOINT",
];
/// How long one export may take, unless `OTEL_EXPORTER_OTLP_TIMEOUT` (ms) says otherwise.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest answer read from the collector.
const MAX_ANSWER: usize = 64 * 1024;

/// Spans exported over OTLP/HTTP with protobuf, as the standard variables configure it:
/// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (used as it is) or `OTEL_EXPORTER_OTLP_ENDPOINT`
/// (`/v1/traces` appended), `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TIMEOUT`,
/// `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`, and the batch processor's
/// `OTEL_BSP_*` (a queue of 2,048 spans by default; spans past it are dropped).
///
/// Dropping it flushes what is queued and shuts the exporter down. `http://` and `https://`
/// endpoints (the latter verified against Mozilla's roots, compiled in; design §33).
///
/// ```no_run
/// use rondo_mcp::otel::Otlp;
/// use tracing_subscriber::prelude::*;
///
/// # fn main() -> Result<(), rondo_mcp::otel::OtlpError> {
/// let otlp = Otlp::from_env("my-server")?; // `None` unless an endpoint variable is set
/// tracing_subscriber::registry().with(otlp.as_ref().map(Otlp::layer)).init();
/// # Ok(()) }
/// ```
pub struct Otlp {
    provider: SdkTracerProvider,
}

impl fmt::Debug for Otlp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Otlp").finish_non_exhaustive()
    }
}

/// Why export could not be set up.
#[derive(Debug)]
pub struct OtlpError(String);

impl fmt::Display for OtlpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OTLP export: {}", self.0)
    }
}

impl std::error::Error for OtlpError {}

impl Otlp {
    /// Export when `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is
    /// set (`None` otherwise), as `service` unless `OTEL_SERVICE_NAME` names it.
    pub fn from_env(service: &str) -> Result<Option<Otlp>, OtlpError> {
        let set = ENDPOINT_VARS
            .iter()
            .any(|v| std::env::var(v).is_ok_and(|s| !s.trim().is_empty()));
        if set {
            Otlp::new(service).map(Some)
        } else {
            Ok(None)
        }
    }

    /// Export to the endpoint the variables name, or to OTLP's default
    /// (`http://localhost:4318/v1/traces`), as `service` unless `OTEL_SERVICE_NAME` names it.
    pub fn new(service: &str) -> Result<Otlp, OtlpError> {
        let timeout = std::env::var("OTEL_EXPORTER_OTLP_TIMEOUT")
            .ok()
            .and_then(|ms| ms.trim().parse().ok())
            .map_or(DEFAULT_TIMEOUT, Duration::from_millis);
        let client = HyperExport::start(timeout).map_err(|e| OtlpError(e.to_string()))?;
        let exporter = SpanExporter::builder()
            .with_http()
            .with_protocol(Protocol::HttpBinary)
            .with_timeout(timeout)
            .with_http_client(client)
            .build()
            .map_err(|e| OtlpError(e.to_string()))?;
        let name = std::env::var("OTEL_SERVICE_NAME")
            .ok()
            .filter(|s| !s.trim().is_empty())
            .unwrap_or_else(|| service.to_owned());
        let resource = Resource::builder().with_service_name(name).build();
        let provider = SdkTracerProvider::builder()
            .with_resource(resource)
            .with_batch_exporter(exporter)
            .build();
        Ok(Otlp { provider })
    }

    /// The `tracing` layer that turns spans into OpenTelemetry spans for this exporter.
    pub fn layer<S>(&self) -> OpenTelemetryLayer<S, SdkTracer>
    where
        S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    {
        let tracer = self.provider.tracer("rondo-mcp");
        tracing_opentelemetry::layer().with_tracer(tracer)
    }

    /// The tracer provider, for spans of the application's own or a metrics setup.
    pub fn provider(&self) -> &SdkTracerProvider {
        &self.provider
    }

    /// Exports what is queued now, waiting for it (at most the export timeout).
    pub fn flush(&self) {
        if let Err(e) = self.provider.force_flush() {
            tracing::debug!(error = %e, "OTLP flush failed");
        }
    }
}

impl Drop for Otlp {
    fn drop(&mut self) {
        if let Err(e) = self.provider.shutdown() {
            tracing::debug!(error = %e, "OTLP shutdown failed");
        }
    }
}

/// The exporter's HTTP client: hyper's, on a current-thread runtime that a thread of its own
/// drives until the client is dropped.
struct HyperExport {
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
    runtime: tokio::runtime::Handle,
    timeout: Duration,
    /// Dropped with the client: its thread then ends.
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl fmt::Debug for HyperExport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HyperExport").finish_non_exhaustive()
    }
}

impl HyperExport {
    fn start(timeout: Duration) -> std::io::Result<HyperExport> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let runtime = rt.handle().clone();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        std::thread::Builder::new()
            .name("rondo-otlp".to_owned())
            .spawn(move || {
                rt.block_on(async {
                    let _ = stopped.await;
                })
            })?;
        // `https://` collectors verified against Mozilla's roots compiled in (rustls with
        // ring, passed explicitly: no process-wide default to depend on); `http://` as is.
        let connector = HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())
            .map_err(std::io::Error::other)?
            .https_or_http()
            .enable_http1()
            .build();
        let client = Client::builder(TokioExecutor::new()).build(connector);
        Ok(HyperExport {
            client,
            runtime,
            timeout,
            _stop: stop,
        })
    }
}

type Sent<'a> = Pin<Box<dyn Future<Output = Result<Response<Bytes>, HttpError>> + Send + 'a>>;

impl HttpClient for HyperExport {
    // The trait is declared with `async_trait`: this is its expanded signature.
    fn send_bytes<'life0, 'async_trait>(&'life0 self, request: Request<Bytes>) -> Sent<'async_trait>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        let (client, timeout) = (self.client.clone(), self.timeout);
        let sent = self.runtime.spawn(async move {
            let (parts, body) = request.into_parts();
            let request = Request::from_parts(parts, Full::new(body));
            let response = tokio::time::timeout(timeout, client.request(request))
                .await
                .map_err(|_| "the OTLP endpoint did not answer in time")??;
            let (parts, body) = response.into_parts();
            let body = tokio::time::timeout(timeout, Limited::new(body, MAX_ANSWER).collect())
                .await
                .map_err(|_| "the OTLP endpoint did not answer in time")??
                .to_bytes();
            Ok::<_, HttpError>(Response::from_parts(parts, body))
        });
        Box::pin(async move { sent.await.map_err(|e| Box::new(e) as HttpError)? })
    }
}
