package dev.backplane.plugins.openapi;

import static java.util.Objects.requireNonNull;

import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.IngestedConnector;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.ProductDiscovery;
import dev.backplane.plugin.api.ProductProbe;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugins.http.DiscoveringSession;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Serves one ingested connector. Holds what outlives a session: each operation's parsed param plan and
 * the cached session tokens of every target and credential it has logged in to. Its catalog is the
 * ingested one plus the composite operations the engine builds from it ({@link ArgoCdComposites}).
 */
final class OpenApiConnectorFactory implements ConnectorFactory {

    private final IngestedConnector connector;
    private final AuthConfig auth;
    private final Map<String, OperationDescriptor> operations;
    private final ConcurrentHashMap<String, ParamPlan> plans = new ConcurrentHashMap<>();
    private final SessionStore sessions = new SessionStore();
    private final RequestPlanner planner;
    private final Catalog catalog;
    private final Set<String> composites;

    /** @throws dev.backplane.plugin.api.ConnectorException when the auth scheme's settings are unusable */
    OpenApiConnectorFactory(IngestedConnector connector) {
        this.connector = requireNonNull(connector, "connector is null");
        this.auth = AuthConfig.of(connector.auth());
        Map<String, OperationDescriptor> ops = new LinkedHashMap<>();
        connector.catalog().operations().forEach(op -> ops.put(op.opId(), op));
        this.operations = Map.copyOf(ops);
        this.planner = new RequestPlanner(connector.basePath());
        List<OperationDescriptor> extra = ArgoCdComposites.operations(connector);
        List<OperationDescriptor> all = new ArrayList<>(connector.catalog().operations());
        all.addAll(extra);
        this.catalog = new Catalog(connector.catalog().groups(), all);
        this.composites = extra.stream().map(OperationDescriptor::opId).collect(Collectors.toUnmodifiableSet());
    }

    @Override
    public ConnectorDescriptor descriptor() {
        return connector.descriptor();
    }

    @Override
    public Catalog catalog() {
        return catalog;
    }

    @Override
    public Connector open(ConnectorContext context, TargetSpec target, Credential credential) {
        requireNonNull(context, "context is null");
        requireNonNull(target, "target is null");
        requireNonNull(credential, "credential is null");
        OpenApiSession session = new OpenApiSession(this, context, target, credential);
        // discovery lists the members the catalog index entry declares (SpecMembers); without one, the plain session
        return connector.discovery().isPresent() ? new DiscoveringSession(session, session::members) : session;
    }

    /** Whether {@code opId} is one of the engine's composite operations. */
    boolean isComposite(String opId) {
        return composites.contains(opId);
    }

    /** How to identify the product behind a target, when the catalog index says. */
    Optional<ProductProbe> productProbe() {
        return connector.probe();
    }

    /** How to list the product's members through a target, when the catalog index says. */
    Optional<ProductDiscovery> productDiscovery() {
        return connector.discovery();
    }

    /** The ingested catalog's operations (without the engine's composites). */
    List<OperationDescriptor> ingestedOperations() {
        return connector.catalog().operations();
    }

    /** An ingested (HTTP-shaped) operation. */
    Optional<OperationDescriptor> operation(String opId) {
        return Optional.ofNullable(operations.get(opId));
    }

    /** The param plan of {@code op}, read from its schema on first use. */
    ParamPlan plan(OperationDescriptor op) {
        return plans.computeIfAbsent(op.opId(), id -> ParamPlan.of(op));
    }

    RequestPlanner planner() {
        return planner;
    }

    AuthConfig auth() {
        return auth;
    }

    SessionStore sessions() {
        return sessions;
    }

    String basePath() {
        return connector.basePath();
    }

    @Override
    public String toString() {
        return "OpenApiConnectorFactory[" + connector.descriptor().connectorId() + ", auth=" + auth.scheme() + "]";
    }
}
