package dev.backplane.plugins.vault;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The rules every parameter passes before it becomes part of a Vault URL or body. Mounts, secret paths,
 * role and policy names are segments of letters, digits, {@code _ . @ -} (a segment never starts with a
 * dot, so {@code .} and {@code ..} cannot walk to another API path) joined by {@code /}; anything else is
 * refused with {@code invalid_params}, never encoded. The catalog's JSON Schemas carry the same patterns,
 * so the kernel refuses first; these checks are the plugin's own, for any caller.
 */
final class VaultParams {

    private static final String SEG = "[A-Za-z0-9_@][A-Za-z0-9_.@-]{0,127}";
    /** A mount or secret path: segments joined by '/', no leading or trailing '/'. */
    static final String PATH = "^" + SEG + "(/" + SEG + "){0,31}$";
    /** A role, policy or other single name. */
    static final String NAME = "^" + SEG + "$";
    /** A KV field name. */
    static final String KEY = "^[A-Za-z0-9_.@-]{1,128}$";
    /** A certificate serial number: hex pairs joined by ':' or '-'. */
    static final String SERIAL = "^[0-9a-fA-F]{2}([:-][0-9a-fA-F]{2}){0,63}$";
    /** A certificate's common name or alternative name: a DNS name (wildcards allowed) or an email address. */
    static final String CERT_NAME = "^[A-Za-z0-9*_][A-Za-z0-9*_.@-]{0,252}$";
    /** A Vault duration: a number of seconds or a number with unit s, m or h. */
    static final String TTL = "^[1-9][0-9]{0,8}[smh]?$";
    static final int MAX_ALT_NAMES = 100;
    /** An engine or auth method type. */
    static final String TYPE = "^[a-z0-9][a-z0-9_-]{0,63}$";
    static final int MAX_FIELDS = 256;
    static final int MAX_VALUE = 1024 * 1024;
    static final int MAX_POLICY = 256 * 1024;
    static final int MAX_VERSIONS = 100;

    private static final Pattern PATH_RE = Pattern.compile(PATH);
    private static final Pattern NAME_RE = Pattern.compile(NAME);
    private static final Pattern KEY_RE = Pattern.compile(KEY);
    private static final Pattern SERIAL_RE = Pattern.compile(SERIAL);
    private static final Pattern TYPE_RE = Pattern.compile(TYPE);
    private static final Pattern CERT_NAME_RE = Pattern.compile(CERT_NAME);
    private static final Pattern TTL_RE = Pattern.compile(TTL);

    private final Map<String, Object> params;

    VaultParams(Map<String, Object> params) {
        this.params = params;
    }

    /** A mount path ({@code secret}, {@code team/kv}), or {@code fallback} when absent. */
    String mount(String fallback) {
        return matching("mount", PATH_RE, fallback, "a mount path: segments of letters, digits, '_', '.', '@', '-' "
                + "joined by '/'");
    }

    /** A secret path inside the mount. */
    String path() {
        return matching("path", PATH_RE, null, "a path: segments of letters, digits, '_', '.', '@', '-' joined by '/'");
    }

    /** An optional path (a list of the mount's root when absent). */
    String optionalPath() {
        return params.get("path") == null || "".equals(params.get("path")) ? "" : path();
    }

    String name() {
        return matching("name", NAME_RE, null, "a name of letters, digits, '_', '.', '@', '-'");
    }

    /** A PKI role name (parameter {@code role}). */
    String role() {
        return matching("role", NAME_RE, null, "a role name of letters, digits, '_', '.', '@', '-'");
    }

    String commonName() {
        return matching("common_name", CERT_NAME_RE, null, "a DNS name (wildcards allowed) or an email address");
    }

    /** Optional alternative names, 1..{@value #MAX_ALT_NAMES} of them, as Vault's comma-joined list; null when absent. */
    String altNames() {
        Object v = params.get("alt_names");
        if (v == null) {
            return null;
        }
        if (!(v instanceof List<?> list) || list.isEmpty() || list.size() > MAX_ALT_NAMES) {
            throw invalid("alt_names", "a list of 1.." + MAX_ALT_NAMES + " DNS names or email addresses");
        }
        List<String> out = new ArrayList<>();
        for (Object o : list) {
            if (!(o instanceof String s) || !CERT_NAME_RE.matcher(s).matches()) {
                throw invalid("alt_names", "DNS names (wildcards allowed) or email addresses");
            }
            out.add(s);
        }
        return String.join(",", out);
    }

