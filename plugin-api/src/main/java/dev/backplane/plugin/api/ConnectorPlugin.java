package dev.backplane.plugin.api;

import java.util.List;
import org.pf4j.ExtensionPoint;

/**
 * The extension a plugin jar contributes: the connectors it offers. Annotate the implementation
 * with {@code @org.pf4j.Extension}; the kernel finds it through PF4J's extension index.
 */
public interface ConnectorPlugin extends ExtensionPoint {

    /** The connector implementations of this plugin; must not be empty. */
    List<ConnectorFactory> connectors();
}
