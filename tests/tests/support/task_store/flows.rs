//! The task store contract, continued: answers, leases, cancelling, and a task created on one
//! instance and finished through another.

use super::contract::{MAX, asking, completed, now, obj, task};
use rondo_mcp::protocol::JsonObject;
use rondo_mcp::tasks::{
    LAPSED_MESSAGE, Lease, Outcome, Renewal, TaskRecord, TaskStatus, TaskStore,
};
use serde_json::json;
use std::time::Duration;
pub async fn answers_keep_only_pending_keys<S: TaskStore + ?Sized>(a: &S, b: &S) {
    let t = now();
    let r = asking(task(Some("alice"), t, 60_000), &["a", "b"]);
    a.create(&r, MAX).await.unwrap();
    let first = obj(json!({"a": {"action": "accept", "content": {"n": 1}}, "zzz": {"x": 1}}));
    let out = b
        .add_answers(&r.id, Some("alice"), first, t + 1)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        out.accepted,
        vec!["a".to_owned()],
        "unknown keys are ignored"
    );
    assert!(out.still_pending);
    let now_ = b.get(&r.id, Some("alice"), t + 1).await.unwrap().unwrap();
    assert_eq!(
        now_.status,
        TaskStatus::InputRequired,
        "a partial answer keeps input_required"
    );
    assert_eq!(now_.pending.keys().collect::<Vec<_>>(), ["b"]);
    assert_eq!(now_.last_updated_at_ms, t + 1);
    let second = obj(json!({"a": {"action": "decline"}, "b": {"action": "accept"}}));
    let out = a
        .add_answers(&r.id, Some("alice"), second, t + 2)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        out.accepted,
        vec!["b".to_owned()],
        "an answered key is ignored"
    );
    assert!(!out.still_pending);
    let now_ = b.get(&r.id, Some("alice"), t + 2).await.unwrap().unwrap();
    assert_eq!(
        now_.status,
        TaskStatus::Working,
        "all answered: working again"
    );
    assert!(now_.pending.is_empty());
    assert_eq!(
        now_.answers["a"],
        json!({"action": "accept", "content": {"n": 1}})
    );
    let none = obj(json!({"b": {"action": "accept"}}));
    let out = b
        .add_answers(&r.id, Some("alice"), none, t + 3)
        .await
        .unwrap()
        .unwrap();
    assert!(out.accepted.is_empty());
    let after = b.load(&r.id, t + 3).await.unwrap().unwrap();
    assert_eq!(
        after.version, now_.version,
        "nothing accepted, nothing written"
    );
}

pub async fn answers_are_taken_once<S: TaskStore + ?Sized>(a: &S, b: &S) {
    let t = now();
    let r = asking(task(Some("alice"), t, 60_000), &["a"]);
    a.create(&r, MAX).await.unwrap();
    assert_eq!(
        a.take_answers(&r.id, "i1", t).await.unwrap(),
        Some(JsonObject::new())
    );
    let ans = obj(json!({"a": {"action": "accept"}}));
    b.add_answers(&r.id, Some("alice"), ans.clone(), t)
        .await
        .unwrap();
    assert_eq!(
        a.take_answers(&r.id, "i2", t).await.unwrap(),
        None,
        "not the lease holder"
    );
    let (x, y) = tokio::join!(
        a.take_answers(&r.id, "i1", t),
        b.take_answers(&r.id, "i1", t)
    );
    let (x, y) = (x.unwrap().unwrap(), y.unwrap().unwrap());
    assert!(
        (x == ans && y.is_empty()) || (y == ans && x.is_empty()),
        "taken exactly once: {x:?} / {y:?}"
    );
    assert_eq!(
        a.take_answers(&r.id, "i1", t).await.unwrap(),
        Some(JsonObject::new())
    );
}

