//! The task store contract, written once: each property is an async fn over any [`TaskStore`],
//! given two handles `a` and `b` (two instances: separately connected stores on a shared
//! backend, or the same store twice where there is only one process). This file: records,
//! expiry, principals, bounds and the compare-and-set write; `flows.rs`: answers, leases,
//! cancelling and a task crossing instances.

use rondo_mcp::protocol::JsonObject;
use rondo_mcp::state::{Clock, SystemClock};
use rondo_mcp::tasks::{
    Lease, Outcome, Renewal, StoreError, TaskId, TaskRecord, TaskStatus, TaskStore,
};
use serde_json::{Value, json};

pub const MAX: usize = 100;

pub fn now() -> u64 {
    SystemClock.now_ms()
}

pub fn obj(v: Value) -> JsonObject {
    v.as_object().cloned().expect("an object")
}

/// A `working` task of `principal` created at `at`, run by instance `i1` for a minute.
pub fn task(principal: Option<&str>, at: u64, ttl: u64) -> TaskRecord {
    let lease = Lease {
        owner: "i1".into(),
        until_ms: at + 60_000,
    };
    TaskRecord::new(principal.map(str::to_owned), "slow", at, ttl, 250, lease)
}

/// The same task parked on the questions `keys`.
pub fn asking(mut r: TaskRecord, keys: &[&str]) -> TaskRecord {
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

pub fn completed(mut r: TaskRecord, text: &str) -> TaskRecord {
    r.status = TaskStatus::Completed;
    r.pending.clear();
    r.outcome = Some(Outcome::Success(
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
