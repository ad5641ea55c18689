//! The connection the stores share ([`RedisConnection`]), to one Redis, to the primary the
//! Sentinels follow, or to a Redis Cluster, and how it is opened from a [`RedisConfig`]: every
//! node it names checked at start, so that a mistake is one clear error then, not a refused
//! round later.

use super::config::{
    CA, CLIENT_CERT, CLUSTER, Place, REDIS_PORT, RedisConfig, SENTINEL_PORT, WAIT, node_url, redact,
};
use super::sentinel::Followed;
use redis::aio::{ConnectionLike, ConnectionManager, MultiplexedConnection};
use redis::cluster::ClusterClient;
use redis::cluster_async::ClusterConnection;
use redis::sentinel::{SentinelClientBuilder, SentinelServerType};
use redis::{
    AsyncConnectionConfig, Client, ClientTlsConfig, Cmd, ConnectionAddr, FromRedisValue,
    IntoConnectionInfo, Pipeline, RedisFuture, RedisResult, TlsCertificates, TlsMode, Value,
};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// How long a command may wait for its answer, and a connection attempt for Redis.
pub(super) const ANSWER: Duration = Duration::from_millis(500);
/// How long a write waits for its replicas (`WAIT`), when it waits.
const WAIT_MS: u64 = 250;
/// How long a command to a Redis Cluster may take in all, its redirections (a slot moved, a
/// node that answers `MOVED` or `ASK` while the cluster is resharded) and retries included.
const CLUSTER_WITHIN: Duration = Duration::from_millis(1_500);

/// The connection every store of a [`Redis`](super::Redis) shares: to one Redis (it
/// reconnects by itself), to the primary a set of Sentinels follows (found again after a
/// failover), or to a Redis Cluster (each key's command sent to the node that holds its
/// slot). Made by [`Redis::open`](super::Redis::open), or from a connection of your own
/// (`ConnectionManager`, `ClusterConnection`: `.into()`).
#[derive(Clone)]
pub struct RedisConnection {
    link: Link,
    /// Replicas a deciding write waits for (`WAIT`); 0: none.
    wait: u32,
}

#[derive(Clone)]
enum Link {
    One(ConnectionManager),
    Cluster(ClusterConnection),
    Sentinel(Arc<Followed>),
}

impl From<ConnectionManager> for RedisConnection {
    fn from(conn: ConnectionManager) -> Self {
        RedisConnection {
            link: Link::One(conn),
            wait: 0,
        }
    }
}

impl From<ClusterConnection> for RedisConnection {
    fn from(conn: ClusterConnection) -> Self {
        RedisConnection {
            link: Link::Cluster(conn),
            wait: 0,
        }
    }
}

impl ConnectionLike for RedisConnection {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        match &mut self.link {
            Link::One(c) => c.req_packed_command(cmd),
            Link::Cluster(c) => c.req_packed_command(cmd),
            Link::Sentinel(f) => Box::pin(f.command(cmd)),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        match &mut self.link {
            Link::One(c) => c.req_packed_commands(pipeline, offset, count),
            Link::Cluster(c) => c.req_packed_commands(pipeline, offset, count),
            Link::Sentinel(f) => Box::pin(f.commands(pipeline, offset, count)),
        }
    }

    fn get_db(&self) -> i64 {
        match &self.link {
            Link::One(c) => c.get_db(),
            Link::Cluster(c) => c.get_db(),
            Link::Sentinel(f) => f.db(),
        }
    }
}

impl std::fmt::Debug for RedisConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let link = match self.link {
            Link::One(_) => "one",
            Link::Cluster(_) => "cluster",
            Link::Sentinel(_) => "sentinel",
        };
        f.debug_struct("RedisConnection")
            .field("link", &link)
            .field("wait", &self.wait)
            .finish()
    }
}

impl RedisConnection {
    /// One command, read or write, whose answer decides nothing durable on its own.
    pub(super) async fn query<T: FromRedisValue>(&self, cmd: &Cmd) -> RedisResult<T> {
        cmd.query_async(&mut self.clone()).await
    }

