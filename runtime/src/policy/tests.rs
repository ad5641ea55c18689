use super::rule::lenient_version;
use super::*;
use crate::protocol::{ElicitationCapability, JsonObject, SamplingCapability};
use serde_json::{Value, json};
use std::ffi::OsString;

fn caps(v: Value) -> ClientCapabilities {
    serde_json::from_value(v).expect("capabilities")
}

fn host(name: &str, version: &str) -> Implementation {
    Implementation::new(name, version)
}

fn set(list: &[Capability]) -> CapSet {
    list.iter().fold(CapSet::EMPTY, |s, c| s.with(*c))
}

/// `caps` after `rule` (matching "H" 1.0.0), and what the policy reports removed.
fn after(rule: ClientRule, declared: Value) -> (Value, CapSet) {
    let mut c = caps(declared);
    let removed = ClientPolicy::new()
        .rule(rule)
        .apply(Some(&host("H", "1.0.0")), &mut c);
    (serde_json::to_value(&c).unwrap(), removed)
}

/// Every key of `small` is in `big` with the same value, recursively in objects.
fn is_subset(small: &Value, big: &Value) -> bool {
    match (small, big) {
        (Value::Object(s), Value::Object(b)) => s
            .iter()
            .all(|(k, v)| b.get(k).is_some_and(|bv| is_subset(v, bv))),
        _ => small == big,
    }
}

/// Every shape of the three capabilities a rule touches.
fn every_declaration() -> Vec<ClientCapabilities> {
    let obj = || Some(JsonObject::new());
    let elicitations = [
        None,
        Some(ElicitationCapability::default()),
        Some(ElicitationCapability {
            form: obj(),
            url: None,
        }),
        Some(ElicitationCapability {
            form: None,
            url: obj(),
        }),
        Some(ElicitationCapability {
            form: obj(),
            url: obj(),
        }),
    ];
    let samplings = [
        None,
        Some(SamplingCapability::default()),
        Some(SamplingCapability {
            context: None,
            tools: obj(),
        }),
    ];
    let mut out = Vec::new();
    for e in &elicitations {
        for s in &samplings {
            for r in [None, obj()] {
                out.push(ClientCapabilities {
                    elicitation: e.clone(),
                    sampling: s.clone(),
                    roots: r,
                    ..Default::default()
                });
            }
        }
    }
    out
}

/// What a removal list takes away, down to the mode.
fn targets(remove: CapSet) -> CapSet {
    use Capability::*;
    let mut t = CapSet::EMPTY;
    for c in remove.iter() {
        t = t.union(match c {
            Elicitation => set(&[Elicitation, ElicitationForm, ElicitationUrl]),
            Sampling => set(&[Sampling, SamplingTools]),
            other => set(&[other]),
        });
    }
    t
}

#[test]
fn narrowing_removes_exactly_what_it_names_and_never_widens() {
    let mut cases = 0;
    for declared in every_declaration() {
        for bits in 0u8..64 {
            let remove = CapSet(bits);
            let mut narrowed = declared.clone();
            narrow(&mut narrowed, remove);
            let (before, now) = (CapSet::declared(&declared), CapSet::declared(&narrowed));
            // Never widens: the JSON and the capabilities read from it only lose.
            let (b, a) = (
                serde_json::to_value(&declared).unwrap(),
                serde_json::to_value(&narrowed).unwrap(),
            );
            assert!(is_subset(&a, &b), "{a} from {b} removing {remove}");
            assert!(now.minus(before).is_empty(), "{a} from {b}");
            // Exactly what was named is gone; elicitation stays while a mode does.
            let mut expected = before.minus(targets(remove));
            let modes = set(&[Capability::ElicitationForm, Capability::ElicitationUrl]);
            if modes.minus(modes.minus(expected)).is_empty() {
                expected = expected.minus(set(&[Capability::Elicitation]));
            }
            assert_eq!(now, expected, "{a} from {b} removing {remove}");
            cases += 1;
        }
    }
    assert_eq!(cases, 30 * 64);
}

