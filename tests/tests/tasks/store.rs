//! The task store contract (`support/task_store/contract.rs`, `flows.rs`), run against every
//! store:
//! `MemoryTaskStore` (both handles are the one store), the same through the erased
//! `dyn ErasedTaskStore`, and `RedisTaskStore` (feature `redis`: two separately connected
//! stores on a `redis-server` the test starts) , plus what is Redis's own: keys leaving at
//! their expiry, prefixes, and `RedisReplayGuard`.

use crate::support::task_store::Pair;
use rondo_mcp::tasks::{ErasedTaskStore, MemoryTaskStore};
use std::sync::Arc;

/// One `#[tokio::test]` per property, each on a fresh pair from `$pair` (which may give
/// `None`: the backend is not available here, and it said so).
macro_rules! contract_tests {
    ($pair:path) => {
        contract_tests!(@each $pair;
            round_trip,
            expiry_never_before_ttl,
            another_principal_sees_an_unknown_task,
            per_principal_bound,
            cas_two_racing_writers_one_wins,
            terminal_never_changes,
            records_that_break_a_rule_are_refused,
            answers_keep_only_pending_keys,
            answers_are_taken_once,
            lapsed_lease_settles_once,
            renewal_and_cancel_across_instances,
            created_on_one_answered_and_completed_through_another,
            wait_change_returns_within_its_time,
            the_runners_writes_need_the_lease,
            withdrawn_questions_leave_and_their_keys_stay_asked,
        );
    };
    (@each $pair:path; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let Some(p) = $pair().await else { return };
                crate::support::task_store::props::$name(&*p.a, &*p.b).await;
            }
        )*
    };
}

async fn memory() -> Option<Pair<MemoryTaskStore>> {
    let store = Arc::new(MemoryTaskStore::default());
    Some(Pair {
        a: store.clone(),
        b: store,
        keep: Box::new(()),
    })
}

async fn erased() -> Option<Pair<dyn ErasedTaskStore>> {
    let store: Arc<dyn ErasedTaskStore> = Arc::new(MemoryTaskStore::default());
    Some(Pair {
        a: store.clone(),
        b: store,
        keep: Box::new(()),
    })
}

mod memory {
    contract_tests!(super::memory);
}

mod erased {
    contract_tests!(super::erased);
}

#[cfg(feature = "redis")]
mod redis {
    use crate::support::redis_server::RedisServer;
    use crate::support::task_store::Pair;
    use rondo_mcp::shared::{RedisReplayGuard, RedisTaskStore};
    use rondo_mcp::state::{Clock, ReplayGuard, RoundUse, SystemClock};
    use rondo_mcp::tasks::{Lease, StoreError, TaskRecord, TaskStore};
    use std::sync::Arc;
    use std::time::{Duration, SystemTime};

    /// Two stores, each on its own connection, on a fresh `redis-server`.
    async fn pair() -> Option<Pair<RedisTaskStore>> {
        let server = RedisServer::start()?;
        let a = RedisTaskStore::connect(&server.url()).await.unwrap();
        let b = RedisTaskStore::connect(&server.url()).await.unwrap();
        Some(Pair {
            a: Arc::new(a),
            b: Arc::new(b),
            keep: Box::new(server),
        })
    }

    contract_tests!(pair);

    fn task(now: u64, ttl: u64) -> TaskRecord {
        let lease = Lease {
            owner: "i1".into(),
            until_ms: now + 60_000,
        };
        TaskRecord::new(Some("alice".into()), "slow", now, ttl, 250, lease)
    }