    /** An optional Vault duration ({@code 3600}, {@code 72h}); null when absent. */
    String ttl() {
        return params.get("ttl") == null ? null
                : matching("ttl", TTL_RE, null, "a duration: seconds, or a number with unit s, m or h (such as 72h)");
    }

    String serial() {
        return matching("serial", SERIAL_RE, null, "a serial number: hex pairs joined by ':' or '-'");
    }

    /** A lease id: a path-shaped id such as {@code database/creds/ro/2f6a...}. */
    String leaseId(String param) {
        return matching(param, PATH_RE, null, "a lease id: segments of letters, digits, '_', '.', '@', '-' joined by '/'");
    }

    String type() {
        return matching("type", TYPE_RE, null, "an engine type: lower-case letters, digits, '_', '-'");
    }

    /** KV engine version: 1 or 2 (default 2). */
    int kvVersion() {
        Object v = params.get("kv_version");
        if (v == null) {
            return 2;
        }
        if (v instanceof Number n && (n.intValue() == 1 || n.intValue() == 2) && n.doubleValue() == n.intValue()) {
            return n.intValue();
        }
        throw invalid("kv_version", "1 or 2");
    }

    /** An optional integer within bounds. */
    Integer optionalInt(String name, int min, int max) {
        Object v = params.get(name);
        if (v == null) {
            return null;
        }
        if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && n.longValue() >= min
                && n.longValue() <= max) {
            return n.intValue();
        }
        throw invalid(name, "an integer from " + min + " to " + max);
    }

    int requiredInt(String name, int min, int max) {
        Integer v = optionalInt(name, min, max);
        if (v == null) {
            throw invalid(name, "required");
        }
        return v;
    }

    /** Version numbers, 1..{@value #MAX_VERSIONS} of them, each at least 1. */
    List<Integer> versions(boolean required) {
        Object v = params.get("versions");
        if (v == null) {
            if (required) {
                throw invalid("versions", "required: the version numbers");
            }
            return List.of();
        }
        if (!(v instanceof List<?> list) || list.isEmpty() || list.size() > MAX_VERSIONS) {
            throw invalid("versions", "a list of 1.." + MAX_VERSIONS + " version numbers");
        }
        List<Integer> out = new ArrayList<>();
        for (Object o : list) {
            Object n = o instanceof String s && s.matches("[1-9][0-9]{0,8}") ? Long.valueOf(s) : o;
            if (!(n instanceof Number num) || num.doubleValue() != Math.rint(num.doubleValue()) || num.longValue() < 1
                    || num.longValue() > Integer.MAX_VALUE) {
                throw invalid("versions", "whole numbers of at least 1");
            }
            out.add(num.intValue());
        }
        return out;
    }

    /** The fields a KV write sends: 1..{@value #MAX_FIELDS} string values under {@link #KEY} names. */
    Map<String, String> data() {
        Object v = params.get("data");
        if (!(v instanceof Map<?, ?> map) || map.isEmpty() || map.size() > MAX_FIELDS) {
            throw invalid("data", "an object of 1.." + MAX_FIELDS + " fields");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String key = String.valueOf(e.getKey());
            if (!KEY_RE.matcher(key).matches()) {
                throw invalid("data", "field names of letters, digits, '_', '.', '@', '-' (1..128)");
            }
            if (!(e.getValue() instanceof String s) || s.length() > MAX_VALUE) {
                // the message names the field, never its value
                throw invalid("data." + key, "a string of at most " + MAX_VALUE + " characters");
            }
            out.put(key, s);
        }
        return out;
    }

    /** An optional free text without control characters. */
    String optionalText(String name, int max) {
        Object v = params.get(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s) || s.length() > max || s.chars().anyMatch(c -> c < 0x20 && c != '\n' && c != '\t')) {
            throw invalid(name, "text of at most " + max + " characters");
        }
        return s;
    }

    String requiredText(String name, int max) {
        String s = optionalText(name, max);
        if (s == null || s.isBlank()) {
            throw invalid(name, "required");
        }
        return s;
    }

    private String matching(String name, Pattern pattern, String fallback, String what) {
        Object v = params.get(name);
        if (v == null && fallback != null) {
            return fallback;
        }
        if (!(v instanceof String s) || !pattern.matcher(s).matches()) {
            throw invalid(name, what);
        }
        return s;
    }

    static ConnectorException invalid(String name, String what) {
        return new ConnectorException(ErrorCode.INVALID_PARAMS, "invalid params: " + name + " must be " + what);
    }
}