#[test]
fn empty_elicitation_means_forms_only() {
    let rule = || ClientRule::named("H");
    let empty = json!({"elicitation": {}});
    let form = Capability::ElicitationForm;
    let (a, removed) = after(rule().remove(form), empty.clone());
    assert_eq!(
        a,
        json!({}),
        "removing forms from `{{}}` removes elicitation"
    );
    assert_eq!(removed, set(&[Capability::Elicitation, form]));
    let (a, removed) = after(rule().remove(Capability::ElicitationUrl), empty.clone());
    assert_eq!(
        (a, removed),
        (empty, CapSet::EMPTY),
        "URL mode was never declared"
    );
    // URL only: removing it must not leave `{}`, which would mean forms.
    let (a, _) = after(
        rule().remove(Capability::ElicitationUrl),
        json!({"elicitation": {"url": {}}}),
    );
    assert_eq!(a, json!({}));
    let (a, removed) = after(
        rule().remove(form),
        json!({"elicitation": {"form": {}, "url": {}}}),
    );
    assert_eq!(a, json!({"elicitation": {"url": {}}}));
    assert_eq!(removed, set(&[form]));
    // What is left keeps its unknown sub-fields.
    let (a, _) = after(
        rule().remove(Capability::ElicitationUrl),
        json!({"elicitation": {"form": {"x": 1}, "url": {}}, "roots": {"listChanged": true}}),
    );
    assert_eq!(
        a,
        json!({"elicitation": {"form": {"x": 1}}, "roots": {"listChanged": true}})
    );
}

#[test]
fn sampling_tools_leaves_plain_sampling() {
    let (a, removed) = after(
        ClientRule::named("H").remove(Capability::SamplingTools),
        json!({"sampling": {"tools": {}, "context": {}}}),
    );
    assert_eq!(a, json!({"sampling": {"context": {}}}));
    assert_eq!(removed, set(&[Capability::SamplingTools]));
    let (a, removed) = after(
        ClientRule::named("H").remove(Capability::Sampling),
        json!({"sampling": {"tools": {}}, "roots": {}}),
    );
    assert_eq!(a, json!({"roots": {}}));
    assert_eq!(
        removed,
        set(&[Capability::Sampling, Capability::SamplingTools])
    );
}

#[test]
fn client_versions_are_read_leniently() {
    let v = |s: &str| lenient_version(s).map(|v| v.to_string());
    assert_eq!(v("1.2.3").as_deref(), Some("1.2.3"));
    assert_eq!(v("1.2").as_deref(), Some("1.2.0"));
    assert_eq!(v("1").as_deref(), Some("1.0.0"));
    assert_eq!(v("v2.1").as_deref(), Some("2.1.0"));
    assert_eq!(v(" 2.1 ").as_deref(), Some("2.1.0"));
    assert_eq!(v("1.2-rc.1").as_deref(), Some("1.2.0-rc.1"));
    assert_eq!(v("1.2+build5").as_deref(), Some("1.2.0+build5"));
    assert_eq!(v("01.2").as_deref(), Some("1.2.0"));
    for unreadable in [
        "", "abc", "1.2.3.4", "1..2", "1.x", "1.2-", "-1", "latest", "1.2 beta",
    ] {
        assert_eq!(v(unreadable), None, "{unreadable:?}");
    }
    assert_eq!(v(&format!("1.{}", "0".repeat(200))), None, "too long");
}

#[test]
fn rules_match_by_exact_name_or_prefix_and_version_range() {
    let exact = ClientRule::named("Some Host");
    assert!(exact.matches(&host("Some Host", "9")));
    assert!(!exact.matches(&host("some host", "9")), "case-sensitive");
    assert!(!exact.matches(&host("Some Host Pro", "9")));
    let prefix = ClientRule::named("Acme*");
    assert!(prefix.matches(&host("Acme", "1")));
    assert!(prefix.matches(&host("Acme Desktop", "1")));
    assert!(!prefix.matches(&host("acme Desktop", "1")));
    assert!(ClientRule::named("*").matches(&host("anything", "x")));
    assert!(
        !ClientRule::named("A*B").matches(&host("AxB", "1")),
        "only a trailing `*` is a wildcard"
    );
    let ranged = ClientRule::named("Some Host").versions("<1.4").unwrap();
    assert!(ranged.matches(&host("Some Host", "1.3.9")));
    assert!(ranged.matches(&host("Some Host", "1.3")));
    assert!(!ranged.matches(&host("Some Host", "1.4.0")));
    assert!(
        !ranged.matches(&host("Some Host", "1.3-beta")),
        "Cargo's pre-release rule"
    );
    assert!(!ranged.matches(&host("Some Host", "nightly")), "unreadable");
    assert!(!ranged.matches(&host("Other", "1.0.0")));
    let two = ClientRule::named("H").versions(">=1, <2").unwrap();
    assert!(two.matches(&host("H", "1.9.9")) && !two.matches(&host("H", "2.0.0")));
    let beta = ClientRule::named("H")
        .versions(">=1.4.0-0, <1.4.0")
        .unwrap();
    assert!(beta.matches(&host("H", "1.4.0-beta.2")));
    let e = ClientRule::named("H")
        .versions("<<1")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("`<<1` is not a version range: "), "{e}");
}

