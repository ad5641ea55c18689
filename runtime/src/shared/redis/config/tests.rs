//! How a configuration reads, and how an address is printed.

use super::{Place, RedisConfig, redact};

#[test]
fn a_password_never_reaches_an_error() {
    let hidden = "(a URL that does not parse, not shown: it may hold a password)";
    for (url, shown) in [
        (
            "redis://app:s3cret@10.0.0.5:6379/0",
            "redis://***:***@10.0.0.5:6379/0",
        ),
        ("redis://:s3cret@cache/1", "redis://:***@cache/1"),
        ("redis://app@cache", "redis://***@cache"),
        ("redis://127.0.0.1:6379", "redis://127.0.0.1:6379"),
        ("redis://127.0.0.1:6379/", "redis://127.0.0.1:6379/"),
        // Encoded as a URL must be: `/`, `@`, `%`, `:` in the password.
        ("redis://:sl%2Fa%40s%25h%3Ax@h:1/0", "redis://:***@h:1/0"),
        ("redis://u:p@ss:w@host:1/0", "redis://***:***@host:1/0"),
        ("redis://u:p%40ss:w@host:1/0", "redis://***:***@host:1/0"),
        // Not encoded: the URL does not parse, or its path is not a database.
        ("redis://:sl/ashS3cret@h:6379", hidden),
        ("redis://u:123/x@h", hidden),
        ("redis://:a#b@h", hidden),
        ("not a url", hidden),
        // In the query.
        (
            "redis://h:1/0?password=S3cret&protocol=resp3",
            "redis://h:1/0?password=***&protocol=***",
        ),
        ("redis://h?user=a%26b", "redis://h?user=***"),
    ] {
        let got = redact(url);
        assert_eq!(got, shown, "{url}");
        for secret in [
            "s3cret",
            "S3cret",
            "sl",
            "ashS3cret",
            "a%26b",
            "p%40ss",
            "123/x",
        ] {
            assert!(
                !got.contains(secret) || url.contains(&format!("h{secret}")),
                "{url} -> {got}"
            );
        }
    }
}

/// The configuration `vars` describe.
fn from(vars: &[(&str, &str)]) -> Result<Option<RedisConfig>, String> {
    RedisConfig::from_vars(|name| {
        vars.iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| (*v).to_owned())
    })
    .map_err(|e| e.to_string())
}

#[test]
fn the_environment_says_where_redis_is_once() {
    assert!(from(&[]).unwrap().is_none());
    let one = from(&[("RONDO_REDIS_URL", " rediss://app:pw@h:6380/0 ")])
        .unwrap()
        .unwrap();
    assert!(matches!(&one.place, Place::Url(u) if u == "rediss://app:pw@h:6380/0"));
    assert_eq!(one.describe(), "rediss://***:***@h:6380/0");
    let sentinel = from(&[
        (
            "RONDO_REDIS_SENTINEL",
            "h1:26379, h2 ,rediss://:s3cret@h3:5000",
        ),
        ("RONDO_REDIS_MASTER", "rediss://app:pw@mymaster/2"),
        ("RONDO_REDIS_WAIT", "1"),
    ])
    .unwrap()
    .unwrap();
    assert!(matches!(&sentinel.place, Place::Sentinel { sentinels, .. } if sentinels.len() == 3));
    assert_eq!(sentinel.wait, 1);
    assert_eq!(
        sentinel.describe(),
        "the primary rediss://***:***@mymaster/2 of the Sentinels redis://h1:26379,redis://h2:26379,rediss://:***@h3:5000"
    );
    let cluster = from(&[
        ("RONDO_REDIS_CLUSTER", "10.0.0.1:7000,10.0.0.2"),
        ("RONDO_REDIS_CA", "/etc/redis/ca.pem"),
        ("RONDO_REDIS_CLIENT_CERT", "/c.pem"),
        ("RONDO_REDIS_CLIENT_KEY", "/k.pem"),
    ])
    .unwrap()
    .unwrap();
    assert_eq!(
        cluster.describe(),
        "the cluster redis://10.0.0.1:7000,redis://10.0.0.2:6379"
    );
    assert!(cluster.ca.is_some() && cluster.client_cert.is_some());
}

#[test]
fn a_configuration_that_cannot_work_is_refused_by_name() {
    for (vars, says) in [
        (
            &[
                ("RONDO_REDIS_URL", "redis://a"),
                ("RONDO_REDIS_CLUSTER", "b:1"),
            ][..],
            "set one of RONDO_REDIS_URL, RONDO_REDIS_SENTINEL, RONDO_REDIS_CLUSTER, not several",
        ),
        (
            &[("RONDO_REDIS_SENTINEL", "a:26379")],
            "RONDO_REDIS_SENTINEL needs RONDO_REDIS_MASTER",
        ),
        (
            &[("RONDO_REDIS_MASTER", "mymaster")],
            "RONDO_REDIS_MASTER is set, but none of",
        ),
        (
            &[
                ("RONDO_REDIS_URL", "redis://a"),
                ("RONDO_REDIS_CLIENT_KEY", "/k"),
            ],
            "RONDO_REDIS_CLIENT_CERT and RONDO_REDIS_CLIENT_KEY go together",
        ),
        (
            &[
                ("RONDO_REDIS_URL", "redis://a"),
                ("RONDO_REDIS_WAIT", "one"),
            ],
            "RONDO_REDIS_WAIT is `one`",
        ),
    ] {
        let e = from(vars).unwrap_err();
        assert!(
            e.starts_with("the Redis configuration: ") && e.contains(says),
            "{e}"
        );
    }
}

#[test]
fn the_flags_come_before_the_variables() {
    let config = RedisConfig::from_flags_and_env(Some("rediss://h:1/0"), Some("/ca.pem"))
        .unwrap()
        .unwrap();
    assert!(matches!(&config.place, Place::Url(u) if u == "rediss://h:1/0"));
    assert_eq!(config.ca.as_deref(), Some(std::path::Path::new("/ca.pem")));
}