pub async fn lapsed_lease_settles_once<S: TaskStore + ?Sized>(a: &S, b: &S) {
    let t = now();
    let mut r = task(Some("alice"), t, 60_000);
    r.lease = Some(Lease {
        owner: "i1".into(),
        until_ms: t + 100,
    });
    a.create(&r, MAX).await.unwrap();
    let held = b.get(&r.id, Some("alice"), t + 100).await.unwrap().unwrap();
    assert_eq!(held.status, TaskStatus::Working, "not lapsed at until_ms");
    assert!(!b.settle_lapsed(&r.id, t + 100).await.unwrap());
    // Lapsed, not yet settled: the late runner cannot bring it back, nor take answers.
    let late = a
        .renew_lease(&r.id, "i1", t + 9_000, t + 101)
        .await
        .unwrap();
    assert_eq!(late, Renewal::Lost, "a lapsed lease never comes back");
    assert_eq!(a.take_answers(&r.id, "i1", t + 101).await.unwrap(), None);
    let (x, y) = tokio::join!(
        a.settle_lapsed(&r.id, t + 101),
        b.settle_lapsed(&r.id, t + 101)
    );
    let (x, y) = (x.unwrap(), y.unwrap());
    assert!(x ^ y, "settled exactly once: a {x}, b {y}");
    let failed = a.get(&r.id, Some("alice"), t + 102).await.unwrap().unwrap();
    assert_eq!(failed.status, TaskStatus::Failed);
    assert_eq!(failed.status_message.as_deref(), Some(LAPSED_MESSAGE));
    match &failed.outcome {
        Some(Outcome::Error(e)) => assert_eq!(e.message, LAPSED_MESSAGE),
        other => panic!("a failed task carries its error: {other:?}"),
    }
    assert_eq!(failed.version, held.version + 1);
    assert_eq!(
        a.renew_lease(&r.id, "i1", t + 9_000, t + 102)
            .await
            .unwrap(),
        Renewal::Lost
    );
    // A reader settles without being asked to; after a cancel request, as cancelled.
    let mut c = task(Some("alice"), t, 60_000);
    c.lease = Some(Lease {
        owner: "i1".into(),
        until_ms: t + 100,
    });
    a.create(&c, MAX).await.unwrap();
    let seen = b.get(&c.id, Some("alice"), t + 50).await.unwrap().unwrap();
    assert!(
        a.put_if(
            &TaskRecord {
                cancel_requested: true,
                ..seen
            },
            1
        )
        .await
        .unwrap()
    );
    let settled = b.get(&c.id, Some("alice"), t + 101).await.unwrap().unwrap();
    assert_eq!(settled.status, TaskStatus::Cancelled);
    assert!(
        !a.settle_lapsed(&c.id, t + 102).await.unwrap(),
        "already settled by the read"
    );
    // Cancelling a task nobody runs any more settles it at once.
    let mut d = task(Some("alice"), t, 60_000);
    d.lease = Some(Lease {
        owner: "i1".into(),
        until_ms: t + 100,
    });
    a.create(&d, MAX).await.unwrap();
    let gone = b
        .request_cancel(&d.id, Some("alice"), t + 101)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(gone.status, TaskStatus::Cancelled);
    assert!(gone.lease.is_none() && gone.pending.is_empty());
}

pub async fn renewal_and_cancel_across_instances<S: TaskStore + ?Sized>(a: &S, b: &S) {
    let t = now();
    let mut r = task(Some("alice"), t, 60_000);
    r.lease = Some(Lease {
        owner: "i1".into(),
        until_ms: t + 100,
    });
    a.create(&r, MAX).await.unwrap();
    let held = Renewal::Held {
        cancel_requested: false,
    };
    assert_eq!(
        a.renew_lease(&r.id, "i1", t + 200, t + 90).await.unwrap(),
        held
    );
    assert_eq!(
        a.renew_lease(&r.id, "i2", t + 300, t + 90).await.unwrap(),
        Renewal::Lost
    );
    // Renewed: not lapsed at 150 any more.
    assert_eq!(
        b.get(&r.id, Some("alice"), t + 150)
            .await
            .unwrap()
            .unwrap()
            .status,
        TaskStatus::Working
    );
    let c1 = b
        .request_cancel(&r.id, Some("alice"), t + 160)
        .await
        .unwrap()
        .unwrap();
    assert!(c1.cancel_requested);
    assert_eq!(
        c1.status,
        TaskStatus::Working,
        "cooperative: the runner settles it"
    );
    let c2 = b
        .request_cancel(&r.id, Some("alice"), t + 161)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(c2, c1, "idempotent");
    let seen = a.renew_lease(&r.id, "i1", t + 400, t + 170).await.unwrap();
    assert_eq!(
        seen,
        Renewal::Held {
            cancel_requested: true
        }
    );
    let mut mine = a.load(&r.id, t + 170).await.unwrap().unwrap();
    mine.status = TaskStatus::Cancelled;
    mine.lease = None;
    assert!(a.put_if(&mine, mine.version).await.unwrap());
    assert_eq!(
        b.get(&r.id, Some("alice"), t + 500)
            .await
            .unwrap()
            .unwrap()
            .status,
        TaskStatus::Cancelled
    );
}

