package dev.backplane.plugin.api;

import java.util.Objects;

/**
 * The version of this SPI. A plugin jar records the version it was built against in its manifest
 * attribute {@value #MANIFEST_ATTRIBUTE}; the kernel loads a plugin only when the majors are equal
 * and the plugin's minor is not newer than the kernel's.
 *
 * @param major incremented on any incompatible change to a public type of this package
 * @param minor incremented on compatible additions
 */
public record PluginApiVersion(int major, int minor) {

    /** The manifest attribute a plugin jar carries, for example {@code Plugin-Api-Version: 1.0}. */
    public static final String MANIFEST_ATTRIBUTE = "Plugin-Api-Version";

    /**
     * The version of the plugin-api this kernel and its plugins are compiled against: the build's
     * {@code plugin-api.version} property, the one place it is declared.
     */
    public static final PluginApiVersion CURRENT = loadCurrent();

    public PluginApiVersion {
        if (major < 0 || minor < 0) {
            throw new IllegalArgumentException("version parts must not be negative: " + major + "." + minor);
        }
    }

    private static PluginApiVersion loadCurrent() {
        try (java.io.InputStream in = PluginApiVersion.class.getResourceAsStream("plugin-api.properties")) {
            java.util.Properties p = new java.util.Properties();
            p.load(Objects.requireNonNull(in, "plugin-api.properties is missing from the plugin-api jar"));
            return parse(p.getProperty("version"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Parses {@code MAJOR.MINOR} (a bare {@code MAJOR} means minor 0).
     *
     * @throws IllegalArgumentException when the text is not of that form
     */
    public static PluginApiVersion parse(String text) {
        Objects.requireNonNull(text, "text is null");
        String[] parts = text.trim().split("\\.", -1);
        if (parts.length > 2 || parts[0].isEmpty()) {
            throw new IllegalArgumentException("not a plugin-api version (want MAJOR.MINOR): '" + text + "'");
        }
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = parts.length == 2 ? Integer.parseInt(parts[1]) : 0;
            return new PluginApiVersion(major, minor);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a plugin-api version (want MAJOR.MINOR): '" + text + "'", e);
        }
    }

    /** True when a plugin built against {@code pluginVersion} can run on this version. */
    public boolean accepts(PluginApiVersion pluginVersion) {
        return pluginVersion.major == major && pluginVersion.minor <= minor;
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
