package dev.backplane.plugins.vault;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Takes the call's secret values — the token, and the values a KV write or patch sends — out of any
 * text that may be shown (Vault's error strings, exception messages). Vault does not echo secret values
 * in its errors today; this makes sure a future or proxied answer cannot carry one out either.
 */
final class Redactor {

    private final List<String> secrets;

    Redactor(Collection<String> secrets) {
        List<String> s = new ArrayList<>();
        for (String v : secrets) {
            if (v != null && v.length() >= 3) {
                s.add(v);
            }
        }
        s.sort(Comparator.comparingInt(String::length).reversed());
        this.secrets = List.copyOf(s);
    }

    String scrub(String text) {
        String out = text;
        for (String secret : secrets) {
            out = out.replace(secret, VaultRequest.REDACTED);
        }
        return out;
    }
}