    /// A command whose outcome decides something (a round taken, a claim, a record, a task
    /// written, or an outcome read back to act on): with replicas to wait for, sent in one
    /// pipeline with `WAIT` on the same connection, and an error (`NOREPLICAS`) when fewer
    /// replicas had it in time. The command may still have run on the primary: a caller
    /// treats that error as any lost answer (the round's resend finds its own fingerprint, a
    /// claim is given back).
    pub(super) async fn write<T: FromRedisValue>(&self, cmd: Cmd) -> RedisResult<T> {
        if self.wait == 0 {
            return self.query(&cmd).await;
        }
        let (value, copies): (T, u32) = redis::pipe()
            .add_command(cmd)
            .cmd("WAIT")
            .arg(self.wait)
            .arg(WAIT_MS)
            .query_async(&mut self.clone())
            .await?;
        if copies < self.wait {
            return Err(redis::make_extension_error(
                "NOREPLICAS".into(),
                Some(format!(
                    "{copies} of the {} replicas asked for had the write within {WAIT_MS} ms",
                    self.wait
                )),
            ));
        }
        Ok(value)
    }
}

/// What [`open`] found: the connection, and each node to read the persistence settings of
/// (the one Redis, the primary, or every node listed for a cluster), by name.
pub(super) struct Opened {
    pub conn: RedisConnection,
    pub nodes: Vec<(String, MultiplexedConnection)>,
}

/// Connects as `config` says and checks every node it names (see the module). The error is
/// the reason, in words, without secrets.
pub(super) async fn open(config: &RedisConfig) -> Result<Opened, String> {
    let certs = certificates(config)?;
    let timeouts = AsyncConnectionConfig::new()
        .set_connection_timeout(Some(ANSWER))
        .set_response_timeout(Some(ANSWER));
    let (link, nodes) = match &config.place {
        Place::Url(url) => {
            tls_matches(url, &certs)?;
            let client = client(url, &certs).map_err(|e| e.to_string())?;
            let node = client
                .get_multiplexed_async_connection_with_config(&timeouts)
                .await
                .map_err(reason)?;
            let conn = manager(client).await.map_err(reason)?;
            (Link::One(conn), vec![(redact(url), node)])
        }
        Place::Sentinel { sentinels, master } => {
            let (builder, db) = sentinel_builder(sentinels, master, &certs)?;
            let client = builder.build().map_err(reason)?;
            let followed = Followed::start(client, timeouts.clone(), db)
                .await
                .map_err(|e| match e.kind() {
                    redis::ErrorKind::MasterNameNotFoundBySentinel => format!(
                        "no Sentinel of the list knows a primary named `{}` (RONDO_REDIS_MASTER)",
                        master_name(master)
                    ),
                    _ => reason(e),
                })?;
            let node = followed.connection().await.map_err(reason)?.1;
            (
                Link::Sentinel(Arc::new(followed)),
                vec![(format!("the primary `{}`", master_name(master)), node)],
            )
        }
        Place::Cluster(seeds) => {
            if config.wait > 0 {
                return Err(format!(
                    "{WAIT} is for one primary (a URL or Sentinel), not {CLUSTER}: a Redis Cluster would need a WAIT on the node of each key"
                ));
            }
            let urls: Vec<String> = seeds.iter().map(|n| node_url(n, REDIS_PORT)).collect();
            let mut nodes = Vec::new();
            for url in &urls {
                tls_matches(url, &certs)?;
                nodes.push((redact(url), cluster_node(url, &certs, &timeouts).await?));
            }
            let mut builder = ClusterClient::builder(urls.clone())
                .connection_timeout(ANSWER)
                .response_timeout(ANSWER)
                .overall_response_timeout(Some(CLUSTER_WITHIN))
                .retries(4)
                .min_retry_wait(10)
                .max_retry_wait(200);
            if let Some(c) = certs.clone() {
                builder = builder.certs(c);
            }
            let conn = builder
                .build()
                .map_err(reason)?
                .get_async_connection()
                .await
                .map_err(reason)?;
            (Link::Cluster(conn), nodes)
        }
    };
    let conn = RedisConnection {
        link,
        wait: config.wait,
    };
    let _: String = conn.query(&redis::cmd("PING")).await.map_err(reason)?;
    Ok(Opened { conn, nodes })
}

