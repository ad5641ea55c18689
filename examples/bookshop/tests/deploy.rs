//! The deployment files the README shows (`deploy/`) parse, and say what the README says: the
//! Kubernetes Deployment takes `RONDO_STATE_KEYS` from the Secret, the 2026-07-28 Service has no
//! session affinity and the 2025-11-25 one pins a client for as long as a session may idle, and
//! the nginx config spreads requests round-robin and never resends a POST an instance received.
//! (The fleet test runs that nginx config for real.)

use rondo_mcp::state::KeyRing;
use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn deploy() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy")
}

/// Every document of every `deploy/kubernetes/*.yaml`, as JSON values.
fn manifests() -> Vec<Value> {
    let dir = deploy().join("kubernetes");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("deploy/kubernetes")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no manifests in {}", dir.display());
    let mut docs = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read manifest");
        for doc in serde_norway::Deserializer::from_str(&text) {
            let value = Value::deserialize(doc)
                .unwrap_or_else(|e| panic!("{}: not YAML: {e}", file.display()));
            for key in ["apiVersion", "kind"] {
                assert!(value[key].is_string(), "{}: no {key}", file.display());
            }
            assert!(value["metadata"]["name"].is_string(), "{}", file.display());
            docs.push(value);
        }
    }
    docs
}

fn one<'a>(docs: &'a [Value], kind: &str, name: &str) -> &'a Value {
    let found: Vec<&Value> = docs
        .iter()
        .filter(|d| d["kind"] == kind && d["metadata"]["name"] == name)
        .collect();
    assert_eq!(found.len(), 1, "{kind} {name}");
    found[0]
}

#[test]
fn the_kubernetes_manifests_share_the_key_ring_and_set_affinity_per_revision() {
    let docs = manifests();
    let mut kinds: Vec<&str> = docs.iter().filter_map(|d| d["kind"].as_str()).collect();
    kinds.sort_unstable();
    assert_eq!(kinds, ["Deployment", "Secret", "Service", "Service"]);

    // The Secret: the key ring under the name the servers read, and a placeholder they refuse.
    let secret = one(&docs, "Secret", "bookshop-state-keys");
    let placeholder = secret["stringData"]["RONDO_STATE_KEYS"]
        .as_str()
        .expect("RONDO_STATE_KEYS in the Secret");
    assert!(
        KeyRing::parse(placeholder).is_err(),
        "the committed Secret must not hold a usable key"
    );

    // The Deployment: several replicas, every one with the key ring from the Secret.
    let deployment = one(&docs, "Deployment", "bookshop");
    assert_eq!(deployment["apiVersion"], "apps/v1");
    let spec = &deployment["spec"];
    assert!(spec["replicas"].as_u64().is_some_and(|r| r >= 2));
    let labels = &spec["selector"]["matchLabels"];
    let pod = &spec["template"];
    for (k, v) in labels.as_object().expect("matchLabels") {
        assert_eq!(
            &pod["metadata"]["labels"][k], v,
            "the selector selects the pods"
        );
    }
    assert_eq!(spec["strategy"]["rollingUpdate"]["maxUnavailable"], 0);
    let containers = pod["spec"]["containers"].as_array().expect("containers");
    assert_eq!(containers.len(), 1);
    let c = &containers[0];
    let env = c["env"].as_array().expect("env");
    let var = |name: &str| {
        env.iter()
            .find(|e| e["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in the container's env"))
    };
    let keys = var("RONDO_STATE_KEYS");
    assert!(
        keys.get("value").is_none(),
        "the key ring comes from the Secret only"
    );
    let from = &keys["valueFrom"]["secretKeyRef"];
    assert_eq!(from["name"], secret["metadata"]["name"]);
    assert_eq!(from["key"], "RONDO_STATE_KEYS");
    // It listens on the port the Services target, on every interface of the pod.
    let port = &c["ports"][0];
    let number = port["containerPort"].as_u64().expect("containerPort");
    let args: Vec<&str> = c["args"]
        .as_array()
        .expect("args")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(args, ["--http", &format!("0.0.0.0:{number}")]);
    // The drain (10 s) and the preStop pause fit in the grace period.
    let pause = c["lifecycle"]["preStop"]["sleep"]["seconds"]
        .as_u64()
        .unwrap_or(0);
    let grace = pod["spec"]["terminationGracePeriodSeconds"]
        .as_u64()
        .expect("grace");
    assert!(
        grace > pause + 10,
        "grace {grace} s, preStop {pause} s + 10 s drain"
    );
    let hosts = var("BOOKSHOP_ALLOWED_HOSTS")["value"]
        .as_str()
        .expect("hosts");

    // The Services: the same pods; affinity only for 2025-11-25 sessions.
    for (name, affinity) in [("bookshop", None), ("bookshop-sessions", Some("ClientIP"))] {
        let svc = one(&docs, "Service", name);
        assert_eq!(&svc["spec"]["selector"], labels, "{name} selects the pods");
        assert_eq!(
            svc["spec"]["ports"][0]["targetPort"], port["name"],
            "{name}"
        );
        assert!(
            hosts.split(',').any(|h| h == name),
            "{name} not an allowed Host"
        );
        match affinity {
            None => assert!(
                matches!(svc["spec"].get("sessionAffinity"), None | Some(Value::Null))
                    || svc["spec"]["sessionAffinity"] == "None",
                "2026-07-28 needs no session affinity: {name}"
            ),
            Some(kind) => {
                assert_eq!(svc["spec"]["sessionAffinity"], kind, "{name}");
                let timeout = &svc["spec"]["sessionAffinityConfig"]["clientIP"]["timeoutSeconds"];
                // As long as a session may stay idle (HttpConfig::session_idle_timeout).
                assert!(timeout.as_u64().is_some_and(|t| t >= 30 * 60), "{name}");
            }
        }
    }
}

/// The body of the `upstream NAME { .. }` block of an nginx config.
fn upstream<'a>(conf: &'a str, name: &str) -> &'a str {
    let start = conf
        .find(&format!("upstream {name} {{"))
        .unwrap_or_else(|| panic!("no upstream {name}"));
    let body = &conf[start..];
    &body[..body.find('}').expect("end of the block")]
}

#[test]
fn the_nginx_config_spreads_modern_requests_and_never_resends_a_received_post() {
    let conf = std::fs::read_to_string(deploy().join("nginx/rondo.conf")).expect("nginx config");
    let directives: Vec<&str> = conf
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .collect();
    let has = |d: &str| directives.contains(&d);
    // Round-robin for 2026-07-28: no balancing directive in the block.
    let modern = upstream(&conf, "rondo_modern");
    for other in ["hash", "ip_hash", "least_conn", "random", "sticky"] {
        assert!(
            !modern.lines().any(|l| l.trim().starts_with(other)),
            "{other} in rondo_modern"
        );
    }
    assert_eq!(modern.matches("server 127.0.0.1:").count(), 3);
    assert!(upstream(&conf, "rondo_sessions").contains("hash $remote_addr consistent;"));
    // Only connection errors move a request to the next instance; a POST an instance received
    // is never sent again by nginx.
    assert!(has("proxy_next_upstream error timeout;"));
    assert!(!directives.iter().any(|d| d.contains("non_idempotent")));
    // The Host the instances check, and SSE passed through.
    assert!(has("proxy_set_header Host $http_host;"));
    assert!(has("proxy_buffering off;"));
}
