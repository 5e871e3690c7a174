package dev.backplane.kernel.testing;

import dev.backplane.kernel.app.KernelConfig;
import dev.backplane.kernel.app.Setting;
import dev.backplane.kernel.persistence.Database;
import dev.backplane.kernel.persistence.Jdbc;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A migrated embedded database of its own, without a kernel, for tests of one store or one piece of SQL: its data
 * directory is a {@link TempDirs} directory and it does not flush to disk (nothing in it has to survive the test).
 */
public final class ScratchDatabase {

    private ScratchDatabase() {
    }

    /** Starts and migrates a database whose data directory's name starts with {@code prefix}; close it when done. */
    public static Database start(String prefix) {
        return Database.start(KernelConfig.of(Map.of(Setting.DATA_DIR, TempDirs.create(prefix).toString(),
                Setting.DB_EMBEDDED_FSYNC, "false")).database());
    }

    /**
     * One scratch database for a whole test class, started before its first test and closed after its last:
     * {@code @RegisterExtension static final ScratchDatabase.PerClass DB = ScratchDatabase.perClass("svc-x");}.
     */
    public static PerClass perClass(String prefix) {
        return new PerClass(prefix);
    }

    /** The extension {@link #perClass} registers; {@link #db()} and {@link #jdbc()} are there while the class runs. */
    public static final class PerClass implements BeforeAllCallback, AfterAllCallback {

        private final String prefix;
        private Database db;
        private Jdbc jdbc;

        private PerClass(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public void beforeAll(ExtensionContext context) {
            db = start(prefix);
            jdbc = new Jdbc(db.dataSource());
        }

        @Override
        public void afterAll(ExtensionContext context) {
            if (db != null) {
                db.close();
            }
        }

        public Database db() {
            return db;
        }

        public Jdbc jdbc() {
            return jdbc;
        }
    }
}
