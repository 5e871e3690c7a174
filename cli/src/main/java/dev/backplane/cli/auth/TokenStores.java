package dev.backplane.cli.auth;

import dev.backplane.cli.common.CliContext;
import java.util.Locale;

/**
 * Picks the token store: the OS keyring when a Secret Service (or the platform's keychain) answers,
 * otherwise a 0600 file beside the config. {@code SVC_TOKEN_STORE=file|keyring} forces one.
 */
public final class TokenStores {

    private TokenStores() {
    }

    public static TokenStore select(CliContext ctx) {
        String forced = ctx.env("SVC_TOKEN_STORE").orElse("").toLowerCase(Locale.ROOT);
        FileTokenStore file = new FileTokenStore(ctx.configDir().resolve("tokens.json"));
        if (forced.equals("file")) {
            return file;
        }
        boolean linux = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
        if (!forced.equals("keyring") && linux && ctx.env("DBUS_SESSION_BUS_ADDRESS").isEmpty()) {
            return file; // no session bus, so no Secret Service: do not wait for one
        }
        return KeyringTokenStore.open().orElse(file);
    }
}
