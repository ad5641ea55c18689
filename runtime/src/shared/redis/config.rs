//! Where the fleet's Redis is and how to reach it ([`RedisConfig`]): one URL, the primary a
//! set of Sentinels follows, or a Redis Cluster; over TCP or TLS; and how many replicas a
//! write waits for. Also how an address is printed: [`redact`], never with its secrets.

use std::fmt;
use std::path::PathBuf;

/// Where the fleet's Redis is and how to reach it: what [`Redis::open`](super::Redis::open)
/// connects to. Build one in code ([`url`](RedisConfig::url),
/// [`sentinel`](RedisConfig::sentinel), [`cluster`](RedisConfig::cluster)) or read it from
/// the environment ([`from_env`](RedisConfig::from_env)):
///
/// | variable | meaning |
/// |---|---|
/// | `RONDO_REDIS_URL` | one Redis: `redis://[user:password@]host:port/db`, `rediss://` for TLS |
/// | `RONDO_REDIS_SENTINEL` | the Sentinels that follow the primary, `host:port,host:port,...` (or URLs: `rediss://` for TLS, `user:password@` for Sentinels that need them) |
/// | `RONDO_REDIS_MASTER` | with Sentinel: the primary's name, or a URL with the name as its host, saying how to talk to it: `rediss://user:password@mymaster/0` |
/// | `RONDO_REDIS_CLUSTER` | a Redis Cluster: some of its nodes, `host:port,...` or URLs (`rediss://user:password@host:port`) |
/// | `RONDO_REDIS_CA` | a PEM file of the certificates to verify the servers with, instead of the system's roots |
/// | `RONDO_REDIS_CLIENT_CERT`, `RONDO_REDIS_CLIENT_KEY` | PEM files of a client certificate (chain) and its key, for Redis that asks for one (mutual TLS) |
/// | `RONDO_REDIS_WAIT` | how many replicas must have a write before it counts (`WAIT`), default 0 |
///
/// Exactly one of the first three (with `RONDO_REDIS_MASTER` for Sentinel) says where Redis
/// is. A bare `host:port` is `redis://host:port` (port 26379 for a Sentinel, 6379 otherwise).
/// The URLs of one list must agree on their scheme and credentials.
#[derive(Clone)]
pub struct RedisConfig {
    pub(super) place: Place,
    pub(super) ca: Option<PathBuf>,
    pub(super) client_cert: Option<(PathBuf, PathBuf)>,
    pub(super) wait: u32,
}

/// Where Redis is.
#[derive(Clone)]
pub(super) enum Place {
    Url(String),
    Sentinel {
        sentinels: Vec<String>,
        master: String,
    },
    Cluster(Vec<String>),
}

impl RedisConfig {
    /// One Redis (`redis://host:port/db`, `rediss://` for TLS, `user:password@` when it needs
    /// them).
    pub fn url(url: impl Into<String>) -> RedisConfig {
        RedisConfig::at(Place::Url(url.into()))
    }

    /// The primary named `master` (a name, or a URL with the name as its host:
    /// `rediss://user:password@mymaster/0`), wherever the `sentinels` (`host:port` or URLs)
    /// say it is now: after a failover, the replica they promoted.
    pub fn sentinel<S: Into<String>>(
        sentinels: impl IntoIterator<Item = S>,
        master: impl Into<String>,
    ) -> RedisConfig {
        RedisConfig::at(Place::Sentinel {
            sentinels: sentinels.into_iter().map(Into::into).collect(),
            master: master.into(),
        })
    }

    /// A Redis Cluster, from some of its nodes (`host:port` or URLs); every one must answer at
    /// start.
    pub fn cluster<S: Into<String>>(nodes: impl IntoIterator<Item = S>) -> RedisConfig {
        RedisConfig::at(Place::Cluster(nodes.into_iter().map(Into::into).collect()))
    }

    fn at(place: Place) -> RedisConfig {
        RedisConfig {
            place,
            ca: None,
            client_cert: None,
            wait: 0,
        }
    }

    /// Verifies the servers' certificates with the CA certificates in this PEM file instead
    /// of the system's roots.
    pub fn ca_file(mut self, path: impl Into<PathBuf>) -> RedisConfig {
        self.ca = Some(path.into());
        self
    }

