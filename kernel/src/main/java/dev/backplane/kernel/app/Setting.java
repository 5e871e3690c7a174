package dev.backplane.kernel.app;

import java.util.Optional;

/**
 * Every setting the kernel reads. Each has a dotted key (as written in the YAML config file), an
 * environment variable that overrides the file, and a default. docs/reference/settings.md (generated) lists
 * exactly these. A setting declares whether it is secret and, for a number, its range.
 */
public enum Setting {
    SERVER_HOST("server.host", "SVC_SERVER_HOST", "127.0.0.1", "interface the HTTP server binds"),
    SERVER_PORT("server.port", "SVC_SERVER_PORT", "8080", "HTTP port (0 picks a free port)", 0, 65535),
    SERVER_MANAGEMENT_PORT("server.management-port", "SVC_SERVER_MANAGEMENT_PORT", "-1",
            "port of the management listener serving /health, /health/live, /health/ready and /metrics (which then leave "
            + "the API port, so an Ingress never exposes them); -1: no management listener, 0 picks a free port", -1, 65535),
    SERVER_SHUTDOWN_DELAY("server.shutdown.delay-seconds", "SVC_SERVER_SHUTDOWN_DELAY_SECONDS", "5",
            "on SIGTERM, how long the kernel goes on serving after /health/ready turns 503, so the load balancer's next "
            + "probe takes it out of rotation before it stops accepting", 0, 300),
    SERVER_SHUTDOWN_DRAIN("server.shutdown.drain-seconds", "SVC_SERVER_SHUTDOWN_DRAIN_SECONDS", "20",
            "on SIGTERM, after the delay: how long requests, asynchronous calls and agent-run tool calls in flight may take "
            + "to finish before the kernel stops (delay + drain + 5 s should fit the pod's terminationGracePeriodSeconds)",
            0, 3600),
    SERVER_MAX_CONNECTIONS("server.max-connections", "SVC_SERVER_MAX_CONNECTIONS", "0",
            "connections the API listener holds open at once; more wait in the socket's backlog until one closes. 0: "
            + "half of what the process's open-file limit leaves at start (after 64 for the management listener and 128 for "
            + "what opens later), the other half kept for the requests' outbound calls (a process out of file descriptors "
            + "cannot accept, and its listener would stop for good); a value over what the limit leaves refuses to start",
            0, 10_000_000),
    PUBLIC_URL("server.public-url", "SVC_PUBLIC_URL", "", "URL clients use to reach the backplane (default http://<host>:<port>)"),
    DATA_DIR("data.dir", "SVC_DATA_DIR", ".svc-local/data", "directory for the embedded database and other local state"),
    DB_URL("db.url", "SVC_DB_URL", "", "JDBC URL of a PostgreSQL 15+ database; empty starts an embedded PostgreSQL in data.dir"),
    DB_USER("db.user", "SVC_DB_USER", "", "database user (URL mode)"),
    DB_PASSWORD("db.password", "SVC_DB_PASSWORD", "", "database password (URL mode; prefer the environment variable)", Secrecy.SECRET),
    DB_POOL_SIZE("db.pool-size", "SVC_DB_POOL_SIZE", "16", "maximum JDBC connections", 1, 1000),
    DB_CONNECT_WAIT_SECONDS("db.connect-wait-seconds", "SVC_DB_CONNECT_WAIT_SECONDS", "30",
            "how long the kernel (and 'migrate') keeps trying, once a second, to reach the database at start before it "
                    + "exits 1 (URL mode); 0 tries once. Raise it where the database may start after the kernel",
            0, 3600),
    DB_EMBEDDED_PORT("db.embedded.port", "SVC_DB_EMBEDDED_PORT", "0", "port of the embedded PostgreSQL (0 picks a free port)", 0, 65535),
    DB_EMBEDDED_FSYNC("db.embedded.fsync", "SVC_DB_EMBEDDED_FSYNC", "true",
            "true: the embedded PostgreSQL flushes each commit to disk (fsync), so a commit the kernel answered for survives "
                    + "a power loss or OS crash; false: faster commits that survive any process crash but not the machine's "
                    + "(the test suite's setting)"),
    // running as one of N replicas (docs/guide/replicas.md)
    DB_MIGRATE_ON_START("db.migrate-on-start", "SVC_DB_MIGRATE_ON_START", "true",
            "true: the kernel applies pending Flyway migrations at start; false: it never changes the schema and refuses "
                    + "to start while migrations it needs are pending (run 'migrate' first, as a pre-upgrade job); a schema "
                    + "newer than it knows is accepted. false needs db.url (the embedded database is migrated at start)"),
    CREDENTIALS_FILE_SINGLE_REPLICA("credentials.file.single-replica", "SVC_CREDENTIALS_FILE_SINGLE_REPLICA", "false",
            "true allows the embedded file secret store (kv backend without a Vault address) with an external database "
                    + "(db.url), for a deploy that runs exactly one replica: the files under data.dir/kv are this "
                    + "process's own, so a second replica would see other secrets"),
    PLUGIN_DIR("plugins.dir", "SVC_PLUGIN_DIR", "plugin-repo", "directory the connector plugin jars are loaded from"),
    PLUGIN_CALL_TIMEOUT("plugins.call-timeout-seconds", "SVC_PLUGIN_CALL_TIMEOUT_SECONDS", "30",
            "how long one call into a plugin may take", 1, 3600),
    PLUGIN_COMPOSITE_TIMEOUT("plugins.composite-timeout-seconds", "SVC_PLUGIN_COMPOSITE_TIMEOUT_SECONDS", "1800",
            "how long one call of a composite operation (several requests with waits between them, such as Argo CD's "
            + "sync and wait) may take", 1, 86400),
    CATALOG_INDEX("catalog.index", "SVC_CATALOG_INDEX", "",
            "catalog index of ingestible vendor specs (default: catalog-index.json in the plugin directory)"),
    INGEST_MAX_SPEC_BYTES("catalog.ingest-max-spec-bytes", "SVC_INGEST_MAX_SPEC_BYTES", "33554432",
            "size cap of one vendor API spec at ingest", 1024, 1 << 30),
    INGEST_SYNC_MAX_BYTES("catalog.ingest-sync-max-bytes", "SVC_INGEST_SYNC_MAX_BYTES", "1048576",
            "specs up to this size are ingested within the request (200); bigger ones in a background job (202)", 0, 1 << 30),
    INGEST_EMBEDDINGS("catalog.ingest-embeddings", "SVC_INGEST_EMBEDDINGS", "true",
            "true: an ingest computes the new connector's operation embeddings as its last stage, so its first search is "
                    + "hybrid; false: the first search starts them, and searches rank by words only (retrieval: lexical) "
                    + "until they are in"),
    SEARCH_FIRST_WAIT_MS("catalog.search-first-wait-ms", "SVC_SEARCH_FIRST_WAIT_MS", "3000",
            "how long the first searches of a connector whose operation embeddings are not in yet (after a restart, on "
                    + "another replica, with catalog.ingest-embeddings false) wait for them before ranking by words only "
                    + "(retrieval: lexical)", 0, 60_000),
    RETRIEVAL_MODEL("retrieval.model", "SVC_RETRIEVAL_MODEL", "all-minilm-l6-v2-q",
            "the sentence-embedding model of kb, memory, conventions and operation search (in process, ONNX): "
                    + "all-minilm-l6-v2-q, bge-small-en-v1.5-q (docs/guide/memory-and-kb.md#the-embedding-model says how "
                    + "they compare); changing it re-embeds every entry in the background while searches go on with "
                    + "the previous model, and all replicas switch when it is done"),
    TARGET_SSRF_ALLOWLIST("targets.ssrf-allowlist", "SVC_TARGET_SSRF_ALLOWLIST", "",
            "CIDR ranges and host names targets may use although they are private or internal (comma-separated)"),
    CREDENTIALS_BACKEND("credentials.backend", "SVC_CREDENTIALS_BACKEND", "kv",
            "where secret_refs point: kv (Vault KV v2, or the embedded file store) or cloudsm"),
    VAULT_ADDR("credentials.vault.address", "SVC_VAULT_ADDR", "",
            "Vault address for the kv backend; empty uses the embedded file store under data.dir/kv"),
    VAULT_MOUNT("credentials.vault.mount", "SVC_VAULT_MOUNT", "secret", "the KV v2 mount secret_refs are relative to"),
    VAULT_NAMESPACE("credentials.vault.namespace", "SVC_VAULT_NAMESPACE", "", "Vault namespace header, if any"),
    VAULT_TOKEN("credentials.vault.token", "SVC_VAULT_TOKEN", "", "Vault token (or use AppRole)", Secrecy.SECRET),
    VAULT_ROLE_ID("credentials.vault.role-id", "SVC_VAULT_ROLE_ID", "", "Vault AppRole role id"),
    VAULT_SECRET_ID("credentials.vault.secret-id", "SVC_VAULT_SECRET_ID", "", "Vault AppRole secret id", Secrecy.SECRET),
    CREDENTIALS_TIMEOUT_MS("credentials.timeout-ms", "SVC_CREDENTIALS_TIMEOUT_MS", "3000",
            "timeout of one request to the secret store", 100, 60000),
    CLOUDSM_ENDPOINT("credentials.cloudsm.endpoint", "SVC_CLOUDSM_ENDPOINT", "https://secretmanager.googleapis.com",
            "Google Secret Manager API root (cloudsm backend)"),
    CLOUDSM_PROJECT("credentials.cloudsm.project", "SVC_CLOUDSM_PROJECT", "",
            "Secret Manager project the backplane keeps its own secrets in (event-source secrets, as "
                    + "t-<tenant-id>-event-source-<id>); empty: event sources cannot be created on a cloudsm deploy"),
    CLOUDSM_TOKEN("credentials.cloudsm.token", "SVC_CLOUDSM_TOKEN", "",
            "a fixed OAuth access token for Secret Manager (expires; for trials): empty uses Google credentials instead",
            Secrecy.SECRET),
    CLOUDSM_CREDENTIALS_FILE("credentials.cloudsm.credentials-file", "SVC_CLOUDSM_CREDENTIALS_FILE", "",
            "service-account or workload-identity JSON for Secret Manager; empty: Application Default Credentials "
                    + "(GOOGLE_APPLICATION_CREDENTIALS, gcloud's login, the metadata server); tokens are refreshed before they expire"),
    RESULT_HANDLE_TTL("results.handle-ttl-minutes", "SVC_RESULT_HANDLE_TTL_MINUTES", "60",
            "how long a stored (reduced) result can be queried", 1, 10080),
    RESULT_HANDLE_MAX_BYTES("results.handle-max-bytes", "SVC_RESULT_HANDLE_MAX_BYTES", "67108864",
            "the most bytes of JSON one reduced result is stored with; a larger one answers its sample with "
                    + "drill_in.available false and the reason", 4096, 1073741824L),
    APPROVAL_TTL("governance.approval-ttl-minutes", "SVC_APPROVAL_TTL_MINUTES", "1440",
            "how long an approval request stays pending before it expires", 1, 43200),
    IDENTITY_ISSUER("identity.issuer", "SVC_IDENTITY_ISSUER", "", "OIDC issuer URL whose tokens are accepted (required)"),
    IDENTITY_JWKS_URL("identity.jwks-url", "SVC_IDENTITY_JWKS_URL", "", "JWKS URL (default: jwks_uri from the issuer's discovery document)"),
    IDENTITY_AUDIENCE("identity.audience", "SVC_IDENTITY_AUDIENCE", "svc-backplane", "audience required in REST tokens"),
    IDENTITY_MCP_AUDIENCE("identity.mcp-audience", "SVC_IDENTITY_MCP_AUDIENCE", "", "audience required in /mcp tokens (default <public-url>/mcp)"),
    IDENTITY_MCP_CLIENT_ID("identity.mcp-client-id", "SVC_IDENTITY_MCP_CLIENT_ID", "svc-mcp",
            "public OIDC client of MCP agents; its tokens are of principal kind user-agent"),
    MEMORY_USER_DEFAULT_TTL_DAYS("memory.user-default-ttl-days", "SVC_MEMORY_USER_DEFAULT_TTL_DAYS", "7",
            "lifetime of user-scope memory written without a ttl", 1, 3650),
    CONVENTIONS_MCP_TOKEN_BUDGET("conventions.mcp-token-budget", "SVC_CONVENTIONS_MCP_TOKEN_BUDGET", "2000",
            "estimated tokens (characters / 4) of operational conventions packed into agent instructions (MCP "
            + "initialize, server/discover, agent runs); 0 packs none", 0, 1_000_000),
    KB_INGEST_ROOT("kb.ingest-root", "SVC_KB_INGEST_ROOT", "",
            "the host directory tree `svc kb ingest` reads, one folder per tenant named by its id (<root>/<tenant-id>/); "
                    + "default <data.dir>/kb-import; off disables ingest"),
    DOCS_BACKEND_TIMEOUT_MS("docs.backend-timeout-ms", "SVC_DOCS_BACKEND_TIMEOUT_MS", "10000",
            "timeout of one call to a doc collection's retrieval backend (docs add-on)", 100, 600_000),
    CACHE_MAX_STALE_SECONDS("cache.max-stale-seconds", "SVC_CACHE_MAX_STALE_SECONDS", "15",
            "longest a replica serves a cached review state, target, agent principal or event source if a change "
            + "notification from another replica is lost", 1, 3600),
    EVENTS_MAX_BODY_BYTES("events.max-body-bytes", "SVC_EVENTS_MAX_BODY_BYTES", "1048576",
            "largest webhook body accepted (a source's extras.max_body_bytes may lower it, never raise it)", 1024, 64 << 20),
    EVENTS_RATE_PER_SECOND("events.rate-per-second", "SVC_EVENTS_RATE_PER_SECOND", "100",
            "default per-source ingest rate, shared by all replicas (extras.rate_per_second, extras.burst override it)", 1, 100_000),
    EVENTS_RETENTION_DAYS("events.retention-days", "SVC_EVENTS_RETENTION_DAYS", "30",
            "how long accepted events are kept (and so how long a redelivered id is recognised)", 1, 3650),
    BROADCAST_RETENTION_DAYS("broadcast.retention-days", "SVC_BROADCAST_RETENTION_DAYS", "30",
            "how long broadcast activity events are kept (broadcast recent pages back this far)", 1, 3650),
    BROADCAST_AGGREGATE_WINDOW_SECONDS("broadcast.aggregate-window-seconds", "SVC_BROADCAST_AGGREGATE_WINDOW_SECONDS",
            "60", "window over which an override with detail aggregate collapses matching events into one count", 5, 3600),
    BROADCAST_HEARTBEAT_SECONDS("broadcast.heartbeat-seconds", "SVC_BROADCAST_HEARTBEAT_SECONDS", "15",
            "how often a quiet broadcast stream sends a heartbeat comment", 1, 300),
    BROADCAST_SUBSCRIBER_BUFFER("broadcast.subscriber-buffer", "SVC_BROADCAST_SUBSCRIBER_BUFFER", "1000",
            "events a broadcast stream may have waiting before it is dropped as a slow consumer", 10, 100000),
    BROADCAST_MAX_STREAMS("broadcast.max-streams-per-tenant", "SVC_BROADCAST_MAX_STREAMS_PER_TENANT", "100",
            "broadcast streams a tenant may have open on one replica; more answer 429 too_many_streams", 1, 10000),
    SCHEDULER_CRON_MIN_INTERVAL_SECONDS("scheduler.cron-min-interval-seconds", "SVC_SCHEDULER_CRON_MIN_INTERVAL_SECONDS",
            "60", "the shortest interval a cron trigger's schedule may have between two firings", 1, 86400),
    TOPOLOGY_HISTORY_RETENTION_DAYS("topology.history-retention-days", "SVC_TOPOLOGY_HISTORY_RETENTION_DAYS", "90",
            "how long replaced and removed topology edge versions are kept (diff, history and timeline look back this far)",
            1, 3650),
    TOPOLOGY_REFRESH_INTERVAL_MINUTES("topology.refresh-interval-minutes", "SVC_TOPOLOGY_REFRESH_INTERVAL_MINUTES", "60",
            "how often each discoverable (Kubernetes, Keycloak) target is refreshed for auto topology edges; 0 turns the "
            + "scheduled refresh off (svc topology refresh still works)", 0, 10080),
    LOG_FORMAT("log.format", "SVC_LOG_FORMAT", "text",
            "text (for people at a terminal) or json (one object a line with request_id and tenant_id, for log shippers)"),
    LOG_ACCESS("log.access", "SVC_LOG_ACCESS", "true",
            "true: one access-log line a request (logger svc.access: request id, principal kind, route template, status, "
                    + "duration); false: none"),
    TRACING_OTLP_ENDPOINT("tracing.otlp-endpoint", "SVC_TRACING_OTLP_ENDPOINT", "",
            "OTLP/HTTP traces endpoint, e.g. http://127.0.0.1:4318/v1/traces: a span per request and per dispatch "
                    + "stage; empty: tracing off"),
    TRACING_EXPORT_DELAY_MS("tracing.export-delay-ms", "SVC_TRACING_EXPORT_DELAY_MS", "2000",
            "how long finished spans wait to be exported in a batch", 10, 60000),
    // Kubernetes-shaped configuration (issue 40): a private CA bundle, Vault's Kubernetes auth, the log level
    TLS_CA_BUNDLE("tls.ca-bundle", "SVC_TLS_CA_BUNDLE", "",
            "PEM file of one or more CA certificates trusted in addition to the JDK's roots by the kernel's outbound "
                    + "TLS: the identity provider (discovery, JWKS), Vault, Google Secret Manager and targets without a "
                    + "tls_ca_pin; a missing file or one without a certificate stops the start; empty: the JDK's roots only"),
    VAULT_AUTH_METHOD("credentials.vault.auth-method", "SVC_VAULT_AUTH_METHOD", "",
            "how the kernel logs in to Vault: token, approle or kubernetes (a projected service-account token); "
                    + "empty: token when credentials.vault.token is set, else approle"),
    VAULT_KUBERNETES_ROLE("credentials.vault.kubernetes.role", "SVC_VAULT_KUBERNETES_ROLE", "",
            "the Vault role of the kubernetes auth method (required with auth-method kubernetes)"),
    VAULT_KUBERNETES_MOUNT("credentials.vault.kubernetes.mount", "SVC_VAULT_KUBERNETES_MOUNT", "kubernetes",
            "the path the kubernetes auth method is mounted at (login is POST /v1/auth/<mount>/login)"),
    VAULT_KUBERNETES_TOKEN_FILE("credentials.vault.kubernetes.token-file", "SVC_VAULT_KUBERNETES_TOKEN_FILE",
            "/var/run/secrets/kubernetes.io/serviceaccount/token",
            "the pod's service-account token sent as the login's jwt; re-read at each login (projected tokens rotate)"),
    LOG_LEVEL("log.level", "SVC_LOG_LEVEL", "INFO",
            "the least severe level logged: ERROR, WARN (WARNING), INFO, DEBUG (FINE) or TRACE (FINEST); the "
                    + "PostgreSQL driver stays at INFO whatever is set (below it, it logs bind values)"),
    METRICS_ENABLED("metrics.enabled", "SVC_METRICS_ENABLED", "true",
            "true: Prometheus metrics at GET /metrics (no token; no tenant data in it); false: the route answers 404"),
    MCP_REQUIRED_SCOPE("mcp.required-scope", "SVC_MCP_REQUIRED_SCOPE", "svc:mcp",
            "scope every /mcp token must carry (advertised in the protected-resource metadata; empty: none)"),
    MCP_ALLOWED_ORIGINS("mcp.allowed-origins", "SVC_MCP_ALLOWED_ORIGINS", "",
            "browser Origins allowed on /mcp besides localhost (comma-separated; * for any)"),
    CONSOLE_CLIENT_ID("console.client-id", "SVC_CONSOLE_CLIENT_ID", "svc-console",
            "public OIDC client of the web console (/ui; authorization code + PKCE, redirect <public-url>/ui/callback)"),
    CONSOLE_SESSION_TTL_MINUTES("console.session-ttl-minutes", "SVC_CONSOLE_SESSION_TTL_MINUTES", "480",
            "how long a console sign-in lasts (sessions live in PostgreSQL, so any replica serves them)", 5, 10080),
    CONSOLE_REVALIDATE_SECONDS("console.revalidate-seconds", "SVC_CONSOLE_REVALIDATE_SECONDS", "300",
            "how often a console session is re-checked with the identity provider (refresh token redeemed, role, "
                    + "tenant and platform_admin rebuilt; a refused refresh ends the session)", 1, 3600),
    IDENTITY_CLI_CLIENT_ID("identity.cli-client-id", "SVC_IDENTITY_CLI_CLIENT_ID", "svc-cli", "public OIDC client the CLI logs in with (advertised to `svc login`)"),
    IDENTITY_CLOCK_SKEW("identity.clock-skew-seconds", "SVC_IDENTITY_CLOCK_SKEW_SECONDS", "30", "tolerated clock skew for exp/nbf/iat", 0, 600),
    IDENTITY_ALGORITHMS("identity.algorithms", "SVC_IDENTITY_ALGORITHMS", "RS256,RS384,RS512,PS256,PS384,PS512,ES256,ES384,ES512",
            "accepted JWS signature algorithms (comma-separated allow-list)"),
    AGENTS_MODEL_PROVIDER("agents.model.provider", "SVC_AGENTS_MODEL_PROVIDER", "openai",
            "model provider of agent runs: openai (any OpenAI-compatible endpoint: vLLM, Ollama, LiteLLM) or anthropic"),
    AGENTS_MODEL_BASE_URL("agents.model.base-url", "SVC_AGENTS_MODEL_BASE_URL", "",
            "base URL of the model endpoint (e.g. https://api.openai.com/v1); empty: agent runs answer model_not_configured"),
    AGENTS_MODEL_API_KEY_REF("agents.model.api-key-ref", "SVC_AGENTS_MODEL_API_KEY_REF", "",
            "secret_ref of the model API key (platform scope, field api_key); empty sends no key"),
    AGENTS_MODEL_STANDARD("agents.model.standard", "SVC_AGENTS_MODEL_STANDARD", "gpt-4.1-mini",
            "model name of the standard tier"),
    AGENTS_MODEL_FAST("agents.model.fast", "SVC_AGENTS_MODEL_FAST", "", "model name of the fast tier (empty: standard's)"),
    AGENTS_MODEL_DEEP("agents.model.deep", "SVC_AGENTS_MODEL_DEEP", "", "model name of the deep tier (empty: standard's)"),
    AGENTS_MODEL_TIMEOUT_SECONDS("agents.model.timeout-seconds", "SVC_AGENTS_MODEL_TIMEOUT_SECONDS", "120",
            "how long one model call of a run may take", 1, 3600),
    AGENTS_RUN_LEASE_SECONDS("agents.run-lease-seconds", "SVC_AGENTS_RUN_LEASE_SECONDS", "90",
            "how long a running agent run stays claimed by its kernel without a heartbeat; after that the reaper fails it",
            5, 3600),
    REAPERS_INTERVAL_SECONDS("reapers.interval-seconds", "SVC_REAPERS_INTERVAL_SECONDS", "60",
            "how often the crash reapers run: audit rows a dead kernel left started, async runs whose lease lapsed, "
            + "background jobs nobody updates", 1, 3600),
    REAPERS_AUDIT_STARTED_MARGIN_SECONDS("reapers.audit-started-margin-seconds",
            "SVC_REAPERS_AUDIT_STARTED_MARGIN_SECONDS", "300",
            "an audit row still started this long after the longest call may take (plugins.composite-timeout-seconds or "
            + "plugins.call-timeout-seconds, whichever is longer) is closed as error/outcome_unknown", 1, 86400),
    REAPERS_JOB_STALE_SECONDS("reapers.job-stale-seconds", "SVC_REAPERS_JOB_STALE_SECONDS", "300",
            "a background job (spec or kb ingest) whose row nobody updated for this long is failed as abandoned (its "
            + "kernel died); keep it well above the longest step a job takes between two progress reports", 5, 86400),
    // the audit log at scale (docs/operations/audit-log.md)
    AUDIT_PARTITIONS_AHEAD_MONTHS("audit.partitions-ahead-months", "SVC_AUDIT_PARTITIONS_AHEAD_MONTHS", "3",
            "how many monthly partitions of the audit log exist ahead of the current month (created daily)", 1, 24),
    AUDIT_CHAIN_ENABLED("audit.chain.enabled", "SVC_AUDIT_CHAIN_ENABLED", "true",
            "true: committed audit rows are linked into each tenant's hash chain every audit.chain.interval-seconds "
            + "(off only to measure what chaining costs; verify then reports the rows as not chained)"),
    AUDIT_CHAIN_INTERVAL_SECONDS("audit.chain.interval-seconds", "SVC_AUDIT_CHAIN_INTERVAL_SECONDS", "2",
            "how often committed audit rows are chained (the chain, and so the SIEM stream, lag the log by about this)",
            1, 3600),
    AUDIT_SEAL_KEY("audit.seal.key", "SVC_AUDIT_SEAL_KEY", "",
            "HMAC-SHA256 key (base64, at least 32 bytes) that seals each tenant's chain head; keep it out of the "
            + "database (a Kubernetes Secret, the environment). Empty: heads are recorded unsealed, and verify says the "
            + "chain then detects edits but not a rewrite of the whole chain by someone with write access to the database",
            Secrecy.SECRET),
    AUDIT_SEAL_INTERVAL_SECONDS("audit.seal.interval-seconds", "SVC_AUDIT_SEAL_INTERVAL_SECONDS", "60",
            "how often each tenant's moved chain head is sealed", 1, 86400),
    AUDIT_RETENTION_DAYS("audit.retention.default-days", "SVC_AUDIT_RETENTION_DAYS", "400",
            "audit retention of a tenant that has not set its own (days)", 1, 36500),
    AUDIT_RETENTION_MIN_DAYS("audit.retention.min-days", "SVC_AUDIT_RETENTION_MIN_DAYS", "365",
            "the shortest retention a tenant may set (days): what the deploy's auditors require", 1, 36500),
    AUDIT_ARCHIVE_DIR("audit.archive.dir", "SVC_AUDIT_ARCHIVE_DIR", "",
            "directory (a mounted volume) a partition is archived to before retention drops it; empty: no partition "
            + "is ever dropped"),
    AUDIT_RETENTION_INTERVAL_SECONDS("audit.retention.interval-seconds", "SVC_AUDIT_RETENTION_INTERVAL_SECONDS", "3600",
            "how often partitions are created ahead and expired ones archived and dropped", 1, 86400),
    AUDIT_STREAM_SYSLOG_ADDRESS("audit.stream.syslog.address", "SVC_AUDIT_STREAM_SYSLOG_ADDRESS", "",
            "host:port of a syslog receiver (RFC 5424 over TLS, RFC 5425 framing) every committed audit row is streamed "
            + "to; empty: off"),
    AUDIT_STREAM_SYSLOG_CA_FILE("audit.stream.syslog.ca-file", "SVC_AUDIT_STREAM_SYSLOG_CA_FILE", "",
            "PEM file of the CA the syslog receiver's certificate is checked against (empty: the JDK's trust store)"),
    AUDIT_STREAM_SYSLOG_FORMAT("audit.stream.syslog.format", "SVC_AUDIT_STREAM_SYSLOG_FORMAT", "json",
            "payload of each syslog message: json or cef"),
    AUDIT_STREAM_HTTP_URL("audit.stream.http.url", "SVC_AUDIT_STREAM_HTTP_URL", "",
            "HTTP(S) endpoint committed audit rows are POSTed to in batches of JSON; empty: off"),
    AUDIT_STREAM_HTTP_TOKEN("audit.stream.http.token", "SVC_AUDIT_STREAM_HTTP_TOKEN", "",
            "bearer token sent to the HTTP stream endpoint", Secrecy.SECRET),
    AUDIT_STREAM_BATCH("audit.stream.batch", "SVC_AUDIT_STREAM_BATCH", "500",
            "rows per syslog burst or HTTP batch", 1, 10000),
    IDENTITY_JWKS_CACHE_SECONDS("identity.jwks-cache-seconds", "SVC_IDENTITY_JWKS_CACHE_SECONDS", "300",
            "how long fetched signing keys are cached (an unknown kid refetches at once)", 1, 86400),
    SENSORS_RESULTS_RETENTION_DAYS("sensors.results-retention-days", "SVC_SENSORS_RESULTS_RETENTION_DAYS", "7",
            "how long sensor results are kept (`svc sensor results` pages back this far)", 1, 3650),
    SENSORS_MAX_CONCURRENT_RUNS("sensors.max-concurrent-runs", "SVC_SENSORS_MAX_CONCURRENT_RUNS", "64",
            "sensor calls one kernel runs at once (more due sensors wait for a free slot)", 1, 10000),
    DASHBOARDS_NOTIFY_SUPPRESSION_MINUTES("dashboards.notify-suppression-minutes",
            "SVC_DASHBOARDS_NOTIFY_SUPPRESSION_MINUTES", "30",
            "after a dashboard notifies (mail, investigator run), further transitions stay quiet this long", 0, 10080),
    MAIL_SMTP_HOST("mail.smtp-host", "SVC_MAIL_SMTP_HOST", "",
            "SMTP server for dashboard notification mail; empty: no mail is sent (refusals are still audited)"),
    MAIL_SMTP_PORT("mail.smtp-port", "SVC_MAIL_SMTP_PORT", "587", "SMTP port", 1, 65535),
    MAIL_SMTP_TLS("mail.smtp-tls", "SVC_MAIL_SMTP_TLS", "starttls",
            "none, starttls (required, with the server's certificate and name checked) or tls (implicit TLS)"),
    MAIL_FROM("mail.from", "SVC_MAIL_FROM", "svc-backplane@localhost", "sender address of notification mail"),
    MAIL_SMTP_USERNAME("mail.smtp-username", "SVC_MAIL_SMTP_USERNAME", "", "SMTP login; empty: no authentication"),
    MAIL_SMTP_PASSWORD_REF("mail.smtp-password-ref", "SVC_MAIL_SMTP_PASSWORD_REF", "",
            "secret_ref of the SMTP password (platform scope, field password), read at each send"),
    MAIL_SMTP_TIMEOUT_MS("mail.smtp-timeout-ms", "SVC_MAIL_SMTP_TIMEOUT_MS", "10000",
            "connect, read and write timeout of the SMTP conversation", 100, 600000),
    NOTIFICATIONS_RETRY_INITIAL_SECONDS("notifications.retry-initial-seconds",
            "SVC_NOTIFICATIONS_RETRY_INITIAL_SECONDS", "10",
            "approval notifications: wait after a failed delivery (mail or webhook) before the next attempt; it doubles "
            + "after each further failure", 1, 3600),
    NOTIFICATIONS_RETRY_MAX_SECONDS("notifications.retry-max-seconds", "SVC_NOTIFICATIONS_RETRY_MAX_SECONDS", "900",
            "approval notifications: the longest wait between two attempts (at least the initial wait)", 1, 86400),
    NOTIFICATIONS_MAX_ATTEMPTS("notifications.max-attempts", "SVC_NOTIFICATIONS_MAX_ATTEMPTS", "10",
            "approval notifications: attempts a message gets before it is kept as failed (and audited)", 1, 100),
    NOTIFICATIONS_WEBHOOK_TIMEOUT_MS("notifications.webhook-timeout-ms", "SVC_NOTIFICATIONS_WEBHOOK_TIMEOUT_MS",
            "10000", "approval notifications: connect and answer timeout of a webhook POST", 100, 120000);

