package dev.backplane.kernel.plugins;

import dev.backplane.kernel.plugins.PluginCalls;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.ConnectorPlugin;
import dev.backplane.plugin.api.PluginApiVersion;
import dev.backplane.plugin.api.SpecConnectorEngine;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.pf4j.PluginState;
import org.pf4j.PluginWrapper;

/**
 * Loads every plugin jar of the plugin directory. Each jar either yields its connectors or is
 * reported broken with the reason (bad manifest, incompatible plugin-api, load failure, no
 * connector registered, inconsistent ids): loudly, never silently skipped.
 */
public final class PluginLoading {

    public static final String IMPL_ID_ATTRIBUTE = "Connector-Impl-Id";
    public static final String VERSION_ATTRIBUTE = "Connector-Version";
    private static final System.Logger LOG = System.getLogger(PluginLoading.class.getName());

    /**
     * What loading found.
     *
     * @param digests the SHA-256 (hex) of every jar in the directory that could be read, by file name, loaded or
     *        not — read once, for the {@value #SUMS} check and the plugin-set digest replicas log
     */
    public record Result(List<LoadedConnector> connectors, List<LoadedEngine> engines, List<BrokenPlugin> broken,
                         Map<String, String> digests) {
    }

    private PluginLoading() {
    }

    public static Result load(Path pluginDir, Duration callTimeout) {
        List<LoadedConnector> loaded = new ArrayList<>();
        List<LoadedEngine> engines = new ArrayList<>();
        List<BrokenPlugin> broken = new ArrayList<>();
        if (!Files.isDirectory(pluginDir)) {
            LOG.log(Level.WARNING, "plugin directory " + pluginDir.toAbsolutePath() + " does not exist; no connectors loaded");
            return new Result(List.of(), List.of(), List.of(), Map.of());
        }
        ConnectorPluginManager manager = new ConnectorPluginManager(pluginDir);
        Map<String, String> idsSeen = new LinkedHashMap<>();
        Map<String, String> digests = new java.util.TreeMap<>();
        Optional<Map<String, String>> trusted = trustedDigests(pluginDir);
        if (trusted.isEmpty()) {
            LOG.log(Level.WARNING, "plugin jars in " + pluginDir.toAbsolutePath() + " are loaded unverified: list the "
                    + "jars you trust in " + SUMS + " (sha256sum format) to have every other jar refused");
        }
        for (Path jar : jars(pluginDir)) {
            String file = jar.getFileName().toString();
            Optional<String> claimedId = Optional.empty();
            try {
                String digest = sha256(jar);
                digests.put(file, digest);
                trusted.ifPresent(sums -> verify(file, digest, sums));
                Attributes manifest = manifest(jar);
                claimedId = Optional.ofNullable(manifest.getValue("Plugin-Id"));
                String pluginId = checkManifest(manifest);
                if (idsSeen.containsKey(pluginId)) {
                    throw new PluginLoadException("plugin id " + pluginId + " is already loaded from " + idsSeen.get(pluginId));
                }
                idsSeen.put(pluginId, file);
                if (manifest.getValue(SpecConnectorEngine.MANIFEST_ATTRIBUTE) != null) {
                    engines.add(loadEngine(manager, jar, pluginId, manifest, callTimeout));
                } else {
                    loaded.addAll(loadOne(manager, jar, pluginId, manifest, callTimeout));
                }
            } catch (PluginLoadException | ConnectorException e) {
                broken.add(new BrokenPlugin(file, claimedId, e.getMessage()));
            } catch (RuntimeException | LinkageError e) {
                broken.add(new BrokenPlugin(file, claimedId, "cannot load: " + e));
            }
        }
        broken.forEach(b -> LOG.log(Level.ERROR, "BROKEN PLUGIN " + b.file() + ": " + b.reason()));
        loaded.forEach(c -> LOG.log(Level.INFO, "loaded connector " + c.connectorId() + " (" + c.catalog().operations().size()
                + " operations) from " + c.jar().getFileName()));
        engines.forEach(e -> LOG.log(Level.INFO, "loaded spec engine " + e.name() + " from " + e.jar().getFileName()));
        return new Result(List.copyOf(loaded), List.copyOf(engines), List.copyOf(broken), Map.copyOf(digests));
    }

    /** A started plugin: its wrapper, its class loader and the extensions of the type the loader asked for. */
    private record Started<E>(PluginWrapper wrapper, ClassLoader loader, List<E> extensions) {
    }