/// One node of a cluster, checked: it answers, and says the cluster serves every slot.
async fn cluster_node(
    url: &str,
    certs: &Option<TlsCertificates>,
    timeouts: &AsyncConnectionConfig,
) -> Result<MultiplexedConnection, String> {
    let fail =
        |e: redis::RedisError| format!("the node {} does not answer: {}", redact(url), reason(e));
    let mut node = client(url, certs)
        .map_err(|e| e.to_string())?
        .get_multiplexed_async_connection_with_config(timeouts)
        .await
        .map_err(fail)?;
    let info: String = redis::cmd("CLUSTER")
        .arg("INFO")
        .query_async(&mut node)
        .await
        .map_err(fail)?;
    if !info.lines().any(|l| l.trim() == "cluster_state:ok") {
        return Err(format!(
            "the node {} says its cluster does not serve every slot (CLUSTER INFO: {})",
            redact(url),
            info.lines()
                .find(|l| l.starts_with("cluster_state"))
                .unwrap_or("no cluster_state")
        ));
    }
    Ok(node)
}

/// The reason a Redis error gives, in words: a certificate that does not verify, or a server
/// that wants one from the client, says what to give.
pub(super) fn reason(e: redis::RedisError) -> String {
    let text = e.to_string();
    if text.contains("invalid peer certificate") {
        format!(
            "its TLS certificate does not verify ({text}): give the CA that signed it in {CA} (or --redis-ca)"
        )
    } else if text.contains("CertificateRequired") {
        format!(
            "it asks for a client certificate ({text}): give one in {CLIENT_CERT} and RONDO_REDIS_CLIENT_KEY"
        )
    } else {
        text
    }
}

/// A connection to the one Redis at `url` (TLS verified with the system's roots).
pub(super) async fn one(url: &str) -> RedisResult<ConnectionManager> {
    if is_tls(url) {
        crypto_provider();
    }
    manager(Client::open(url)?).await
}

/// A client for one node's URL, with the certificates when there are any.
fn client(url: &str, certs: &Option<TlsCertificates>) -> RedisResult<Client> {
    match certs {
        None => Client::open(url),
        Some(c) => Client::build_with_tls(url, c.clone()),
    }
}

/// A connection to one Redis that reconnects by itself: when it is lost, the next command
/// makes two attempts (500 ms each at most, a pause of up to 100 ms between) and fails with
/// them, and the command after that tries again. (The client's default, six attempts with
/// pauses growing to 3.2 s, kept a round waiting 6 to 9 s for its refusal while Redis was
/// down.)
async fn manager(client: Client) -> RedisResult<ConnectionManager> {
    let config = redis::aio::ConnectionManagerConfig::new()
        .set_number_of_retries(1)
        .set_connection_timeout(Some(ANSWER))
        .set_response_timeout(Some(ANSWER));
    ConnectionManager::new_with_config(client, config).await
}

/// Whether `url` is a TLS URL, and whether that fits certificates being given: a CA file for
/// a plain `redis://` URL is a mistake (TLS would be off), said at start.
fn tls_matches(url: &str, certs: &Option<TlsCertificates>) -> Result<bool, String> {
    let tls = is_tls(url);
    if certs.is_some() && !tls {
        return Err(format!(
            "{CA} or {CLIENT_CERT} is set, but {} is not a rediss:// URL: the connection would not use TLS",
            redact(url)
        ));
    }
    if tls {
        crypto_provider();
    }
    Ok(tls)
}

fn is_tls(url: &str) -> bool {
    url.starts_with("rediss://") || url.starts_with("valkeys://")
}

/// The Redis client builds its TLS configuration from rustls's process-wide provider: ring,
/// unless the application installed one.
fn crypto_provider() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}

/// The CA and client certificates of `config`, read now: `None` when none are given.
fn certificates(config: &RedisConfig) -> Result<Option<TlsCertificates>, String> {
    if config.ca.is_none() && config.client_cert.is_none() {
        return Ok(None);
    }
    let root_cert = match &config.ca {
        Some(path) => Some(pem(path, "the CA file", CA, "CERTIFICATE")?),
        None => None,
    };
    let client_tls = match &config.client_cert {
        Some((cert, key)) => Some(ClientTlsConfig {
            client_cert: pem(cert, "the client certificate", CLIENT_CERT, "CERTIFICATE")?,
            client_key: pem(
                key,
                "the client key",
                "RONDO_REDIS_CLIENT_KEY",
                "PRIVATE KEY",
            )?,
        }),
        None => None,
    };
    Ok(Some(TlsCertificates {
        client_tls,
        root_cert,
    }))
}

