package dev.backplane.kernel.plugins;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.OperationResult;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Everything a plugin hands back from one call — results, failures, exceptions, fingerprints,
 * discovery candidates, log lines — with the call's credential taken out. It looks for each field value
 * and the forms it travels in: base64 of it, HTTP Basic ({@code base64(user:password)} for every pair of
 * fields), URL-encoded, and, for a document-shaped value (a kubeconfig, a JSON key file), every
 * token-like piece inside it (20+ characters of base64/token alphabet), so a bearer token echoed from
 * inside a kubeconfig is caught too. Values shorter than four characters are left alone.
 */
public final class SecretScrubber {

    static final String MASK = "***";
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9+/=._~-]{20,}");

    private final List<String> forms;

    private SecretScrubber(List<String> forms) {
        this.forms = forms;
    }

    /**
     * The forms of a credential's secrets. A field whose name does not look secret (a user name, a client
     * id) is not masked on its own — results legitimately show user names — but still takes part in the
     * HTTP Basic pairs; a document-shaped value (a kubeconfig) is masked whole and piece by piece.
     */
    public static SecretScrubber of(Credential credential) {
        List<String> secrets = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (String name : credential.names()) {
            String v = credential.field(name);
            all.add(v);
            if (dev.backplane.plugin.api.Redaction.looksSecret(name) || documentShaped(v)) {
                secrets.add(v);
            }
        }
        return of(secrets, all);
    }

    private static boolean documentShaped(String v) {
        return v != null && (v.contains("\n") || v.length() > 200);
    }

    static SecretScrubber of(List<String> values) {
        return of(values, values);
    }

    private static SecretScrubber of(List<String> values, List<String> pairs) {
        Set<String> forms = new LinkedHashSet<>();
        for (String v : values) {
            if (v == null || v.length() < 4) {
                continue;
            }
            forms.add(v);
            forms.add(Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8)));
            forms.add(URLEncoder.encode(v, StandardCharsets.UTF_8));
            if (documentShaped(v)) {
                var m = TOKEN.matcher(v);
                while (m.find()) {
                    forms.add(m.group());
                }
            }
        }
        for (String a : pairs) {
            for (String b : pairs) {
                if (a != null && b != null && !a.equals(b) && b.length() >= 4) {
                    forms.add(Base64.getEncoder().encodeToString((a + ":" + b).getBytes(StandardCharsets.UTF_8)));
                }
            }
        }
        List<String> sorted = new ArrayList<>(forms.stream().filter(f -> f.length() >= 4).toList());
        sorted.sort(Comparator.comparingInt(String::length).reversed()); // longest first: no half-masked values
        return new SecretScrubber(List.copyOf(sorted));
    }

    public String text(String text) {
        if (text == null || forms.isEmpty()) {
            return text;
        }
        String out = text;
        for (String f : forms) {
            if (out.contains(f)) {
                out = out.replace(f, MASK);
            }
        }
        return out;
    }

    /** Strings anywhere inside maps, lists and optionals; other values as they are. */
    public Object deep(Object value) {
        if (forms.isEmpty()) {
            return value;
        }
        return switch (value) {
            case String s -> text(s);
            case Map<?, ?> m -> {
                Map<String, Object> out = new LinkedHashMap<>();
                m.forEach((k, v) -> out.put(text(String.valueOf(k)), deep(v)));
                yield out;
            }
            case List<?> l -> l.stream().map(this::deep).toList();
            case Optional<?> o -> o.map(this::deep);
            case null -> null;
            default -> value;
        };
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> map(Map<String, Object> m) {
        return (Map<String, Object>) deep(m);
    }

    /** A plugin's answer of any kind with the credential taken out. */
    @SuppressWarnings("unchecked")
    public <T> T result(T value) {
        if (forms.isEmpty() || value == null) {
            return value;
        }
        Object out = switch (value) {
            case OperationResult.Failure f -> new OperationResult.Failure(f.code(), text(f.message()), map(f.extras()));
            case OperationResult.Rows r -> new OperationResult.Rows((List<Map<String, Object>>) deep(r.rows()),
                    map(r.extras()));
            case OperationResult.Document d -> new OperationResult.Document(deep(d.value()));
            case Fingerprint f -> new Fingerprint(f.vendor().map(this::text), f.product().map(this::text),
                    f.version().map(this::text), f.reachable(), f.probedAt(), text(f.probeMethod()));
            default -> deep(value);
        };
        return (T) out;
    }

    /** A plugin's exception with the credential taken out of message and extras; the cause chain is dropped. */
    public ConnectorException exception(ConnectorException e) {
        String message = text(e.getMessage() == null ? "" : e.getMessage());
        Map<String, Object> extras = map(e.extras());
        if (message.equals(e.getMessage()) && extras.equals(e.extras()) && e.getCause() == null) {
            return e;
        }
        return new ConnectorException(e.code(), message, extras, null);
    }
}
