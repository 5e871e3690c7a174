package dev.backplane.kernel.plugins;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;

/**
 * The parent of every plugin class loader: the JDK, {@code org.pf4j} and the plugin-api package, and
 * nothing else of the kernel. As in Trino, plugins must not reach the application class loader, so
 * Helidon, Jackson and kernel classes are invisible and a plugin may carry its own versions of them.
 */
final class PluginParentClassLoader extends ClassLoader {

    static final String PLUGIN_API_PACKAGE = "dev.backplane.plugin.api.";
    private static final String PF4J_PACKAGE = "org.pf4j.";

    private final ClassLoader kernel;

    PluginParentClassLoader(ClassLoader kernel) {
        super("svc-plugin-parent", ClassLoader.getPlatformClassLoader());
        this.kernel = kernel;
    }

    static boolean isShared(String className) {
        return className.startsWith(PLUGIN_API_PACKAGE) || className.startsWith(PF4J_PACKAGE);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (isShared(name)) {
            return kernel.loadClass(name);
        }
        return super.loadClass(name, resolve); // the platform loader: JDK classes only
    }

    @Override
    public URL getResource(String name) {
        String asClass = name.replace('/', '.');
        return isShared(asClass) ? kernel.getResource(name) : super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        String asClass = name.replace('/', '.');
        return isShared(asClass) ? kernel.getResources(name) : Collections.emptyEnumeration();
    }
}