pub async fn created_on_one_answered_and_completed_through_another<S: TaskStore + ?Sized>(
    a: &S,
    b: &S,
) {
    let t = now();
    let r = asking(task(Some("alice"), t, 60_000), &["confirm"]);
    a.create(&r, MAX).await.unwrap();
    // The client polls instance b, which shows the question ...
    let polled = b.get(&r.id, Some("alice"), t + 10).await.unwrap().unwrap();
    assert_eq!(polled.status, TaskStatus::InputRequired);
    assert!(polled.pending.contains_key("confirm"));
    // ... and answers through b (tasks/update).
    let ans = obj(json!({"confirm": {"action": "accept", "content": {"ok": true}}}));
    b.add_answers(&r.id, Some("alice"), ans.clone(), t + 20)
        .await
        .unwrap()
        .unwrap();
    // The running instance a takes the answer, finishes, and writes the result.
    assert_eq!(
        a.take_answers(&r.id, "i1", t + 30).await.unwrap(),
        Some(ans)
    );
    let mine = a.load(&r.id, t + 40).await.unwrap().unwrap();
    assert!(
        a.put_if(&completed(mine.clone(), "deleted"), mine.version)
            .await
            .unwrap()
    );
    let done = b.get(&r.id, Some("alice"), t + 50).await.unwrap().unwrap();
    assert_eq!(done.status, TaskStatus::Completed);
    let Some(Outcome::Success(result)) = done.outcome else {
        panic!("a result")
    };
    assert_eq!(result["content"][0]["text"], "deleted");
}