    /// Presents this client certificate (a PEM chain) and key (PEM) to servers that ask for
    /// one (mutual TLS).
    pub fn client_cert(mut self, cert: impl Into<PathBuf>, key: impl Into<PathBuf>) -> RedisConfig {
        self.client_cert = Some((cert.into(), key.into()));
        self
    }

    /// Every write that decides something (a round taken, an effect claimed or recorded, a
    /// task written) counts only once `replicas` replicas have it (`WAIT`, 250 ms at most):
    /// a failover to one of them then keeps it. Fewer, and the write is refused as Redis
    /// being unavailable ("try again"). Default 0: a write the primary acknowledged and lost
    /// in a failover is forgotten (the guide's `fleet` page says what that risks). Not with
    /// Redis Cluster.
    pub fn wait_for_replicas(mut self, replicas: u32) -> RedisConfig {
        self.wait = replicas;
        self
    }

    /// Reads the `RONDO_REDIS_*` variables (the table above); `Ok(None)` when none says where
    /// Redis is.
    pub fn from_env() -> Result<Option<RedisConfig>, super::ConnectError> {
        RedisConfig::from_vars(|name| std::env::var(name).ok())
    }

    /// As [`from_env`](RedisConfig::from_env), with a program's two flags over their
    /// variables: `--redis URL` over `RONDO_REDIS_URL`, `--redis-ca PATH` over
    /// `RONDO_REDIS_CA` (`None`: the flag was not given). The examples take them with clap.
    pub fn from_flags_and_env(
        url: Option<&str>,
        ca: Option<&str>,
    ) -> Result<Option<RedisConfig>, super::ConnectError> {
        RedisConfig::from_vars(|name| {
            let flag = match name {
                URL => url,
                CA => ca,
                _ => None,
            };
            flag.map(str::to_owned).or_else(|| std::env::var(name).ok())
        })
    }

    fn from_vars(
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<RedisConfig>, super::ConnectError> {
        let var = |name: &str| {
            var(name)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        let list = |v: String| -> Vec<String> {
            v.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        };
        let place = match (var(URL), var(SENTINEL), var(CLUSTER)) {
            (None, None, None) => {
                if let Some(set) = [MASTER, CA, CLIENT_CERT, CLIENT_KEY, WAIT]
                    .into_iter()
                    .find(|v| var(v).is_some())
                {
                    return Err(invalid(
                        set,
                        format!("{set} is set, but none of {URL}, {SENTINEL}, {CLUSTER} says where Redis is"),
                    ));
                }
                return Ok(None);
            }
            (Some(url), None, None) => Place::Url(url),
            (None, Some(sentinels), None) => Place::Sentinel {
                sentinels: list(sentinels),
                master: var(MASTER).ok_or_else(|| {
                    invalid(
                        SENTINEL,
                        format!("{SENTINEL} needs {MASTER}: the name of the primary the Sentinels follow"),
                    )
                })?,
            },
            (None, None, Some(nodes)) => Place::Cluster(list(nodes)),
            _ => {
                return Err(invalid(
                    URL,
                    format!("set one of {URL}, {SENTINEL}, {CLUSTER}, not several"),
                ));
            }
        };
        let mut config = RedisConfig::at(place);
        config.ca = var(CA).map(PathBuf::from);
        config.client_cert = match (var(CLIENT_CERT), var(CLIENT_KEY)) {
            (Some(cert), Some(key)) => Some((cert.into(), key.into())),
            (None, None) => None,
            _ => {
                return Err(invalid(
                    CLIENT_CERT,
                    format!(
                        "{CLIENT_CERT} and {CLIENT_KEY} go together: a client certificate and its key"
                    ),
                ));
            }
        };
        if let Some(n) = var(WAIT) {
            config.wait = n.parse().map_err(|_| {
                invalid(
                    WAIT,
                    format!("{WAIT} is `{n}`: a number of replicas, such as 1"),
                )
            })?;
        }
        Ok(Some(config))
    }

    /// Where Redis is, as it may be printed: every URL without its user name, password and
    /// query values.
    pub fn describe(&self) -> String {
        let list = |nodes: &[String], port: u16| {
            nodes
                .iter()
                .map(|n| redact(&node_url(n, port)))
                .collect::<Vec<_>>()
                .join(",")
        };
        match &self.place {
            Place::Url(url) => redact(url),
            Place::Sentinel { sentinels, master } => format!(
                "the primary {} of the Sentinels {}",
                if master.contains("://") {
                    redact(master)
                } else {
                    master.clone()
                },
                list(sentinels, SENTINEL_PORT)
            ),
            Place::Cluster(nodes) => format!("the cluster {}", list(nodes, REDIS_PORT)),
        }
    }
}

impl fmt::Debug for RedisConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisConfig")
            .field("place", &self.describe())
            .field("ca", &self.ca)
            .field("client_cert", &self.client_cert.as_ref().map(|(c, _)| c))
            .field("wait", &self.wait)
            .finish()
    }
}

