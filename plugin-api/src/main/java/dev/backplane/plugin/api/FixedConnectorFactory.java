package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

/**
 * A {@link ConnectorFactory} whose descriptor and catalog are constants and whose sessions one constructor
 * opens, which is what most connectors' factories are. A plugin's factory extends it and names its three
 * parts, {@code super(DESCRIPTOR, MyCatalog.CATALOG, MySession::new)}, instead of writing out the three
 * methods; a factory that decides more (per-target state, a catalog built at run time) implements
 * {@link ConnectorFactory} itself.
 */
public abstract class FixedConnectorFactory implements ConnectorFactory {

    /** Opens a session to a target: usually the constructor of the connector's session class. */
    @FunctionalInterface
    public interface Opener {

        /** As {@link ConnectorFactory#open(ConnectorContext, TargetSpec, Credential)}. */
        Connector open(ConnectorContext context, TargetSpec target, Credential credential);
    }

    private final ConnectorDescriptor descriptor;
    private final Catalog catalog;
    private final Opener opener;

    protected FixedConnectorFactory(ConnectorDescriptor descriptor, Catalog catalog, Opener opener) {
        this.descriptor = requireNonNull(descriptor, "descriptor is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.opener = requireNonNull(opener, "opener is null");
    }

    @Override
    public final ConnectorDescriptor descriptor() {
        return descriptor;
    }

    @Override
    public final Catalog catalog() {
        return catalog;
    }

    @Override
    public final Connector open(ConnectorContext context, TargetSpec target, Credential credential) {
        return opener.open(context, target, credential);
    }
}
