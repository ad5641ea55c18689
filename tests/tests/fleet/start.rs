//! What a server of a fleet says at start: a Redis that cannot be reached is an error naming the
//! URL without its password, and a key ring with the state in this process's memory is warned
//! about once.

use super::shop::*;
use rondo_mcp::prelude::*;
use rondo_mcp::state::KeyRing;
use rondo_tests::logs::Events;

#[tokio::test]
async fn a_redis_that_cannot_be_reached_at_start_is_an_error_naming_the_url_without_its_password() {
    let e = rondo_mcp::shared::Redis::connect("redis://app:s3cret@127.0.0.1:1/0")
        .await
        .unwrap_err();
    let shown = e.to_string();
    assert!(
        shown.starts_with("cannot reach Redis at redis://***:***@127.0.0.1:1/0: "),
        "{shown}"
    );
    assert!(!shown.contains("s3cret"), "{shown}");
    // A password with an unencoded `/` does not parse as the URL it was meant to be: not shown.
    let e = rondo_mcp::shared::Redis::connect("redis://:sl/ashS3cret@127.0.0.1:1/0")
        .await
        .unwrap_err();
    assert!(
        e.to_string().starts_with(
            "cannot reach Redis at (a URL that does not parse, not shown: it may hold a password): "
        ) && !e.to_string().contains("ash"),
        "{e}"
    );
}

#[tokio::test]
async fn a_server_with_a_key_ring_and_its_state_in_memory_warns_once_at_start() {
    let events = Events::record();
    let keys = KeyRing::parse(&KeyRing::generate_spec(1)).unwrap();
    let shop = Shop::default();
    // Connected and served a request: the server has started.
    let client = async |s: Server<Router>| {
        let c = client(s).await;
        c.list_tools().await.expect("lists");
        c
    };
    let warned = |events: &Events| {
        events
            .take()
            .into_iter()
            .filter(|e| e.target == "rondo::fleet")
            .collect::<Vec<_>>()
    };
    // A random key: one process, nothing to warn about.
    let _c = client(server(&shop)).await;
    assert!(warned(&events).is_empty());
    // A key ring given, the guard in memory: warned once, however often it serves.
    let s = server(&shop).state_keys(keys.clone());
    let (_a, _b) = (client(s.clone()).await, client(s).await);
    let w = warned(&events);
    assert_eq!(w.len(), 1, "{w:?}");
    let m = &w[0].message;
    assert!(
        m.contains(
            "its replay guard and its effect ledger (Cx::once) are in this process's memory"
        ) && m.contains("a round replayed on another instance, or after a restart, is not refused")
            && m.contains("Server::shared_state(rondo_mcp::shared::Redis::connect(url).await?)")
            && m.contains("--redis URL or RONDO_REDIS_URL"),
        "{m}"
    );
    // A shared guard, but the ledger still in memory: named alone.
    let s = server(&shop)
        .state_keys(keys.clone())
        .replay_guard(NeverSeen);
    let _c = client(s).await;
    let w = warned(&events);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].message
            .contains("but its effect ledger (Cx::once) is in"),
        "{w:?}"
    );
    // Both shared: no warning.
    let s = server(&shop)
        .state_keys(keys)
        .shared_state(rondo_mcp::shared::SharedState::new(
            NeverSeen,
            rondo_mcp::tasks::MemoryTaskStore::default(),
            Ledger::default(),
        ));
    let _c = client(s).await;
    assert!(warned(&events).is_empty());
}

/// A guard of the application's own (the test's: it never refuses).
#[derive(Default)]
struct NeverSeen;

impl rondo_mcp::state::ReplayGuard for NeverSeen {
    async fn take(
        &self,
        _: &str,
        _: &str,
        _: std::time::SystemTime,
        _: std::time::SystemTime,
    ) -> Result<rondo_mcp::state::RoundUse, rondo_mcp::state::GuardError> {
        Ok(rondo_mcp::state::RoundUse::First)
    }
}

/// A ledger of the application's own: the memory one behind a new type, so the server cannot
/// tell it is local.
#[derive(Default)]
struct Ledger(rondo_mcp::state::MemoryLedger);

impl rondo_mcp::state::Ledger for Ledger {
    async fn claim(
        &self,
        key: &str,
        claimant: &str,
        expires_at: std::time::SystemTime,
        now: std::time::SystemTime,
    ) -> Result<rondo_mcp::state::Claim, rondo_mcp::state::LedgerError> {
        self.0.claim(key, claimant, expires_at, now).await
    }
    async fn record(
        &self,
        key: &str,
        claimant: &str,
        outcome: &str,
    ) -> Result<(), rondo_mcp::state::LedgerError> {
        self.0.record(key, claimant, outcome).await
    }
    async fn release(
        &self,
        key: &str,
        claimant: &str,
    ) -> Result<(), rondo_mcp::state::LedgerError> {
        self.0.release(key, claimant).await
    }
    async fn extend(
        &self,
        key: &str,
        until: std::time::SystemTime,
    ) -> Result<(), rondo_mcp::state::LedgerError> {
        self.0.extend(key, until).await
    }
}
