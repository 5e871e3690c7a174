package dev.backplane.kernel.targets;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The normal form of a member a connector's discovery saw: its known target fields in the plan's order (strings
 * stripped, blanks dropped, a whole-number port an int), every other key in extras, its name and aliases made
 * DNS-1123 labels (a member without a name is named after its host).
 */
final class DiscoveryCandidates {

    /** The longest DNS-1123 label. */
    static final int NAME_MAX = 63;

    /** The fields a candidate may carry, in the order the plan shows them. */
    static final List<String> FIELDS = List.of("name", "aliases", "product", "host", "port", "fqdn", "version",
            "verify_tls", "tls_ca_pin", "tls_server_name", "secret_ref", "auth_model", "vpn_required",
            "preferred_impl_id", "notes", "extras");

    /** The known fields of {@code raw} in plan order, the name made a label; other keys go to extras. */
    static Map<String, Object> fields(Map<String, Object> raw) {
        Map<String, Object> c = new LinkedHashMap<>();
        Map<String, Object> extras = new LinkedHashMap<>();
        if (raw.get("extras") instanceof Map<?, ?> m) {
            m.forEach((k, v) -> extras.put(String.valueOf(k), v));
        }
        for (String f : FIELDS) {
            Object v = raw.get(f);
            if (v != null && !f.equals("extras") && !(v instanceof String s && s.isBlank())) {
                c.put(f, v instanceof String s ? s.strip() : v);
            }
        }
        raw.forEach((k, v) -> {
            if (v != null && !FIELDS.contains(k) && !k.equals("seed") && !k.equals("fingerprint")) {
                extras.put(k, v);
            }
        });
        if (c.get("port") instanceof Number n && n.doubleValue() == n.intValue()) {
            c.put("port", n.intValue());
        }
        String name = label(text(c.get("name")));
        name = name.isEmpty() ? label(text(c.get("host"))) : name;
        if (name.isEmpty()) {
            c.remove("name");
        } else {
            c.put("name", name);
        }
        if (c.get("aliases") instanceof List<?> aliases) {
            c.put("aliases", aliases.stream().map(a -> label(String.valueOf(a))).filter(a -> !a.isEmpty()).distinct()
                    .toList());
        }
        if (!extras.isEmpty()) {
            c.put("extras", extras);
        }
        reorder(c);
        return c;
    }

    /** A DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit, ≤ 63. */
    static String label(String text) {
        String l = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        if (l.length() > NAME_MAX) {
            l = l.substring(0, NAME_MAX).replaceAll("-+$", "");
        }
        return l;
    }

    /** Puts the fields of {@code c} in the plan's order. */
    static void reorder(Map<String, Object> c) {
        Map<String, Object> copy = new LinkedHashMap<>(c);
        c.clear();
        FIELDS.stream().filter(copy::containsKey).forEach(k -> c.put(k, copy.get(k)));
    }

    /** The value as stripped text; nothing is the empty string. */
    static String text(Object v) {
        return v == null ? "" : String.valueOf(v).strip();
    }

    private DiscoveryCandidates() {
    }
}
