package dev.backplane.kernel.console;

import dev.backplane.kernel.persistence.Jdbc;

/** SQL for the console's key ({@code console_keys}): one row, written by whichever replica asks first. */
final class SealKeyStore {

    private final Jdbc jdbc;

    SealKeyStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** The stored key, after storing {@code fresh} as the key if there was none yet (the others read the same row). */
    byte[] keyOr(byte[] fresh) {
        jdbc.update("INSERT INTO console_keys (id, key) VALUES (1, ?) ON CONFLICT (id) DO NOTHING", (Object) fresh);
        return jdbc.queryOne("SELECT key FROM console_keys WHERE id = 1", rs -> rs.getBytes(1)).orElseThrow();
    }
}
