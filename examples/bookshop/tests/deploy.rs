//! The deployment files the guide shows (`deploy/`, `rondo_mcp::guide::fleet`) parse, and say
//! what the guide says: the Kubernetes Deployment takes `RONDO_STATE_KEYS` from the Secret and `RONDO_REDIS_URL` naming
//! the Redis of `redis.yaml` (one primary, persistent, never evicting, reached only by the
//! bookshop), the 2026-07-28 Service has no session affinity and the 2025-11-25 one pins a
//! client for as long as a session may idle, and the nginx config spreads requests round-robin
//! and never resends a POST an instance received. (The fleet test runs that nginx config, and a
//! Redis started with the same persistence, for real.)

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
    assert_eq!(
        kinds,
        [
            "Deployment",
            "NetworkPolicy",
            "Secret",
            "Service",
            "Service",
            "Service",
            "StatefulSet"
        ]
    );

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

/// The value of `--flag` in `args`.
fn flag<'a>(args: &'a [&'a str], flag: &str) -> Option<&'a str> {
    let i = args.iter().position(|a| *a == flag)?;
    args.get(i + 1).copied()
}

/// Whether `selector` (`matchLabels`, or a Service's `selector`) selects pods labelled `labels`.
fn selects(selector: &Value, labels: &Value) -> bool {
    let selector = selector.as_object().expect("a selector");
    !selector.is_empty() && selector.iter().all(|(k, v)| &labels[k] == v)
}

#[test]
fn the_deployment_points_at_the_redis_of_the_manifests_and_that_redis_keeps_what_it_is_told() {
    let docs = manifests();
    let redis = one(&docs, "StatefulSet", "bookshop-redis");
    let service = one(&docs, "Service", "bookshop-redis");
    let spec = &redis["spec"];
    // One primary; Redis 7 or later (the scripts use PXAT and PEXPIRETIME).
    assert_eq!(spec["replicas"], 1, "one primary: two would be two ledgers");
    let pod = &spec["template"];
    let labels = &pod["metadata"]["labels"];
    assert!(selects(&spec["selector"]["matchLabels"], labels));
    assert_eq!(spec["serviceName"], service["metadata"]["name"]);
    let c = &pod["spec"]["containers"][0];
    let image = c["image"].as_str().expect("image");
    let major: u32 = image
        .strip_prefix("redis:")
        .and_then(|tag| tag.split('.').next())
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("a redis:MAJOR.. image, not {image}"));
    assert!(major >= 7, "{image}");
    // Persistent: every write fsynced before it is acknowledged, on the volume; never evicting.
    let args: Vec<&str> = c["args"]
        .as_array()
        .expect("args")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(flag(&args, "--appendonly"), Some("yes"), "{args:?}");
    assert_eq!(flag(&args, "--appendfsync"), Some("always"), "{args:?}");
    assert_eq!(flag(&args, "--maxmemory-policy"), Some("noeviction"));
    // Bounded well under the container's limit: full, it refuses writes instead of being
    // killed, with room left for the fork that rewrites its file.
    let mb = |v: &str, unit: &str| -> u64 {
        v.strip_suffix(unit)
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{v}: a number of {unit}"))
    };
    let bound = mb(flag(&args, "--maxmemory").expect("--maxmemory"), "mb");
    let limit = c["resources"]["limits"]["memory"]
        .as_str()
        .expect("a memory limit");
    let limit = mb(limit, "Mi");
    assert!(
        bound > 0 && bound * 4 <= limit * 3,
        "maxmemory {bound}mb, limit {limit}Mi"
    );
    let dir = flag(&args, "--dir").expect("--dir");
    let mount = c["volumeMounts"]
        .as_array()
        .expect("volumeMounts")
        .iter()
        .find(|m| m["mountPath"] == dir)
        .unwrap_or_else(|| panic!("nothing mounted at {dir}"));
    let claims = spec["volumeClaimTemplates"]
        .as_array()
        .expect("a volume claim");
    assert!(
        claims
            .iter()
            .any(|t| t["metadata"]["name"] == mount["name"])
    );

    // The Service selects it, on the container's port, and not the bookshop's pods.
    let port = &c["ports"][0];
    let number = port["containerPort"].as_u64().expect("containerPort");
    assert!(selects(&service["spec"]["selector"], labels));
    let svc_port = &service["spec"]["ports"][0];
    assert_eq!(svc_port["targetPort"], port["name"]);
    let bookshop = one(&docs, "Deployment", "bookshop");
    let shop_labels = &bookshop["spec"]["template"]["metadata"]["labels"];
    assert!(!selects(&service["spec"]["selector"], shop_labels));
    for name in ["bookshop", "bookshop-sessions"] {
        let svc = one(&docs, "Service", name);
        assert!(
            !selects(&svc["spec"]["selector"], labels),
            "{name} selects Redis"
        );
    }

    // Every bookshop replica is given that Service's name and port.
    let env = bookshop["spec"]["template"]["spec"]["containers"][0]["env"]
        .as_array()
        .expect("env");
    let url = env
        .iter()
        .find(|e| e["name"] == "RONDO_REDIS_URL")
        .and_then(|e| e["value"].as_str())
        .expect("RONDO_REDIS_URL in the bookshop's env");
    let authority = url
        .strip_prefix("redis://")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("not a redis:// URL: {url}"));
    let (host, port_text) = authority.rsplit_once(':').expect("host:port");
    assert_eq!(host, service["metadata"]["name"], "{url}");
    assert_eq!(
        Some(port_text.parse::<u64>().expect("port")),
        svc_port["port"].as_u64()
    );
    assert_eq!(svc_port["port"].as_u64(), Some(number), "{url}");

    // Only the bookshop reaches it, on that port.
    let policy = one(&docs, "NetworkPolicy", "bookshop-redis");
    assert!(selects(
        &policy["spec"]["podSelector"]["matchLabels"],
        labels
    ));
    let ingress = policy["spec"]["ingress"].as_array().expect("ingress");
    assert_eq!(ingress.len(), 1);
    let from = ingress[0]["from"].as_array().expect("from");
    assert_eq!(from.len(), 1);
    assert!(selects(&from[0]["podSelector"]["matchLabels"], shop_labels));
    let ports = ingress[0]["ports"].as_array().expect("ports");
    assert!(
        ports
            .iter()
            .all(|p| p["port"] == port["name"] || p["port"].as_u64() == Some(number))
    );
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
