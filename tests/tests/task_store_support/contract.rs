//! The task store contract, written once: each property is an async fn over any [`TaskStore`],
//! given two handles `a` and `b` (two instances: separately connected stores on a shared
//! backend, or the same store twice where there is only one process).

use rondo_mcp::protocol::JsonObject;
use rondo_mcp::state::{Clock, SystemClock};
use rondo_mcp::tasks::{
    LAPSED_MESSAGE, Lease, Outcome, Renewal, StoreError, TaskId, TaskRecord, TaskStatus, TaskStore,
};
use serde_json::{Value, json};
use std::time::Duration;

const MAX: usize = 100;

fn now() -> u64 {
    SystemClock.now_ms()
}

fn obj(v: Value) -> JsonObject {
    v.as_object().cloned().expect("an object")
}

/// A `working` task of `principal` created at `at`, run by instance `i1` for a minute.
fn task(principal: Option<&str>, at: u64, ttl: u64) -> TaskRecord {
    let lease = Lease {
        owner: "i1".into(),
        until_ms: at + 60_000,
    };
    TaskRecord::new(principal.map(str::to_owned), "slow", at, ttl, 250, lease)
}

/// The same task parked on the questions `keys`.
fn asking(mut r: TaskRecord, keys: &[&str]) -> TaskRecord {
    r.status = TaskStatus::InputRequired;
    for k in keys {
        r.asked.insert((*k).to_owned());
        r.pending.insert(
            (*k).to_owned(),
            json!({"method": "elicitation/create", "params": {"k": k}}),
        );
    }
    r
}

fn completed(mut r: TaskRecord, text: &str) -> TaskRecord {
    r.status = TaskStatus::Completed;
    r.pending.clear();
    r.outcome = Some(Outcome::Result(
        json!({"content": [{"type": "text", "text": text}]}),
    ));
    r
}

pub async fn round_trip<S: TaskStore + ?Sized>(a: &S, b: &S) {
    let t = now();
    let r = asking(task(Some("alice"), t, 60_000), &["q1"]);
    a.create(&r, MAX).await.unwrap();
    let got = b.get(&r.id, Some("alice"), t + 1).await.unwrap();
    assert_eq!(
        got.as_ref(),
        Some(&r),
        "read through the other instance as written"
    );
    assert_eq!(b.load(&r.id, t + 1).await.unwrap(), got);
    assert_eq!(r.version, 1);
    assert_eq!(TaskId::parse(r.id.as_str()), Some(r.id.clone()));
    let unknown = TaskId::random();
    assert_ne!(unknown, r.id);
    assert_eq!(b.get(&unknown, Some("alice"), t).await.unwrap(), None);
    assert_eq!(a.create(&r, MAX).await, Err(StoreError::Exists));
}

pub async fn expiry_never_before_ttl<S: TaskStore + ?Sized>(a: &S, b: &S) {
    let t = now();
    let r = asking(task(Some("alice"), t, 1_000), &["q"]);
    a.create(&r, MAX).await.unwrap();
    let end = t + 1_000;
    assert!(
        b.get(&r.id, Some("alice"), end).await.unwrap().is_some(),
        "kept at created+ttl"
    );
    assert_eq!(
        b.get(&r.id, Some("alice"), end + 1).await.unwrap(),
        None,
        "gone after"
    );
    assert_eq!(b.load(&r.id, end + 1).await.unwrap(), None);
    let answers = obj(json!({"q": {"action": "accept"}}));
    assert_eq!(
        b.add_answers(&r.id, Some("alice"), answers, end + 1)
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        b.request_cancel(&r.id, Some("alice"), end + 1)
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        a.renew_lease(&r.id, "i1", end + 9_000, end + 1)
            .await
            .unwrap(),
        Renewal::Lost
    );
}

pub async fn another_principal_sees_an_unknown_task<S: TaskStore + ?Sized>(a: &S, b: &S) {
    let t = now();
    let r = asking(task(Some("alice"), t, 60_000), &["q"]);
    a.create(&r, MAX).await.unwrap();
    let unknown = TaskId::random();
    for who in [Some("bob"), None, Some("alice ")] {
        assert_eq!(b.get(&r.id, who, t).await.unwrap(), None, "{who:?}");
        assert_eq!(b.get(&unknown, who, t).await.unwrap(), None);
        let answers = obj(json!({"q": {"action": "accept"}}));
        assert_eq!(b.add_answers(&r.id, who, answers, t).await.unwrap(), None);
        assert_eq!(b.request_cancel(&r.id, who, t).await.unwrap(), None);
    }
    let still = a.get(&r.id, Some("alice"), t).await.unwrap().unwrap();
    assert_eq!(still, r, "nothing a stranger sent changed it");
    // A principal-less task is seen only by principal-less requests.
    let anon = task(None, t, 60_000);
    a.create(&anon, MAX).await.unwrap();
    assert_eq!(b.get(&anon.id, Some("alice"), t).await.unwrap(), None);
    assert_eq!(b.get(&anon.id, None, t).await.unwrap(), Some(anon));
}

