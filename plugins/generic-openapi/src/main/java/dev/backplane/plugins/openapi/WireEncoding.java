package dev.backplane.plugins.openapi;

import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/** How param values become text on the wire: path segments, query strings, form bodies. */
final class WireEncoding {

    static final String FORM = "application/x-www-form-urlencoded";
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private WireEncoding() {
    }

    /** A JSON value as a param's text: strings as they are, numbers and booleans as JSON writes them. */
    static String text(Object value) {
        return switch (value) {
            case String s -> s;
            case Double d when d == Math.rint(d) && !d.isInfinite() && Math.abs(d) < 1e15 -> Long.toString(d.longValue());
            case Float f when f == Math.rint(f) && !f.isInfinite() && Math.abs(f) < 1e7 -> Long.toString(f.longValue());
            case BigDecimal b -> b.toPlainString();
            case Number n -> n.toString();
            case Boolean b -> b.toString();
            case Map<?, ?> m -> Json.text(m);
            case Collection<?> c -> Json.text(c);
            default -> String.valueOf(value);
        };
    }

    /** RFC 3986 percent-encoding of everything but the unreserved characters (so '/' in a segment is %2F). */
    static String percent(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(bytes.length);
        for (byte b : bytes) {
            char c = (char) (b & 0xff);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '.' || c == '_' || c == '~') {
                out.append(c);
            } else {
                out.append('%').append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
            }
        }
        return out.toString();
    }

    /**
     * Whether a path param value is, or holds, a dot segment: {@code .} or {@code ..} as the whole value or
     * as one of its '/'- or '\\'-separated parts, also once or several times percent-encoded ({@code %2e%2E},
     * {@code .%2E}, {@code %252e%252e}). Sent as a segment, such a value is still a dot segment to a proxy or
     * vendor that decodes and normalises paths, so the call would reach another resource than the reviewed
     * operation's.
     */
    static boolean holdsDotSegment(String value) {
        String decoded = value;
        for (int round = 0; round < 4; round++) {
            String next = decoded.replaceAll("(?i)%25", "%").replaceAll("(?i)%2e", ".").replaceAll("(?i)%2f", "/")
                    .replaceAll("(?i)%5c", "\\\\");
            if (next.equals(decoded)) {
                break;
            }
            decoded = next;
        }
        for (String part : decoded.split("[/\\\\]", -1)) {
            if (part.equals(".") || part.equals("..")) {
                return true;
            }
        }
        return false;
    }

    /** {@code k=v&k=v}, percent-encoded, keys repeated for lists. */
    static String query(Map<String, List<String>> query) {
        StringJoiner out = new StringJoiner("&");
        query.forEach((k, values) -> values.forEach(v -> out.add(percent(k) + "=" + percent(v))));
        return out.toString();
    }

    /** An HTML form body from an object of fields: lists repeat the key, nulls are left out. */
    static String form(Map<?, ?> fields) {
        StringJoiner out = new StringJoiner("&");
        fields.forEach((k, v) -> {
            if (v instanceof Collection<?> c) {
                c.stream().filter(e -> e != null).forEach(e -> out.add(formPair(String.valueOf(k), text(e))));
            } else if (v != null) {
                out.add(formPair(String.valueOf(k), text(v)));
            }
        });
        return out.toString();
    }

    private static String formPair(String k, String v) {
        return URLEncoder.encode(k, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8);
    }

    /** Body bytes: a form from an object; a string verbatim for any non-JSON type; JSON otherwise. */
    static byte[] body(Object value, String contentType) {
        String type = contentType.toLowerCase(Locale.ROOT);
        if (type.startsWith(FORM) && value instanceof Map<?, ?> m) {
            return form(m).getBytes(StandardCharsets.UTF_8);
        }
        if (!isJson(type) && value instanceof String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        return Json.bytes(value);
    }

    /** {@code application/json}, {@code application/*+json} and friends. */
    static boolean isJson(String contentType) {
        String type = contentType.toLowerCase(Locale.ROOT).split(";", 2)[0].strip();
        return type.equals("application/json") || type.endsWith("+json") || type.equals("text/json");
    }
}
