package dev.backplane.kernel.app;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Version, git commit, build time and REST API level stamped into the jar by the build.
 *
 * @param apiLevel the REST API's level, {@code major.minor} ({@code svc-api.level} in the root pom;
 *                 {@link dev.backplane.kernel.http.ApiLevel}), or {@code unknown} in an unstamped build
 */
public record BuildInfo(String version, String gitCommit, String buildTime, String apiLevel) {

    public static BuildInfo load() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getClassLoader().getResourceAsStream("svc-build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException ignored) {
            // fall through to "unknown"
        }
        return new BuildInfo(value(p, "version"), value(p, "git.commit"), value(p, "build.time"),
                value(p, "api.level"));
    }

    private static String value(Properties p, String key) {
        String v = p.getProperty(key, "");
        return v.isBlank() || v.startsWith("${") ? "unknown" : v;
    }
}