#[test]
fn every_matching_rule_applies_and_no_client_info_matches_nothing() {
    let policy = ClientPolicy::new()
        .rule(ClientRule::named("Other").remove(Capability::Roots))
        .rule(ClientRule::named("H*").remove(Capability::Sampling))
        .rule(
            ClientRule::named("H")
                .versions("<2")
                .unwrap()
                .remove(Capability::ElicitationUrl),
        );
    let declared = json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}});
    let mut c = caps(declared.clone());
    let removed = policy.apply(Some(&host("H", "1.0")), &mut c);
    assert_eq!(
        serde_json::to_value(&c).unwrap(),
        json!({"elicitation": {"form": {}}, "roots": {}})
    );
    assert_eq!(
        removed,
        set(&[Capability::ElicitationUrl, Capability::Sampling])
    );
    let mut c = caps(declared.clone());
    assert_eq!(policy.apply(None, &mut c), CapSet::EMPTY);
    assert_eq!(serde_json::to_value(&c).unwrap(), declared);
    let mut c = caps(declared.clone());
    assert_eq!(
        ClientPolicy::new().apply(Some(&host("H", "1")), &mut c),
        CapSet::EMPTY
    );
    assert_eq!(serde_json::to_value(&c).unwrap(), declared);
}

#[test]
fn the_policy_explains_a_fallback_only_for_what_the_client_had() {
    let mut left = caps(json!({"elicitation": {}, "sampling": {}}));
    let removed = ClientPolicy::new()
        .rule(
            ClientRule::named("H")
                .remove(Capability::ElicitationForm)
                .remove(Capability::Sampling),
        )
        .apply(Some(&host("H", "1")), &mut left);
    let form = ClientCapabilities::with_elicitation_form();
    assert!(removed.explains(&left, &form));
    assert!(removed.explains(&left, &ClientCapabilities::with_sampling()));
    // The client never declared URL mode or sampling with tools: not the policy's doing.
    assert!(!removed.explains(&left, &ClientCapabilities::with_elicitation_url()));
    let tools = caps(json!({"sampling": {"tools": {}}}));
    assert!(!removed.explains(&left, &tools));
    assert!(!CapSet::EMPTY.explains(&left, &form));
}

#[test]
fn json_gives_the_same_policy_as_code() {
    let json = r#"{"rules": [
        {"client": "Some Host", "versions": "<1.4", "remove": ["elicitation.form", "sampling"]},
        {"client": "Acme*", "remove": ["elicitation", "elicitation.url", "sampling.tools", "roots"]}
    ]}"#;
    let code = ClientPolicy::new()
        .rule(
            ClientRule::named("Some Host")
                .versions("<1.4")
                .unwrap()
                .remove(Capability::ElicitationForm)
                .remove(Capability::Sampling),
        )
        .rule(
            ClientRule::named("Acme*")
                .remove(Capability::Elicitation)
                .remove(Capability::ElicitationUrl)
                .remove(Capability::SamplingTools)
                .remove(Capability::Roots),
        );
    assert_eq!(ClientPolicy::from_json(json).unwrap(), code);
    assert!(
        ClientPolicy::from_json(r#"{"rules": []}"#)
            .unwrap()
            .is_empty()
    );
    for c in Capability::ALL {
        assert_eq!(c.name().parse::<Capability>().unwrap(), c);
    }
}

