package dev.backplane.kernel.testing;

import java.net.CookieHandler;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * A cookie jar for one loopback browser session, every host's cookies in one map. Keycloak marks its login cookies
 * Secure, which the JDK's {@code CookieManager} then withholds over plain http; a browser treats loopback as secure.
 * A cookie set empty or with {@code Max-Age=0} is removed, as a browser does.
 */
public class LoopbackCookieJar extends CookieHandler {

    /** The cookies by name; a test may read one or plant one. */
    public final Map<String, String> cookies = new ConcurrentHashMap<>();

    @Override
    public Map<String, List<String>> get(URI uri, Map<String, List<String>> headers) {
        if (cookies.isEmpty()) {
            return Map.of();
        }
        return Map.of("Cookie", List.of(cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("; "))));
    }

    @Override
    public void put(URI uri, Map<String, List<String>> headers) {
        headers.forEach((name, values) -> {
            if (name != null && name.equalsIgnoreCase("Set-Cookie")) {
                for (String v : values) {
                    String pair = v.split(";", 2)[0];
                    int eq = pair.indexOf('=');
                    if (eq > 0) {
                        String value = pair.substring(eq + 1).trim();
                        if (value.isEmpty() || v.contains("Max-Age=0")) {
                            cookies.remove(pair.substring(0, eq).trim());
                        } else {
                            cookies.put(pair.substring(0, eq).trim(), value);
                        }
                    }
                }
            }
        });
    }
}
