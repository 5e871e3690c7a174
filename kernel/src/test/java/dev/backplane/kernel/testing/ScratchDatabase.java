package dev.backplane.kernel.testing;

import dev.backplane.kernel.app.KernelConfig;
import dev.backplane.kernel.app.Setting;
import dev.backplane.kernel.persistence.Database;
import java.util.Map;

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
}