    /** Marks a setting whose value is a secret. */
    private enum Secrecy { SECRET }

    /** The range a whole-number setting's value must lie in (checked at start). */
    public record Range(long min, long max) {
    }

    /**
     * What a setting declares, beyond the key and environment variable it is looked up by.
     *
     * @param secret whether the value is a secret: never logged, never shown by {@code toString()}
     * @param range for a whole-number setting, the range its value must lie in; empty for a text setting
     */
    public record Definition(String key, String envVar, String defaultValue, String description, boolean secret,
                             Optional<Range> range) {
    }

    private final Definition definition;

    /** A text setting. */
    Setting(String key, String envVar, String defaultValue, String description) {
        this.definition = new Definition(key, envVar, defaultValue, description, false, Optional.empty());
    }

    /** A secret text setting: never logged, never shown by {@code toString()}. */
    Setting(String key, String envVar, String defaultValue, String description, Secrecy secret) {
        this.definition = new Definition(key, envVar, defaultValue, description, true, Optional.empty());
    }

    /** A whole-number setting and the range a value must lie in (checked at start). */
    Setting(String key, String envVar, String defaultValue, String description, long min, long max) {
        this.definition = new Definition(key, envVar, defaultValue, description, false,
                Optional.of(new Range(min, max)));
    }

    public String key() {
        return definition.key();
    }

    public String envVar() {
        return definition.envVar();
    }

    /**
     * The name SPEC gives the setting, when it differs from {@link #envVar()}: accepted too, the {@code SVC_} name
     * winning when both are set.
     */
    public Optional<String> specEnvVar() {
        return this == MEMORY_USER_DEFAULT_TTL_DAYS ? Optional.of("MEMORY_USER_DEFAULT_TTL_DAYS") : Optional.empty();
    }

    /**
     * For a secret setting, the environment variable naming a file its value is read from ({@code SVC_X_FILE}, a
     * mounted Kubernetes secret, say; trailing line breaks are dropped); empty for any other setting.
     */
    public Optional<String> fileEnvVar() {
        return definition.secret() ? Optional.of(envVar() + "_FILE") : Optional.empty();
    }

    public String defaultValue() {
        return definition.defaultValue();
    }

    /** The description, whether it is secret and, for a number, its range. */
    public Definition definition() {
        return definition;
    }
}
