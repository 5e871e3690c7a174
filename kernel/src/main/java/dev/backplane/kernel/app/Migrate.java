package dev.backplane.kernel.app;

import dev.backplane.kernel.persistence.Database;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * {@code Main migrate}: applies the Flyway migrations to the configured database and exits, serving
 * nothing — the pre-upgrade job of a deploy whose replicas start with {@code db.migrate-on-start=false}.
 * Needs only the database settings (no issuer, no plugins). Running it again is a no-op.
 */
final class Migrate {

    private Migrate() {
    }

    /** Returns the process's exit code: 0 migrated (or nothing to do), 2 configuration error, 1 failed. */
    static int run(Optional<Path> configFile, Map<String, String> env, PrintStream out, PrintStream err) {
        Database.Settings settings;
        try {
            KernelConfig config = KernelConfig.load(configFile, env);
            if (config.get(Setting.LOG_FORMAT).equals("json")) {
                JsonLogFormatter.install();
            }
            settings = config.database();
        } catch (KernelConfig.ConfigException e) {
            err.println("svc kernel migrate: configuration error: " + e.getMessage());
            return 2;
        }
        String where = settings.url().map(Database::redactUrl).orElse("the embedded database in " + settings.dataDir());
        try {
            Database.Migrated m = Database.migrateOnly(settings);
            out.println("svc kernel migrate: " + where + ": schema version " + m.from() + " -> " + m.to() + " ("
                    + m.applied() + " migration(s) applied)");
            return 0;
        } catch (RuntimeException e) {
            // Flyway's and the driver's messages name the failing migration and statement; the password never shows
            String message = String.valueOf(e.getMessage());
            if (!settings.password().isBlank()) {
                message = message.replace(settings.password(), "****");
            }
            err.println("svc kernel migrate: migrating " + where + " failed: " + message);
            return 1;
        }
    }
}