/// The PEM file at `path`, which must hold a block whose label ends with `label`.
fn pem(path: &Path, what: &str, var: &str, label: &str) -> Result<Vec<u8>, String> {
    let bytes = std::fs::read(path)
        .map_err(|e| format!("cannot read {what} {} ({var}): {e}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let has = text
        .lines()
        .any(|l| l.starts_with("-----BEGIN ") && l.trim_end().ends_with(&format!("{label}-----")));
    if !has {
        return Err(format!(
            "{what} {} ({var}) holds no PEM {label}",
            path.display()
        ));
    }
    Ok(bytes)
}

/// The primary's name in `RONDO_REDIS_MASTER` (a name, or a URL whose host is the name).
fn master_name(master: &str) -> String {
    match url::Url::parse(master) {
        Ok(u) if master.contains("://") => u.host_str().unwrap_or_default().to_owned(),
        _ => master.to_owned(),
    }
}

/// The Sentinel client for `sentinels` and `master` (see [`RedisConfig`]), and the database.
fn sentinel_builder(
    sentinels: &[String],
    master: &str,
    certs: &Option<TlsCertificates>,
) -> Result<(SentinelClientBuilder, i64), String> {
    let infos = sentinels
        .iter()
        .map(|s| {
            let url = node_url(s, SENTINEL_PORT);
            match url.as_str().into_connection_info() {
                Ok(info) => Ok((url, info)),
                Err(e) => Err(format!("the Sentinel {} does not read: {e}", redact(&url))),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let Some((first_url, first)) = infos.first() else {
        return Err("RONDO_REDIS_SENTINEL names no Sentinel".to_owned());
    };
    let settings = |i: &redis::ConnectionInfo| {
        (
            is_tls_addr(i.addr()),
            i.redis_settings().username().map(str::to_owned),
            i.redis_settings().password().map(str::to_owned),
        )
    };
    let (sentinel_tls, user, password) = settings(first);
    if let Some((url, _)) = infos.iter().find(|(_, i)| settings(i) != settings(first)) {
        return Err(format!(
            "the Sentinels {} and {} differ in scheme or credentials: give them the same",
            redact(first_url),
            redact(url)
        ));
    }
    if sentinel_tls {
        tls_matches(first_url, certs)?;
    }
    // The primary: a name (TLS as the Sentinels), or a URL with the name as its host.
    let (name, master_tls, info) = if master.contains("://") {
        tls_matches(master, certs)?;
        let info = master
            .into_connection_info()
            .map_err(|e| format!("RONDO_REDIS_MASTER {} does not read: {e}", redact(master)))?;
        (master_name(master), is_tls(master), Some(info))
    } else {
        (master.to_owned(), sentinel_tls, None)
    };
    let addrs = infos.iter().map(|(_, i)| i.addr().clone());
    let mut builder = SentinelClientBuilder::new(addrs, &name, SentinelServerType::Master)
        .map_err(|e| e.to_string())?;
    if sentinel_tls {
        builder = builder.set_client_to_sentinel_tls_mode(TlsMode::Secure);
        if let Some(c) = certs {
            builder = builder.set_client_to_sentinel_certificates(c.clone());
        }
    }
    if let Some(u) = user {
        builder = builder.set_client_to_sentinel_username(u);
    }
    if let Some(p) = password {
        builder = builder.set_client_to_sentinel_password(p);
    }
    if master_tls {
        crypto_provider();
        builder = builder.set_client_to_redis_tls_mode(TlsMode::Secure);
        if let Some(c) = certs {
            builder = builder.set_client_to_redis_certificates(c.clone());
        }
    }
    let mut db = 0;
    if let Some(info) = info {
        let redis = info.redis_settings();
        db = redis.db();
        builder = builder.set_client_to_redis_db(db);
        if let Some(u) = redis.username() {
            builder = builder.set_client_to_redis_username(u);
        }
        if let Some(p) = redis.password() {
            builder = builder.set_client_to_redis_password(p);
        }
    }
    Ok((builder, db))
}

fn is_tls_addr(addr: &ConnectionAddr) -> bool {
    matches!(addr, ConnectionAddr::TcpTls { .. })
}