    /**
     * Starts the plugin in {@code jar}, lists its extensions of {@code type} inside its class loader and hands
     * them to {@code body}; a plugin the body (or the listing) refuses is unloaded again.
     */
    private static <E, R> R loadStarted(ConnectorPluginManager manager, Path jar, String pluginId, Duration timeout,
                                        Class<E> type, Function<Started<E>, R> body) {
        String loadedId = start(manager, jar);
        PluginWrapper wrapper = manager.getPlugin(loadedId);
        try {
            ClassLoader loader = wrapper.getPluginClassLoader();
            List<E> extensions = PluginCalls.call(pluginId, loader, timeout, () -> manager.getExtensions(type, loadedId));
            return body.apply(new Started<>(wrapper, loader, extensions));
        } catch (RuntimeException e) {
            manager.unloadPlugin(loadedId);
            throw e;
        }
    }

    private static LoadedEngine loadEngine(ConnectorPluginManager manager, Path jar, String pluginId,
                                           Attributes manifest, Duration timeout) {
        return loadStarted(manager, jar, pluginId, timeout, SpecConnectorEngine.class, started -> {
            ClassLoader loader = started.loader();
            List<SpecConnectorEngine> extensions = started.extensions();
            String name = manifest.getValue(SpecConnectorEngine.MANIFEST_ATTRIBUTE);
            if (extensions.size() != 1) {
                throw new PluginLoadException("a spec-engine plugin registers exactly one SpecConnectorEngine "
                        + "extension; found " + extensions.size());
            }
            SpecConnectorEngine engine = extensions.getFirst();
            String said = PluginCalls.call(pluginId, loader, timeout, engine::engine);
            if (!name.equals(said)) {
                throw new PluginLoadException("its engine says '" + said + "' but the manifest says " + name);
            }
            return new LoadedEngine(pluginId, started.wrapper().getDescriptor().getVersion(), jar, name, engine, loader);
        });
    }

    private static List<LoadedConnector> loadOne(ConnectorPluginManager manager, Path jar, String pluginId,
                                                 Attributes manifest, Duration timeout) {
        return loadStarted(manager, jar, pluginId, timeout, ConnectorPlugin.class, started -> {
            ClassLoader loader = started.loader();
            List<ConnectorPlugin> extensions = started.extensions();
            if (extensions.isEmpty()) {
                throw new PluginLoadException("registers no ConnectorPlugin extension (is the class annotated with "
                        + "@org.pf4j.Extension and listed in META-INF/extensions.idx?)");
            }
            String implId = manifest.getValue(IMPL_ID_ATTRIBUTE);
            String version = manifest.getValue(VERSION_ATTRIBUTE);
            List<LoadedConnector> out = new ArrayList<>();
            for (ConnectorPlugin plugin : extensions) {
                List<ConnectorFactory> factories = PluginCalls.call(pluginId, loader, timeout, plugin::connectors);
                if (factories == null || factories.isEmpty()) {
                    throw new PluginLoadException("its ConnectorPlugin returns no connectors");
                }
                for (ConnectorFactory f : factories) {
                    var descriptor = PluginCalls.call(pluginId, loader, timeout, f::descriptor);
                    var catalog = PluginCalls.call(pluginId, loader, timeout, f::catalog);
                    if (!descriptor.implId().equals(implId) || !descriptor.version().equals(version)) {
                        throw new PluginLoadException("its connector says " + descriptor.connectorId()
                                + " but the manifest says " + implId + "-" + version);
                    }
                    out.add(new LoadedConnector(pluginId, started.wrapper().getDescriptor().getVersion(), jar, f,
                            descriptor, catalog, loader));
                }
            }
            if (out.size() > 1) {
                throw new PluginLoadException("registers " + out.size() + " connectors for " + pluginId
                        + "; a plugin carries exactly one implementation version");
            }
            return out;
        });
    }

    private static String start(ConnectorPluginManager manager, Path jar) {
        String loadedId;
        try {
            loadedId = manager.loadPlugin(jar);
        } catch (RuntimeException e) {
            throw new PluginLoadException("PF4J could not load it: " + e.getMessage());
        }
        if (loadedId == null) {
            throw new PluginLoadException("PF4J could not load it (see the log)");
        }
        PluginState state = manager.startPlugin(loadedId);
        if (state != PluginState.STARTED) {
            Throwable why = manager.getPlugin(loadedId).getFailedException();
            manager.unloadPlugin(loadedId);
            throw new PluginLoadException("plugin did not start (" + state + ")" + (why == null ? "" : ": " + why));
        }
        return loadedId;
    }