#[test]
fn json_errors_say_what_is_wrong() {
    let err = |json: &str| ClientPolicy::from_json(json).unwrap_err().to_string();
    let e = err(r#"{"rules": [{"client": "H", "remove": ["elicitation.forms"]}]}"#);
    assert!(
        e.contains("unknown capability `elicitation.forms`: expected one of elicitation, elicitation.form, elicitation.url, sampling, sampling.tools, roots"),
        "{e}"
    );
    let e = err(r#"{"rules": [{"client": "H", "remove": ["roots"], "version": "<2"}]}"#);
    assert!(e.contains("unknown field `version`"), "{e}");
    let e = err(r#"{"rules": [], "default": {}}"#);
    assert!(e.contains("unknown field `default`"), "{e}");
    let e = err(r#"{"rules": [{"client": "H", "versions": "1.x.y", "remove": ["roots"]}]}"#);
    assert!(e.contains("`1.x.y` is not a version range"), "{e}");
    assert!(e.contains("line 1"), "serde_json says where: {e}");
    let e = err(r#"{"rules": [{"client": "H", "remove": []}]}"#);
    assert!(e.contains("rule 0 (client `H`) removes nothing"), "{e}");
    let e = err(r#"{"rules": [{"remove": ["roots"]}]}"#);
    assert!(e.contains("missing field `client`"), "{e}");
    let e = err("{}");
    assert!(e.contains("missing field `rules`"), "{e}");
    let e = err("not json");
    assert!(e.starts_with("invalid client policy: "), "{e}");
}

/// A file of its own for one test, removed when dropped.
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(tag: &str, contents: &[u8]) -> TempFile {
        let path = std::env::temp_dir().join(format!(
            "rondo-policy-{}-{tag}-{}.json",
            std::process::id(),
            crate::state::random_id()
        ));
        std::fs::write(&path, contents).expect("write");
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

const ONE_RULE: &str = r#"{"rules": [{"client": "H", "remove": ["sampling"]}]}"#;

#[test]
fn files_are_read_and_their_errors_name_them() {
    let expected = ClientPolicy::new().rule(ClientRule::named("H").remove(Capability::Sampling));
    let f = TempFile::new("ok", ONE_RULE.as_bytes());
    assert_eq!(ClientPolicy::from_file(&f.0).unwrap(), expected);
    let bad = TempFile::new("bad", br#"{"rules": [{"client": "H", "remove": ["x"]}]}"#);
    let e = ClientPolicy::from_file(&bad.0).unwrap_err().to_string();
    let at = format!("client policy file `{}`: ", bad.0.display());
    assert!(
        e.starts_with(&at) && e.contains("unknown capability `x`"),
        "{e}"
    );
    let big = vec![b' '; ClientPolicy::MAX_FILE_BYTES as usize + 1];
    let big = TempFile::new("big", &big);
    let e = ClientPolicy::from_file(&big.0).unwrap_err().to_string();
    assert!(e.ends_with("larger than 1048576 bytes"), "{e}");
    let e = ClientPolicy::from_file("/nonexistent/policy.json")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("client policy file `/nonexistent/policy.json`: cannot open it"),
        "{e}"
    );
}

#[test]
fn the_environment_holds_json_or_a_path() {
    let expected = ClientPolicy::new().rule(ClientRule::named("H").remove(Capability::Sampling));
    let value = |s: &str| ClientPolicy::from_env_value(&OsString::from(s));
    assert_eq!(value(ONE_RULE).unwrap(), expected);
    assert_eq!(value(&format!("  {ONE_RULE}\n")).unwrap(), expected);
    let f = TempFile::new("env", ONE_RULE.as_bytes());
    assert_eq!(value(f.0.to_str().unwrap()).unwrap(), expected);
    assert!(value("").unwrap().is_empty());
    assert!(value("  ").unwrap().is_empty());
    let e = value(r#"{"rules": 1}"#).unwrap_err().to_string();
    assert!(
        e.starts_with("RONDO_CLIENT_POLICY: invalid client policy: "),
        "{e}"
    );
    let e = value("/nonexistent/policy.json").unwrap_err().to_string();
    assert!(
        e.starts_with(
            "RONDO_CLIENT_POLICY: client policy file `/nonexistent/policy.json`: cannot open it"
        ),
        "{e}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        let e = ClientPolicy::from_env_value(&OsString::from_vec(vec![0xff]))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("RONDO_CLIENT_POLICY: not valid UTF-8"), "{e}");
    }
}