pub(super) const URL: &str = "RONDO_REDIS_URL";
pub(super) const SENTINEL: &str = "RONDO_REDIS_SENTINEL";
pub(super) const MASTER: &str = "RONDO_REDIS_MASTER";
pub(super) const CLUSTER: &str = "RONDO_REDIS_CLUSTER";
pub(super) const CA: &str = "RONDO_REDIS_CA";
pub(super) const CLIENT_CERT: &str = "RONDO_REDIS_CLIENT_CERT";
pub(super) const CLIENT_KEY: &str = "RONDO_REDIS_CLIENT_KEY";
pub(super) const WAIT: &str = "RONDO_REDIS_WAIT";
pub(super) const SENTINEL_PORT: u16 = 26379;
pub(super) const REDIS_PORT: u16 = 6379;

/// A configuration that cannot be used (`var` says what, in `reason`).
fn invalid(var: &str, reason: String) -> super::ConnectError {
    debug_assert!(reason.contains(var));
    super::ConnectError {
        url: String::new(),
        reason,
    }
}

/// A node of a list as a URL: `host:port` is `redis://host:port` (`port` when it has none).
pub(super) fn node_url(node: &str, port: u16) -> String {
    if node.contains("://") {
        node.to_owned()
    } else if node
        .rsplit_once(':')
        .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
    {
        format!("redis://{node}")
    } else {
        format!("redis://{node}:{port}")
    }
}

/// `url` as it may be printed: parsed, with its user name, its password and the value of
/// every query parameter (`?password=`) replaced by `***`; a URL that does not parse, or whose
/// path is not a database number (a password with an unencoded `/` or `@` leaves part of
/// itself there), is not printed at all.
pub(crate) fn redact(url: &str) -> String {
    const HIDDEN: &str = "***";
    const UNPRINTABLE: &str = "(a URL that does not parse, not shown: it may hold a password)";
    let Ok(mut parsed) = url::Url::parse(url) else {
        return UNPRINTABLE.to_owned();
    };
    let path_is_db = matches!(parsed.scheme(), "redis" | "rediss" | "valkey" | "valkeys")
        .then(|| parsed.path().trim_start_matches('/'))
        .is_none_or(|db| db.bytes().all(|b| b.is_ascii_digit()));
    if !path_is_db || parsed.fragment().is_some() || parsed.cannot_be_a_base() {
        return UNPRINTABLE.to_owned();
    }
    let hidden = |part: &str| if part.is_empty() { "" } else { HIDDEN };
    let (user, password) = (
        parsed.username().to_owned(),
        parsed.password().map(str::to_owned),
    );
    if parsed.set_username(hidden(&user)).is_err()
        || parsed
            .set_password(password.as_deref().map(hidden))
            .is_err()
    {
        return UNPRINTABLE.to_owned();
    }
    let keys: Vec<String> = parsed.query_pairs().map(|(k, _)| k.into_owned()).collect();
    if !keys.is_empty() {
        parsed
            .query_pairs_mut()
            .clear()
            .extend_pairs(keys.iter().map(|k| (k.as_str(), HIDDEN)));
    }
    parsed.to_string().replace("%2A%2A%2A", HIDDEN)
}

#[cfg(test)]
mod tests;
