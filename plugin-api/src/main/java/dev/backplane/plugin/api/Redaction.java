package dev.backplane.plugin.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Hides the values of secret-looking keys in previews: any key containing password, passwd, passphrase,
 * secret, token, credential or authorization, or with a word (camelCase, snake_case or kebab-case) that is
 * or ends in {@code key}, or is {@code pwd}, {@code pin} or {@code cookie} ({@code apiKey}, {@code X-API-Key},
 * {@code privateKeyPem}, {@code ssh_key}; not {@code keyword} or {@code keycloakId}). Connectors use it
 * for their previews; the kernel uses it wherever it shows a caller's params to someone else (an
 * approval request's resolved payload).
 *
 * @since 1.3
 */
public final class Redaction {

    public static final String REDACTED = "***REDACTED***";

    private static final Pattern SECRET_TEXT = Pattern.compile(
            "password|passwd|passphrase|secret|token|credential|authorization");
    private static final Pattern WORD_BREAK = Pattern.compile("(?<=[a-z0-9])(?=[A-Z])|[^A-Za-z0-9]+");
    private static final Set<String> SECRET_WORDS = Set.of("pwd", "pin", "cookie", "keys");

    private Redaction() {
    }

    public static boolean looksSecret(String key) {
        if (SECRET_TEXT.matcher(key.toLowerCase(Locale.ROOT)).find()) {
            return true;
        }
        for (String word : WORD_BREAK.split(key)) {
            String w = word.toLowerCase(Locale.ROOT);
            if (w.endsWith("key") || SECRET_WORDS.contains(w)) {
                return true;
            }
        }
        return false;
    }

    /** {@code value} with every secret-looking key's value replaced by {@value #REDACTED}, at any depth. */
    public static Object redact(Object value) {
        return switch (value) {
            case Map<?, ?> m -> {
                Map<String, Object> out = new LinkedHashMap<>();
                m.forEach((k, v) -> {
                    String key = String.valueOf(k);
                    out.put(key, looksSecret(key) && v != null ? REDACTED : v == null ? null : redact(v));
                });
                yield out;
            }
            case List<?> l -> l.stream().map(e -> e == null ? null : redact(e)).toList();
            case null -> null;
            default -> value;
        };
    }

    /**
     * {@code value} with the values at {@code secretPaths} (dotted paths of property names, arrays crossed
     * transparently: see {@link OperationDescriptor#secretParams}) replaced by {@value #REDACTED}, and every
     * other secret-looking key's value too ({@link #redact(Object)}, the fallback).
     *
     * @since 1.7
     */
    public static Object redact(Object value, Set<String> secretPaths) {
        return secretPaths.isEmpty() ? redact(value) : redact(value, "", secretPaths);
    }

    private static Object redact(Object value, String path, Set<String> secretPaths) {
        return switch (value) {
            case Map<?, ?> m -> {
                Map<String, Object> out = new LinkedHashMap<>();
                m.forEach((k, v) -> {
                    String key = String.valueOf(k);
                    String at = path.isEmpty() ? key : path + "." + key;
                    out.put(key, v == null ? null : secretPaths.contains(at) || looksSecret(key) ? REDACTED
                            : redact(v, at, secretPaths));
                });
                yield out;
            }
            case List<?> l -> l.stream().map(e -> e == null ? null : redact(e, path, secretPaths)).toList();
            case null -> null;
            default -> value;
        };
    }

    /** Query params with secret-looking names redacted. */
    public static Map<String, List<String>> redactQuery(Map<String, List<String>> query) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        query.forEach((k, v) -> out.put(k, looksSecret(k) ? List.of(REDACTED) : v));
        return out;
    }
}