pub async fn per_principal_bound<S: TaskStore + ?Sized>(a: &S, b: &S) {
    let t = now();
    let first = task(Some("alice"), t, 1_000);
    a.create(&first, 2).await.unwrap();
    b.create(&task(Some("alice"), t, 60_000), 2).await.unwrap();
    let err = b
        .create(&task(Some("alice"), t + 10, 60_000), 2)
        .await
        .unwrap_err();
    assert_eq!(err, StoreError::Full { max: 2 });
    assert!(err.to_string().contains("You hold 2 tasks"), "{err}");
    // Terminal tasks still count: they are held until they expire.
    let done = completed(first.clone(), "ok");
    assert!(a.put_if(&done, 1).await.unwrap());
    assert!(matches!(
        a.create(&task(Some("alice"), t + 20, 60_000), 2).await,
        Err(StoreError::Full { .. })
    ));
    b.create(&task(Some("bob"), t, 60_000), 2).await.unwrap();
    b.create(&task(None, t, 60_000), 2).await.unwrap();
    // Once the first has expired it no longer counts.
    a.create(&task(Some("alice"), t + 1_001, 60_000), 2)
        .await
        .unwrap();
}

pub async fn cas_two_racing_writers_one_wins<S: TaskStore + ?Sized>(a: &S, b: &S) {
    let t = now();
    let r = task(Some("alice"), t, 60_000);
    a.create(&r, MAX).await.unwrap();
    let mut one = a.load(&r.id, t).await.unwrap().unwrap();
    let mut two = b.load(&r.id, t).await.unwrap().unwrap();
    one.status_message = Some("from a".into());
    two.status_message = Some("from b".into());
    let (wa, wb) = tokio::join!(a.put_if(&one, 1), b.put_if(&two, 1));
    let (wa, wb) = (wa.unwrap(), wb.unwrap());
    assert!(wa ^ wb, "exactly one wins: a {wa}, b {wb}");
    let stored = b.load(&r.id, t).await.unwrap().unwrap();
    assert_eq!(stored.version, 2);
    let winner = if wa { "from a" } else { "from b" };
    assert_eq!(stored.status_message.as_deref(), Some(winner));
    assert!(
        !a.put_if(&one, 1).await.unwrap(),
        "a stale version never writes"
    );
    assert!(a.put_if(&stored, 2).await.unwrap());
    assert_eq!(b.load(&r.id, t).await.unwrap().unwrap().version, 3);
}

pub async fn terminal_never_changes<S: TaskStore + ?Sized>(a: &S, b: &S) {
    let t = now();
    let r = asking(task(Some("alice"), t, 120_000), &["q"]); // outlives its lease
    a.create(&r, MAX).await.unwrap();
    assert!(a.put_if(&completed(r.clone(), "done"), 1).await.unwrap());
    let done = b.get(&r.id, Some("alice"), t).await.unwrap().unwrap();
    assert_eq!(done.status, TaskStatus::Completed);
    let mut back = done.clone();
    back.status = TaskStatus::Working;
    back.outcome = None;
    assert!(
        !b.put_if(&back, done.version).await.unwrap(),
        "completed stays completed"
    );
    assert!(
        !b.put_if(&completed(done.clone(), "other"), done.version)
            .await
            .unwrap()
    );
    let cancelled = b.request_cancel(&r.id, Some("alice"), t + 1).await.unwrap();
    assert_eq!(
        cancelled.as_ref(),
        Some(&done),
        "cancel leaves a terminal task as it is"
    );
    let answers = obj(json!({"q": {"action": "accept"}}));
    let added = b
        .add_answers(&r.id, Some("alice"), answers, t + 1)
        .await
        .unwrap()
        .unwrap();
    assert!(added.accepted.is_empty());
    assert_eq!(
        a.renew_lease(&r.id, "i1", t + 90_000, t + 1).await.unwrap(),
        Renewal::Lost
    );
    assert_eq!(a.take_answers(&r.id, "i1", t + 1).await.unwrap(), None);
    assert!(!b.settle_lapsed(&r.id, t + 61_000).await.unwrap());
    assert_eq!(
        b.get(&r.id, Some("alice"), t + 61_000).await.unwrap(),
        Some(done)
    );
}

pub async fn records_that_break_a_rule_are_refused<S: TaskStore + ?Sized>(a: &S, _b: &S) {
    let t = now();
    let r = asking(task(Some("alice"), t, 60_000), &["q1"]);
    a.create(&r, MAX).await.unwrap();
    // q1 answered and taken, then asked again: keys are never reused within a task.
    let mut again = r.clone();
    again.pending.clear();
    assert!(a.put_if(&again, 1).await.unwrap());
    again.pending.insert("q1".into(), json!({}));
    assert!(
        matches!(a.put_if(&again, 2).await, Err(StoreError::Invalid(m)) if m.contains("never reused"))
    );
    let mut forgot = again.clone();
    forgot.pending.clear();
    forgot.asked.clear();
    assert!(matches!(
        a.put_if(&forgot, 2).await,
        Err(StoreError::Invalid(_))
    ));
    let mut moved = forgot.clone();
    moved.asked.insert("q1".into());
    moved.principal = Some("mallory".into());
    assert!(matches!(
        a.put_if(&moved, 2).await,
        Err(StoreError::Invalid(_))
    ));
    let mut no_result = moved.clone();
    no_result.principal = Some("alice".into());
    no_result.status = TaskStatus::Completed;
    assert!(matches!(
        a.put_if(&no_result, 2).await,
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(
        a.load(&r.id, t).await.unwrap().unwrap().version,
        2,
        "none was written"
    );
    let bad = asking(task(Some("alice"), t, 60_000), &["x"]);
    let mut bad = bad;
    bad.asked.clear();
    assert!(matches!(
        a.create(&bad, MAX).await,
        Err(StoreError::Invalid(_))
    ));
}

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
    let Some(Outcome::Result(result)) = done.outcome else {
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
