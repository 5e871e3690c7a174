package dev.backplane.kernel.app;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Version, git commit and build time stamped into the jar by the build. */
public record BuildInfo(String version, String gitCommit, String buildTime) {

    public static BuildInfo load() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getClassLoader().getResourceAsStream("svc-build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException ignored) {
            // fall through to "unknown"
        }
        return new BuildInfo(value(p, "version"), value(p, "git.commit"), value(p, "build.time"));
    }

    private static String value(Properties p, String key) {
        String v = p.getProperty(key, "");
        return v.isBlank() || v.startsWith("${") ? "unknown" : v;
    }
}
