package dev.backplane.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** {@code svc version}: CLI version, git commit and build time. */
@Command(name = "version", description = "Print the CLI version and build metadata.")
final class VersionCommand extends CliCommand {

    @Override
    public void run() {
        ctx.out().println(line());
    }

    static String line() {
        Properties p = build();
        return "svc " + value(p, "version") + " (commit " + value(p, "git.commit") + ", built " + value(p, "build.time")
                + ", java " + Runtime.version() + ")";
    }

    static Properties build() {
        Properties p = new Properties();
        try (InputStream in = VersionCommand.class.getClassLoader().getResourceAsStream("svc-cli-build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException ignored) {
            // reported as unknown
        }
        return p;
    }

    static String value(Properties p, String key) {
        String v = p.getProperty(key, "");
        return v.isBlank() || v.startsWith("${") ? "unknown" : v;
    }

    /** Feeds {@code svc --version}. */
    static final class Provider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {line()};
        }
    }
}
