//! What a server logs, captured in tests: [`Captured`], the text a `fmt` subscriber writes,
//! and [`Events`], the structured `rondo::*` events (target, message and fields).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex, Once};
use tracing::field::{Field, Visit};
use tracing::subscriber::Interest;
use tracing::{Metadata, Subscriber};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};

/// The text a `fmt` subscriber writes, kept in memory: install
/// [`Captured::subscriber`] with `tracing::subscriber::set_default` on the test's thread
/// (`#[tokio::test]` runs the server's tasks there, so they log into it).
#[derive(Clone, Default)]
pub struct Captured(Arc<Mutex<Vec<u8>>>);

impl Captured {
    /// A `fmt` subscriber at `level` and above, without colours, writing here.
    pub fn subscriber(&self, level: tracing::Level) -> impl Subscriber + Send + Sync + 'static {
        let writer = self.clone();
        tracing_subscriber::fmt()
            .with_max_level(level)
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish()
    }

    /// What was written so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One structured event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Its target (`rondo::question`, ...).
    pub target: String,
    /// Its message.
    pub message: String,
    /// Its other fields, each as it would be printed (strings without quotes).
    pub fields: BTreeMap<String, String>,
}

impl Event {
    /// The field `name`, if the event has it.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(String::as_str)
    }
}

thread_local! {
    static RECORDING: RefCell<Option<Arc<Mutex<Vec<Event>>>>> = const { RefCell::new(None) };
}

/// The `rondo::*` events emitted on this thread while it lives (`#[tokio::test]` runs the
/// server's tasks on the test's thread).
///
/// It records through one process-wide subscriber, installed the first time, that is
/// interested in every `rondo::*` event and no other: `tracing` caches per call site, for the
/// whole process, whether any subscriber listens, so a thread-local subscriber in a binary
/// whose other tests run at the same time can miss events now and then. A test binary that
/// uses it must not install a global subscriber of its own.
pub struct Events(Arc<Mutex<Vec<Event>>>);

impl Events {
    /// Starts recording on this thread.
    pub fn record() -> Events {
        static INSTALL: Once = Once::new();
        INSTALL.call_once(|| {
            let subscriber = tracing_subscriber::registry().with(Recorder);
            tracing::subscriber::set_global_default(subscriber)
                .expect("no other global subscriber in a binary that records events");
        });
        let events = Arc::new(Mutex::new(Vec::new()));
        RECORDING.with(|r| *r.borrow_mut() = Some(events.clone()));
        Events(events)
    }

    /// The events recorded so far, taken (the next call returns only later ones).
    pub fn take(&self) -> Vec<Event> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

impl Drop for Events {
    fn drop(&mut self) {
        RECORDING.with(|r| r.borrow_mut().take());
    }
}

struct Recorder;

fn ours(meta: &Metadata<'_>) -> bool {
    meta.target() == "rondo" || meta.target().starts_with("rondo::")
}

impl<S: Subscriber> Layer<S> for Recorder {
    fn register_callsite(&self, meta: &'static Metadata<'static>) -> Interest {
        if ours(meta) && meta.is_event() {
            Interest::always()
        } else {
            Interest::never()
        }
    }

    fn enabled(&self, meta: &Metadata<'_>, _: Context<'_, S>) -> bool {
        ours(meta) && meta.is_event()
    }

    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        let Some(sink) = RECORDING.with(|r| r.borrow().clone()) else {
            return;
        };
        let mut visit = Fields::default();
        event.record(&mut visit);
        let message = visit.0.remove("message").unwrap_or_default();
        sink.lock().unwrap().push(Event {
            target: event.metadata().target().to_owned(),
            message,
            fields: visit.0,
        });
    }
}

#[derive(Default)]
struct Fields(BTreeMap<String, String>);

impl Visit for Fields {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}
