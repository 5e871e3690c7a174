package dev.backplane.plugins.openapi;

import static java.util.Objects.requireNonNull;

import dev.backplane.plugin.api.Redaction;
import dev.backplane.plugin.api.CompositeStep;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ProductProbe;
import dev.backplane.plugin.api.TargetSpec;
import java.lang.System.Logger.Level;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One session of an ingested connector against one target: each call is one HTTP request built from
 * the operation's params, authenticated by the connector's scheme, except a composite operation, whose
 * child requests take that same path one by one. A 401 on a cached session token logs in again once and
 * retries once.
 */
final class OpenApiSession implements Connector {

    private static final Pattern SERVER_VERSION = Pattern.compile("([A-Za-z][\\w.-]*)/v?(\\d[\\w.+-]*)");

    private final OpenApiConnectorFactory factory;
    private final ConnectorContext ctx;
    private final TargetSpec target;
    private final Credential credential;
    private final Scrubber scrubber = new Scrubber();
    private final VendorClient vendor;
    private final ResponseMapper mapper;
    private final Authenticator auth;
    private boolean secretsRegistered;

    OpenApiSession(OpenApiConnectorFactory factory, ConnectorContext ctx, TargetSpec target, Credential credential) {
        this.factory = requireNonNull(factory, "factory is null");
        this.ctx = requireNonNull(ctx, "ctx is null");
        this.target = requireNonNull(target, "target is null");
        this.credential = requireNonNull(credential, "credential is null");
        this.vendor = new VendorClient(ctx, target, scrubber);
        this.mapper = new ResponseMapper(scrubber);
        SessionLogin login = new SessionLogin(factory.auth(), vendor, mapper, credential, ctx.clock());
        this.auth = new Authenticator(factory.auth(), factory.sessions(), credential, login, scrubber, ctx.clock(),
                ctx.logger(), List.of(vendor.origin(), factory.basePath(),
                        vendor.loginScope(factory.auth().setting("login_path").orElse(""))));
    }

    @Override
    public OperationResult invoke(OperationRequest request) {
        if (factory.isComposite(request.opId())) {
            return ArgoCdComposites.run(request, this::step, ctx);
        }
        Optional<OperationDescriptor> op = factory.operation(request.opId());
        if (op.isEmpty()) {
            return new OperationResult.Failure(ErrorCode.UNKNOWN_OPERATION, factory.descriptor().connectorId()
                    + " has no operation " + request.opId(), Map.of());
        }
        try {
            return send(op.get(), plan(op.get(), request.params()), ctx.timeout());
        } catch (ConnectorException e) {
            return failure(e);
        }
    }

    /**
     * One child request of a composite: planned first (bad params are refused before anything is audited or
     * sent), then audited as a step of the composite (the kernel writes its row or refuses), then sent.
     */
    private Object step(String opId, Map<String, Object> params, Instant deadline) {
        OperationDescriptor op = factory.operation(opId).orElseThrow(() -> new ConnectorException(
                ErrorCode.UNKNOWN_OPERATION, factory.descriptor().connectorId() + " has no operation " + opId));
        PlannedRequest planned = plan(op, params);
        try (CompositeStep step = ctx.beginStep(opId)) {
            OperationResult r;
            try {
                r = send(op, planned, requestTimeout(deadline));
            } catch (ConnectorException e) {
                step.failed(e.code());
                throw e;
            }
            if (r instanceof OperationResult.Failure f) {
                step.failed(f.code());
                throw new ConnectorException(f.code(), f.message(), f.extras(), null);
            }
            step.succeeded();
            return r instanceof OperationResult.Document d ? d.value() : ((OperationResult.Rows) r).rows();
        }
    }

