package dev.backplane.kernel.app;

import dev.backplane.kernel.dispatch.DispatchEvents;
import dev.backplane.kernel.events.EventDrain;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.ErrorMapping;
import dev.backplane.kernel.http.ApiLevel;
import dev.backplane.kernel.http.RequestIds;
import dev.backplane.kernel.http.RequestTelemetry;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Database;
import dev.backplane.kernel.persistence.Jdbc;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * A running backplane: the database, the services wired with plain constructors, and the HTTP
 * server. {@link #start} is what {@link Main} and the integration tests call.
 */
public final class Kernel implements AutoCloseable {

    /** Socket options of accepted connections: TCP_NODELAY on. */
    private static final io.helidon.common.socket.SocketOptions NO_DELAY = io.helidon.common.socket.SocketOptions.builder()
            .tcpNoDelay(true).build();

    private static final System.Logger LOG = System.getLogger(Kernel.class.getName());
    /** The name of the management listener's socket ({@link Setting#SERVER_MANAGEMENT_PORT}). */
    private static final String MANAGEMENT = "management";

    private final KernelConfig config;
    /** The database, the change feed, the dispatch hook and the event drain are the services'. */
    private final KernelServices services;
    private final WebServer server;
    private final ApiRoutes api;
    private final Closer closing;
    private final GracefulShutdown shutdown;

    private Kernel(KernelConfig config, KernelServices services, WebServer server, ApiRoutes api, Closer closing,
                   GracefulShutdown shutdown) {
        this.config = config;
        this.services = services;
        this.server = server;
        this.api = api;
        this.closing = closing;
        this.shutdown = shutdown;
    }

    /** Resources the kernel owns besides the server and the database, closed in reverse order. */
    static final class Closer {
        private final java.util.ArrayDeque<AutoCloseable> resources = new java.util.ArrayDeque<>();

        <T extends AutoCloseable> T add(T resource) {
            resources.push(resource);
            return resource;
        }

        void closeAll() {
            while (!resources.isEmpty()) {
                try {
                    resources.pop().close();
                } catch (Exception e) {
                    LOG.log(Level.WARNING, "closing " + e.getMessage());
                }
            }
        }
    }

    /**
     * The embedding model's runtime (onnxruntime) and its tokenizer unpack native libraries into the JVM's temp
     * directory on first use: one that cannot be written would fail the first kb or memory write, so it stops the
     * start instead (a read-only root filesystem needs a writable {@code /tmp} volume).
     */
    static void requireWritableTempDir(String tmpdir) {
        try {
            java.nio.file.Files.delete(java.nio.file.Files.createTempFile(java.nio.file.Path.of(tmpdir), "svc-start", ".probe"));
        } catch (java.io.IOException | RuntimeException e) {
            throw new KernelConfig.ConfigException("the temp directory java.io.tmpdir=" + tmpdir + " cannot be written ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage() + "); the embedding model unpacks its "
                    + "native libraries there: mount a writable volume there (an emptyDir at /tmp on Kubernetes, "
                    + "--tmpfs /tmp with podman --read-only) or point -Djava.io.tmpdir at one");
        }
    }

    public static Kernel start(KernelConfig config) {
        long t0 = System.nanoTime();
        String issuer = config.required(Setting.IDENTITY_ISSUER);
        requireWritableTempDir(System.getProperty("java.io.tmpdir"));
        Database database = Database.start(config.database());
        Closer closing = new Closer();
        try {
            ChangeFeed feed = closing.add(ChangeFeed.listening(database::dedicatedConnection,
                    new Jdbc(database.dataSource()),
                    Duration.ofSeconds(config.intValue(Setting.CACHE_MAX_STALE_SECONDS))));
            DispatchEvents dispatchEvents = new DispatchEvents();
            EventDrain drain = closing.add(new EventDrain(new Jdbc(database.dataSource()), feed));
            java.util.concurrent.atomic.AtomicReference<WebServer> started = new java.util.concurrent.atomic.AtomicReference<>();
            java.util.function.Supplier<String> publicUrl = () -> {
                WebServer server = started.get();
                if (server == null && config.optional(Setting.PUBLIC_URL).isEmpty()
                        && config.intValue(Setting.SERVER_PORT) == 0) {
                    // a background job before the listener binds a port picked at start: no address to give yet
                    throw new IllegalStateException("the kernel's port is not bound yet");
                }
                return publicUrl(config, server == null ? -1 : server.port());
            };
            KernelServices services = new KernelServices(config, database, feed, dispatchEvents, drain, issuer, closing,
                    publicUrl);
            GracefulShutdown shutdown = GracefulShutdown.of(config);
            ListenerWatch listenerWatch = closing.add(new ListenerWatch());
            ApiRoutes api = KernelRoutes.register(config, services, publicUrl, shutdown::draining,
                    listenerWatch::accepting);
            BuildInfo build = BuildInfo.load();
            HttpRouting.Builder routing = HttpRouting.builder().addFilter(shutdown).addFilter(new RequestIds())
                    .addFilter(new RequestTelemetry(services.metrics, config.boolValue(Setting.LOG_ACCESS),
                            services.tracing.tracer(), services.tracing.propagator()))
                    .addFilter(new ApiLevel(build.apiLevel(), build.version()));
            api.applyTo(routing);
            KernelRoutes.console(config, services, publicUrl).register(routing);
            ErrorMapping.register(routing);
            ConnectionBudget connections = ConnectionBudget.of(config);
            var serverBuilder = WebServer.builder()
                    .host(config.get(Setting.SERVER_HOST))
                    .port(config.intValue(Setting.SERVER_PORT))
                    .maxTcpConnections(connections.api())
                    .directHandlers(ErrorMapping.directHandlers())
                    // answers go out at once: with Nagle's algorithm a response written as headers then body waits for
                    // the client's delayed ACK (up to 40 ms on Linux) before its last segment (bench/run audit saw it)
                    .connectionOptions(NO_DELAY)
                    .routing(routing)
                    .shutdownHook(false);
            if (KernelRoutes.hasManagementListener(config)) {
                HttpRouting.Builder management = HttpRouting.builder();
                KernelRoutes.management(config, services, shutdown::draining, listenerWatch::accepting,
                        new ApiRoutes(services.restAuthenticator)).applyTo(management);
                ErrorMapping.register(management);
                serverBuilder.putSocket(MANAGEMENT, socket -> socket.host(config.get(Setting.SERVER_HOST))
                        .port(config.intValue(Setting.SERVER_MANAGEMENT_PORT)).connectionOptions(NO_DELAY)
                        .maxTcpConnections(ConnectionBudget.MANAGEMENT).routing(management));
            }
            WebServer server = serverBuilder.build().start();
            started.set(server);
            listenerWatch.watch(config.get(Setting.SERVER_HOST), server.port());
            LOG.log(connections.warns() ? Level.WARNING : Level.INFO, connections.describe());
            services.retrieval.warmInBackground(); // large kb/memory partitions: read now, not on their first search
            Kernel kernel = new Kernel(config, services, server, api, closing, shutdown);
            LOG.log(Level.INFO, "svc backplane " + BuildInfo.load().version() + " ready at " + kernel.url() + " in "
                    + Duration.ofNanos(System.nanoTime() - t0).toMillis() + " ms; trusting tokens from " + issuer);
            return kernel;
        } catch (RuntimeException e) {
            closing.closeAll();
            database.close();
            throw e;
        }
    }

    static String mcpAudience(KernelConfig config) {
        return config.optional(Setting.IDENTITY_MCP_AUDIENCE).orElseGet(() -> publicUrl(config, -1) + "/mcp");
    }

    private static String publicUrl(KernelConfig config, int boundPort) {
        return config.optional(Setting.PUBLIC_URL).map(u -> u.replaceAll("/+$", "")).orElseGet(() -> {
            int port = boundPort > 0 ? boundPort : config.intValue(Setting.SERVER_PORT);
            String host = config.get(Setting.SERVER_HOST);
            return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        });
    }

    public int port() {
        return server.port();
    }

    /** The URL clients reach this kernel at. */
    public String url() {
        return publicUrl(config, server.port());
    }

    /** The management listener's port (health, /metrics), if the kernel has one. */
    public java.util.OptionalInt managementPort() {
        return KernelRoutes.hasManagementListener(config) ? java.util.OptionalInt.of(server.port(MANAGEMENT))
                : java.util.OptionalInt.empty();
    }

    public Database database() {
        return services.database;
    }

    /** The event-log drain: subscribers register here to receive accepted events. */
    public EventDrain eventDrain() {
        return services.drain;
    }

    /** The cross-replica cache invalidation feed (live once its LISTEN connection is up). */
    public ChangeFeed changeFeed() {
        return services.feed;
    }

    /** The pipeline's broadcast hook: subscribers hear every finished dispatch. */
    public DispatchEvents dispatchEvents() {
        return services.dispatchEvents;
    }

    public ApiRoutes api() {
        return api;
    }

    /**
     * Leaves the set of replicas without failing anyone (SIGTERM), then closes: see {@link GracefulShutdown}.
     * Agent runs are handed off to other replicas, SSE streams end with a last event, requests and calls in
     * flight finish within the drain time.
     */
    public void shutdown() {
        shutdown.drain(new GracefulShutdown.Work() {
            private Thread jobsStopping;

            @Override
            public void beginHandOff() {
                services.agentRuns.handOff();
                services.broadcastHub.endStreams();
                // no new sensor runs, cron firings or sweeps here; jobs in flight finish (db-scheduler waits for them)
                jobsStopping = Thread.ofVirtual().name("periodic-jobs-stop").start(services.periodicJobs::close);
            }

            @Override
            public boolean awaitSettled(java.time.Instant deadline) throws InterruptedException {
                boolean calls = services.runs.awaitIdle(deadline);
                boolean runs = services.agentRuns.awaitHandedOff(deadline);
                jobsStopping.join(Duration.between(java.time.Instant.now(), deadline).isNegative() ? Duration.ofMillis(1)
                        : Duration.between(java.time.Instant.now(), deadline));
                return calls && runs && !jobsStopping.isAlive();
            }
        });
        close();
    }

    /** Whether this kernel is shutting down (readiness answers 503). */
    public boolean draining() {
        return shutdown.draining();
    }

    @Override
    public void close() {
        server.stop();
        closing.closeAll();
        services.database.close();
        LOG.log(Level.INFO, "svc backplane stopped");
    }
}
