//! Where the responses of a 2025-03-26 JSON-RPC batch go: gathered, and sent as one array once
//! the last of its requests is answered (stdio and HTTP+SSE; Streamable HTTP answers a batch in
//! its POST's response, `http/batch.rs`).

use crate::backchannel::Outbound;
use crate::protocol::{self, Message};
use crate::sync::lock;
use std::sync::{Arc, Mutex};

/// One request's share of a batch's answer. The batch holds one share itself while its
/// entries are read; when the last share is done, the responses gathered go out as one array
/// (nothing, when the batch had no request). A share dropped without [`BatchPart::done`] (a
/// connection that ends) never sends.
pub(crate) struct BatchPart(Arc<BatchAnswer>);

struct BatchAnswer {
    /// Shares not done yet, and the responses so far.
    state: Mutex<(usize, Vec<Message>)>,
    out: Outbound,
}

impl BatchPart {
    /// The batch's own share, for a batch of `entries` whose answer goes to `out`.
    pub(crate) fn new(entries: usize, out: Outbound) -> BatchPart {
        BatchPart(Arc::new(BatchAnswer {
            state: Mutex::new((1, Vec::with_capacity(entries))),
            out,
        }))
    }

    /// Another share of the same batch.
    pub(crate) fn part(&self) -> BatchPart {
        lock(&self.0.state).0 += 1;
        BatchPart(self.0.clone())
    }

    /// This share is done, with its response if it has one.
    pub(crate) async fn done(self, reply: Option<Message>) {
        let all = {
            let mut state = lock(&self.0.state);
            state.1.extend(reply);
            state.0 -= 1;
            (state.0 == 0).then(|| std::mem::take(&mut state.1))
        };
        if let Some(all) = all.filter(|a| !a.is_empty()) {
            self.0.out.send(protocol::batch_answer(&all)).await;
        }
    }
}