    /** A child request may wait until the composite's deadline (at least a second), never past the call's timeout. */
    private Duration requestTimeout(Instant deadline) {
        Duration left = Duration.between(ctx.clock().instant(), deadline);
        Duration floor = left.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1)
                : left;
        return floor.compareTo(ctx.timeout()) < 0 ? floor : ctx.timeout();
    }

    private OperationResult send(OperationDescriptor op, PlannedRequest planned, Duration timeout) {
        String what = planned.method() + " " + planned.path();
        VendorResponse r = exchange(planned, what, timeout);
        return r.ok() ? mapper.success(r, op.resultKind()) : failure(mapper.vendorError(what, r));
    }

    @Override
    public Optional<HttpPreview> preview(OperationRequest request) {
        if (factory.isComposite(request.opId())) {
            return Optional.empty(); // several requests: nothing single to show
        }
        OperationDescriptor op = factory.operation(request.opId()).orElseThrow(() -> new ConnectorException(
                ErrorCode.UNKNOWN_OPERATION, factory.descriptor().connectorId() + " has no operation " + request.opId()));
        PlannedRequest planned = plan(op, request.params());
        return Optional.of(new HttpPreview(planned.method(), planned.path(), Redaction.redactQuery(planned.query()),
                planned.body().map(b -> Redaction.redact(b.value()))));
    }

    /**
     * With a product probe from the catalog index, GETs its version route and reads the version there;
     * otherwise GETs the base path (or {@code /}) with auth applied: any answer but 401 means reachable, and a
     * {@code Server} header naming the product gives the version.
     */
    @Override
    public Fingerprint probe() {
        String product = factory.descriptor().products().getFirst().token();
        if (factory.productProbe().isPresent()) {
            ProductProbe probe = factory.productProbe().get();
            PlannedRequest planned = new PlannedRequest("GET", probe.path(), Map.of(), Map.of(), Optional.empty());
            return ProductFingerprint.of(probe, exchange(planned, "GET " + probe.path(), ctx.timeout()), product, ctx.clock().instant());
        }
        String path = factory.basePath().isEmpty() ? "/" : factory.basePath();
        PlannedRequest planned = new PlannedRequest("GET", path, Map.of(), Map.of(), Optional.empty());
        String method = "GET " + path;
        VendorResponse r = exchange(planned, method, ctx.timeout());
        Optional<String> version = r.headers().firstValue("Server").flatMap(s -> version(s, product));
        return new Fingerprint(Optional.empty(), Optional.of(product), version, true, ctx.clock().instant(), method);
    }

    /**
     * The product's members through this target, as the catalog index's discovery declares (the caller checked
     * there is one): the declared read sent like any operation (auth, session login, refused statuses), its
     * answer read by {@link SpecMembers}; a vendor error is thrown as the operation's would be.
     */
    java.util.List<Map<String, Object>> members() {
        var d = factory.productDiscovery().orElseThrow();
        OperationDescriptor op = SpecMembers.operation(d, factory.ingestedOperations(), factory.descriptor().connectorId());
        PlannedRequest planned = plan(op, Map.of());
        String what = planned.method() + " " + planned.path();
        VendorResponse r = exchange(planned, what, ctx.timeout());
        if (!r.ok()) {
            throw mapper.vendorError(what, r);
        }
        return SpecMembers.of(d, Json.treeOf(r.body()), factory.descriptor().products().getFirst().token(), what,
                target.name(), scrubber::scrub);
    }

    /** The version in a {@code Server: name/version} header when {@code name} is the product; else unknown. */
    static Optional<String> version(String server, String product) {
        Matcher m = SERVER_VERSION.matcher(server);
        String want = alnum(product);
        while (m.find()) {
            String name = alnum(m.group(1));
            if (!name.isEmpty() && (name.contains(want) || want.contains(name))) {
                return Optional.of(m.group(2));
            }
        }
        return Optional.empty();
    }

    private static String alnum(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }

    private PlannedRequest plan(OperationDescriptor op, Map<String, Object> params) {
        return factory.planner().plan(op.opId(), (OperationShape.Http) op.shape(), factory.plan(op), params);
    }

    /**
     * Sends {@code planned}; on a 401 with a cached token, logs in again and retries once. A final 401 (or
     * another of the scheme's refused statuses) is thrown as {@code connector_auth_failed}.
     */
    private VendorResponse exchange(PlannedRequest planned, String what, Duration timeout) {
        if (!secretsRegistered) {
            Authenticator.registerSecrets(factory.auth(), credential, scrubber);
            secretsRegistered = true;
        }
        Authenticator.Applied applied = auth.apply();
        VendorResponse r = vendor.send(build(planned, applied, timeout));
        if (r.status() == 401 && applied.reused()) {
            auth.refused(applied);
            ctx.logger().log(Level.INFO, () -> "openapi: " + what + " answered 401 with a cached session; logging in again");
            applied = auth.apply();
            r = vendor.send(build(planned, applied, timeout));
        }
        if (factory.auth().refusedStatuses().contains(r.status())) {
            auth.refused(applied);
            throw ResponseMapper.rejected(what, r.status());
        }
        return r;
    }

    private HttpRequest build(PlannedRequest planned, Authenticator.Applied applied, Duration timeout) {
        try {
            HttpRequest.Builder b = vendor.request(planned.pathAndQuery()).timeout(timeout);
            b.setHeader("Accept", "application/json");
            planned.headers().forEach(b::setHeader);
            if (planned.body().isPresent()) {
                PlannedRequest.Body body = planned.body().get();
                b.setHeader("Content-Type", body.contentType());
                b.method(planned.method(), HttpRequest.BodyPublishers.ofByteArray(body.encode()));
            } else {
                b.method(planned.method(), HttpRequest.BodyPublishers.noBody());
            }
            applied.headers().forEach(b::setHeader);
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new ConnectorException(ErrorCode.INVALID_PARAMS, "the request cannot be sent: "
                    + scrubber.scrub(String.valueOf(e.getMessage())));
        }
    }

    private OperationResult.Failure failure(ConnectorException e) {
        return new OperationResult.Failure(e.code(), scrubber.scrub(e.getMessage()), e.extras());
    }

    @Override
    public void close() {
        // nothing held open: the HTTP client is the kernel's, tokens live in the factory's store
    }

    @Override
    public String toString() {
        return "OpenApiSession[" + factory.descriptor().connectorId() + " at " + vendor.origin() + ", " + credential + "]";
    }
}
