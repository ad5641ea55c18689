use super::*;

const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

fn parent_of(traceparent: &str) -> Context {
    extract(&TraceMeta {
        traceparent: Some(traceparent.to_owned()),
        ..TraceMeta::default()
    })
}

#[test]
fn a_well_formed_traceparent_is_a_remote_parent() {
    let cx = parent_of(PARENT);
    let sc = cx.span().span_context().clone();
    assert!(sc.is_valid() && sc.is_remote() && sc.is_sampled());
    assert_eq!(
        sc.trace_id().to_string(),
        "4bf92f3577b34da6a3ce929d0e0e4736"
    );
    assert_eq!(sc.span_id().to_string(), "00f067aa0ba902b7");
}

/// W3C Trace Context § 3.2.2: non-hex digits, an all-zero trace or parent id, the version
/// `ff`, a version-00 header of the wrong length, upper-case hex: none is a parent.
#[test]
fn malformed_traceparents_are_no_parent() {
    for bad in [
        "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01",
        "zz",
        "",
    ] {
        let cx = parent_of(bad);
        assert!(!cx.span().span_context().is_valid(), "{bad} was taken");
    }
}

#[test]
fn baggage_comes_with_the_parent() {
    let cx = extract(&TraceMeta {
        traceparent: Some(PARENT.to_owned()),
        tracestate: Some("rojo=00f067aa0ba902b7".to_owned()),
        baggage: Some("user=alice,node=DF%2028".to_owned()),
    });
    assert_eq!(
        cx.baggage().get("node").map(|v| v.to_string()),
        Some("DF 28".to_owned())
    );
    let state = cx.span().span_context().trace_state().clone();
    assert_eq!(state.get("rojo"), Some("00f067aa0ba902b7"));
}

#[test]
fn without_an_opentelemetry_span_nothing_is_injected_or_carried() {
    let params = Some(serde_json::json!({"message": "hi"}));
    assert_eq!(inject(params.clone()), params);
    assert_eq!(carried(), None);
}