    /** Validates our manifest attributes and returns the plugin id. */
    static String checkManifest(Attributes m) {
        String pluginId = m.getValue("Plugin-Id");
        String api = m.getValue(PluginApiVersion.MANIFEST_ATTRIBUTE);
        String implId = m.getValue(IMPL_ID_ATTRIBUTE);
        String version = m.getValue(VERSION_ATTRIBUTE);
        if (pluginId == null || m.getValue("Plugin-Version") == null) {
            throw new PluginLoadException("not a plugin: the manifest lacks Plugin-Id or Plugin-Version");
        }
        if (api == null) {
            throw new PluginLoadException("the manifest lacks " + PluginApiVersion.MANIFEST_ATTRIBUTE
                    + "; rebuild the plugin against plugin-api " + PluginApiVersion.CURRENT);
        }
        PluginApiVersion built;
        try {
            built = PluginApiVersion.parse(api);
        } catch (IllegalArgumentException e) {
            throw new PluginLoadException(e.getMessage());
        }
        if (!PluginApiVersion.CURRENT.accepts(built)) {
            throw new PluginLoadException("built for plugin-api " + built + ", but this kernel offers plugin-api "
                    + PluginApiVersion.CURRENT + " (majors must match and the plugin's minor must not be newer)");
        }
        String engine = m.getValue(SpecConnectorEngine.MANIFEST_ATTRIBUTE);
        if (engine != null) {
            if (implId != null || version != null) {
                throw new PluginLoadException("a spec-engine plugin (" + SpecConnectorEngine.MANIFEST_ATTRIBUTE
                        + ") carries no " + IMPL_ID_ATTRIBUTE + " or " + VERSION_ATTRIBUTE);
            }
            if (!engine.matches("[a-z][a-z0-9-]*")) {
                throw new PluginLoadException(SpecConnectorEngine.MANIFEST_ATTRIBUTE + " must be a lower-case name: "
                        + engine);
            }
            return pluginId;
        }
        if (implId == null || version == null) {
            throw new PluginLoadException("the manifest lacks " + IMPL_ID_ATTRIBUTE + " or " + VERSION_ATTRIBUTE);
        }
        if (!pluginId.equals(implId + "-" + version)) {
            throw new PluginLoadException("Plugin-Id " + pluginId + " must be <Connector-Impl-Id>-<Connector-Version> = "
                    + implId + "-" + version);
        }
        return pluginId;
    }

    private static Attributes manifest(Path jar) {
        try (JarFile f = new JarFile(jar.toFile())) {
            if (f.getManifest() == null) {
                throw new PluginLoadException("not a plugin: the jar has no manifest");
            }
            return f.getManifest().getMainAttributes();
        } catch (IOException e) {
            throw new PluginLoadException("not a readable jar: " + e.getMessage());
        }
    }

    /** The file naming the plugin jars this deploy trusts, in {@code sha256sum} format. */
    public static final String SUMS = "SHA256SUMS";

    /** The trusted digests by jar name, when the deploy lists them. */
    static Optional<Map<String, String>> trustedDigests(Path dir) {
        Path sums = dir.resolve(SUMS);
        if (!Files.isRegularFile(sums)) {
            return Optional.empty();
        }
        Map<String, String> out = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(sums)) {
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#")) {
                    continue;
                }
                String[] parts = t.split("\\s+\\*?", 2);
                if (parts.length == 2 && parts[0].matches("[0-9a-fA-F]{64}")) {
                    out.put(parts[1].strip(), parts[0].toLowerCase(java.util.Locale.ROOT));
                } else {
                    LOG.log(Level.WARNING, SUMS + ": ignoring a line that is not '<sha256>  <jar>': " + t);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + sums + ": " + e.getMessage(), e);
        }
        return Optional.of(out);
    }

    /**
     * A plugin jar is trusted code (it runs in the kernel's JVM with the kernel's privileges): when the
     * deploy lists trusted digests, a jar must be listed with its exact SHA-256 or it is not loaded.
     */
    private static void verify(String name, String actual, Map<String, String> sums) {
        String expected = sums.get(name);
        if (expected == null) {
            throw new PluginLoadException("not listed in " + SUMS + "; only listed jars are loaded");
        }
        if (!actual.equals(expected)) {
            throw new PluginLoadException("its SHA-256 " + actual + " is not the one " + SUMS + " lists (" + expected
                    + "); it was changed after it was trusted, or the list is out of date");
        }
    }

    /** The SHA-256 of a file, in lower-case hex. */
    public static String sha256(Path file) {
        try (var in = Files.newInputStream(file)) {
            java.security.MessageDigest d = java.security.MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                d.update(buf, 0, n);
            }
            return java.util.HexFormat.of().formatHex(d.digest());
        } catch (IOException | java.security.NoSuchAlgorithmException e) {
            throw new PluginLoadException("cannot read it to check its digest: " + e.getMessage());
        }
    }

    private static List<Path> jars(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jar") && Files.isRegularFile(p))
                    .sorted().toList();
        } catch (IOException e) {
            throw new IllegalStateException("cannot list plugin directory " + dir + ": " + e.getMessage(), e);
        }
    }

    /** A plugin that cannot be loaded; the message is the reason shown to operators. */
    static final class PluginLoadException extends RuntimeException {
        PluginLoadException(String message) {
            super(message);
        }
    }
}