    #[tokio::test]
    async fn keys_leave_redis_after_ttl_plus_skew() {
        let Some(server) = RedisServer::start() else {
            return;
        };
        let now = SystemClock.now_ms();
        let exact = RedisTaskStore::connect(&server.url())
            .await
            .unwrap()
            .with_skew(Duration::ZERO);
        let skewed = RedisTaskStore::connect(&server.url()).await.unwrap();
        let (short, kept) = (task(now, 300), task(now, 300));
        exact.create(&short, 10).await.unwrap();
        skewed.create(&kept, 10).await.unwrap();
        assert!(exact.load(&short.id, 0).await.unwrap().is_some());
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert_eq!(
            exact.load(&short.id, 0).await.unwrap(),
            None,
            "Redis dropped the key at created+ttl"
        );
        // With the default 30 s skew the key is still there, but no reader sees it after ttl.
        assert!(
            skewed.load(&kept.id, 0).await.unwrap().is_some(),
            "kept for the skew margin"
        );
        let late = SystemClock.now_ms();
        assert_eq!(
            skewed.get(&kept.id, Some("alice"), late).await.unwrap(),
            None
        );
    }

    #[tokio::test]
    async fn prefixes_keep_fleets_apart() {
        let Some(server) = RedisServer::start() else {
            return;
        };
        let now = SystemClock.now_ms();
        let one = RedisTaskStore::connect(&server.url()).await.unwrap();
        let two = RedisTaskStore::connect(&server.url())
            .await
            .unwrap()
            .with_prefix("other:");
        let r = task(now, 60_000);
        one.create(&r, 1).await.unwrap();
        assert_eq!(two.get(&r.id, Some("alice"), now).await.unwrap(), None);
        // Each prefix counts its own tasks against the bound.
        two.create(&task(now, 60_000), 1).await.unwrap();
        assert_eq!(
            one.create(&task(now, 60_000), 1).await,
            Err(StoreError::Full { max: 1 })
        );
    }

    #[tokio::test]
    async fn a_stopped_redis_is_an_error_not_a_hang() {
        let Some(server) = RedisServer::start() else {
            return;
        };
        let now = SystemClock.now_ms();
        let store = RedisTaskStore::connect(&server.url()).await.unwrap();
        let r = task(now, 60_000);
        store.create(&r, 10).await.unwrap();
        drop(server);
        let got = tokio::time::timeout(
            Duration::from_secs(10),
            store.get(&r.id, Some("alice"), now),
        )
        .await
        .expect("answers within the client's timeouts");
        assert!(
            matches!(got, Err(StoreError::Unavailable(ref m)) if m.starts_with("Redis")),
            "{got:?}"
        );
    }

    #[tokio::test]
    async fn replay_guard_takes_each_round_once_across_connections() {
        let Some(server) = RedisServer::start() else {
            return;
        };
        let one = RedisReplayGuard::connect(&server.url()).await.unwrap();
        let two = RedisReplayGuard::connect(&server.url()).await.unwrap();
        let now = SystemTime::now();
        let later = now + Duration::from_secs(600);
        assert_eq!(
            one.take("flow.1", "yes", later, now).await,
            Ok(RoundUse::First)
        );
        assert_eq!(
            two.take("flow.1", "no", later, now).await,
            Ok(RoundUse::Other),
            "replayed on another instance with other answers"
        );
        assert_eq!(
            two.take("flow.1", "yes", later, now).await,
            Ok(RoundUse::Again),
            "the same round sent again, on another instance"
        );
        assert_eq!(
            one.take("flow.1", "no", later, now).await,
            Ok(RoundUse::Other)
        );
        assert_eq!(
            two.take("flow.2", "no", later, now).await,
            Ok(RoundUse::First)
        );
        // Forgotten once the state (plus the skew) has expired: it is refused as expired then.
        let exact = RedisReplayGuard::connect(&server.url())
            .await
            .unwrap()
            .with_skew(Duration::ZERO);
        let soon = now + Duration::from_millis(300);
        assert_eq!(
            exact.take("flow.3", "a", soon, now).await,
            Ok(RoundUse::First)
        );
        assert_eq!(
            exact.take("flow.3", "b", soon, now).await,
            Ok(RoundUse::Other)
        );
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert_eq!(
            exact.take("flow.3", "b", soon, SystemTime::now()).await,
            Ok(RoundUse::First)
        );
    }
}
