package dev.backplane.cli.common;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * What the build stamped into {@code svc-cli-build.properties}: the CLI's version, git commit and build
 * time. {@code svc version} prints it and every HTTP request names it in its User-Agent.
 */
public final class BuildInfo {

    private static final Properties BUILD = load();

    private BuildInfo() {
    }

    /** A stamped value, or {@code unknown} when the build did not fill it in (an IDE run). */
    public static String value(String key) {
        String v = BUILD.getProperty(key, "");
        return v.isBlank() || v.startsWith("${") ? "unknown" : v;
    }

    public static String version() {
        return value("version");
    }

    /** The REST API level this CLI speaks ({@code major.minor}), or {@code unknown} in an unstamped build. */
    public static String apiLevel() {
        return value("api.level");
    }

    /** {@code svc-cli/<version>}, the User-Agent of every request the CLI sends. */
    public static String userAgent() {
        return "svc-cli/" + version();
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getClassLoader().getResourceAsStream("svc-cli-build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException ignored) {
            // reported as unknown
        }
        return p;
    }
}
