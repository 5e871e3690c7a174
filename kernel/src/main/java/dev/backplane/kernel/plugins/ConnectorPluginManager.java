package dev.backplane.kernel.plugins;

import java.nio.file.Path;
import org.pf4j.ClassLoadingStrategy;
import org.pf4j.DefaultPluginManager;
import org.pf4j.JarPluginLoader;
import org.pf4j.JarPluginRepository;
import org.pf4j.ManifestPluginDescriptorFinder;
import org.pf4j.PluginClassLoader;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginDescriptorFinder;
import org.pf4j.PluginLoader;
import org.pf4j.PluginManager;
import org.pf4j.PluginRepository;

/**
 * PF4J, customised only through its {@code create*()} hooks: plugins are jar files in one directory,
 * described by their manifest, each loaded plugin-first into its own class loader whose parent is
 * {@link PluginParentClassLoader}.
 */
final class ConnectorPluginManager extends DefaultPluginManager {

    ConnectorPluginManager(Path pluginDir) {
        super(pluginDir);
    }

    @Override
    protected PluginRepository createPluginRepository() {
        return new JarPluginRepository(getPluginsRoots());
    }

    @Override
    protected PluginDescriptorFinder createPluginDescriptorFinder() {
        return new ManifestPluginDescriptorFinder();
    }

    @Override
    protected PluginLoader createPluginLoader() {
        return new IsolatedJarPluginLoader(this);
    }

    /** Loads a plugin jar plugin-first over the filtered parent. */
    private static final class IsolatedJarPluginLoader extends JarPluginLoader {
        private final ClassLoader parent = new PluginParentClassLoader(ConnectorPluginManager.class.getClassLoader());

        IsolatedJarPluginLoader(PluginManager manager) {
            super(manager);
        }

        @Override
        protected PluginClassLoader createPluginClassLoader(Path pluginPath, PluginDescriptor descriptor) {
            return new PluginClassLoader(pluginManager, descriptor, parent, ClassLoadingStrategy.PDA);
        }
    }
}