pub async fn wait_change_returns_within_its_time<S: TaskStore + ?Sized>(a: &S, _b: &S) {
    let t = now();
    let r = task(Some("alice"), t, 60_000);
    a.create(&r, MAX).await.unwrap();
    let started = std::time::Instant::now();
    a.wait_change(&r.id, Duration::from_millis(100)).await;
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// The runner's writes: `park` (pending and asked, `input_required`; a key never twice),
/// `set_status_message` and `settle` (terminal with its outcome, nothing pending), each only
/// by the lease owner, as seen through the other instance.
pub async fn the_runners_writes_need_the_lease<S: TaskStore + ?Sized>(a: &S, b: &S) {
    use rondo_mcp::protocol::Error;
    use rondo_mcp::tasks::Settle;
    let t = now();
    let r = task(None, t, 60_000);
    a.create(&r, MAX).await.unwrap();
    let q = obj(json!({"k1": {"method": "roots/list"}}));
    assert!(
        !a.park(&r.id, "i2", q.clone(), t).await.unwrap(),
        "not the owner"
    );
    assert!(a.park(&r.id, "i1", q.clone(), t).await.unwrap());
    let seen = b.get(&r.id, None, t).await.unwrap().unwrap();
    assert_eq!(seen.status, TaskStatus::InputRequired);
    assert!(seen.pending.contains_key("k1") && seen.asked.contains("k1"));
    // A key asked once is never parked again, even after it was answered.
    b.add_answers(&r.id, None, obj(json!({"k1": {"roots": []}})), t)
        .await
        .unwrap();
    assert!(matches!(
        a.park(&r.id, "i1", q, t).await,
        Err(rondo_mcp::tasks::StoreError::Invalid(_))
    ));
    assert!(
        !a.set_status_message(&r.id, "i2", "x".into(), t)
            .await
            .unwrap()
    );
    assert!(
        a.set_status_message(&r.id, "i1", "half way".into(), t + 1)
            .await
            .unwrap()
    );
    let seen = b.get(&r.id, None, t + 1).await.unwrap().unwrap();
    assert_eq!(seen.status_message.as_deref(), Some("half way"));
    let failed = Settle::Failed(Error::internal("boom"));
    assert!(!a.settle(&r.id, "i2", failed.clone(), t + 2).await.unwrap());
    assert!(a.settle(&r.id, "i1", failed.clone(), t + 2).await.unwrap());
    let seen = b.get(&r.id, None, t + 2).await.unwrap().unwrap();
    assert_eq!(seen.status, TaskStatus::Failed);
    assert_eq!(seen.status_message.as_deref(), Some("boom"));
    assert!(matches!(seen.outcome, Some(Outcome::Error(_))));
    assert!(seen.pending.is_empty() && seen.lease.is_none());
    // Terminal: a second settle changes nothing.
    let done = Settle::Completed(json!({"content": []}));
    assert!(!a.settle(&r.id, "i1", done, t + 3).await.unwrap());
    assert_eq!(
        b.get(&r.id, None, t + 3).await.unwrap().unwrap().status,
        TaskStatus::Failed
    );
    let c = task(None, t, 60_000);
    a.create(&c, MAX).await.unwrap();
    assert!(b.settle(&c.id, "i1", Settle::Cancelled, t).await.unwrap());
    let seen = a.get(&c.id, None, t).await.unwrap().unwrap();
    assert_eq!((seen.status, seen.outcome), (TaskStatus::Cancelled, None));
}

/// `withdraw`: the questions the tool dropped leave `pending` (and an answer not yet taken with
/// them), stay asked, so a late answer is ignored and the key is never parked again; the last
/// one withdrawn makes the task `working`; only the lease owner may.
pub async fn withdrawn_questions_leave_and_their_keys_stay_asked<S: TaskStore + ?Sized>(
    a: &S,
    b: &S,
) {
    let t = now();
    let r = asking(task(None, t, 60_000), &["a", "b"]);
    a.create(&r, MAX).await.unwrap();
    let keys = |k: &[&str]| k.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    assert!(
        !a.withdraw(&r.id, "i2", keys(&["a"]), t).await.unwrap(),
        "not the owner"
    );
    b.add_answers(&r.id, None, obj(json!({"b": {"action": "accept"}})), t + 1)
        .await
        .unwrap();
    assert!(
        a.withdraw(&r.id, "i1", keys(&["a", "b"]), t + 2)
            .await
            .unwrap()
    );
    let seen = b.get(&r.id, None, t + 2).await.unwrap().unwrap();
    assert_eq!(seen.status, TaskStatus::Working, "nothing left pending");
    assert!(
        seen.pending.is_empty() && seen.answers.is_empty(),
        "{seen:?}"
    );
    assert!(seen.asked.contains("a") && seen.asked.contains("b"));
    assert_eq!(seen.last_updated_at_ms, t + 2);
    let late = b
        .add_answers(&r.id, None, obj(json!({"a": {"action": "accept"}})), t + 3)
        .await
        .unwrap()
        .unwrap();
    assert!(late.accepted.is_empty(), "a late answer is ignored");
    assert!(matches!(
        a.park(
            &r.id,
            "i1",
            obj(json!({"a": {"method": "roots/list"}})),
            t + 4
        )
        .await,
        Err(rondo_mcp::tasks::StoreError::Invalid(_))
    ));
    // Withdrawing what is no longer pending writes nothing.
    let before = b.load(&r.id, t + 4).await.unwrap().unwrap();
    assert!(a.withdraw(&r.id, "i1", keys(&["a"]), t + 5).await.unwrap());
    assert_eq!(
        b.load(&r.id, t + 5).await.unwrap().unwrap().version,
        before.version
    );
}
