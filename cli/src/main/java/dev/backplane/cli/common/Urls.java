package dev.backplane.cli.common;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** URL checks shared by login and the backplane client. */
public final class Urls {

    private Urls() {
    }

    /**
     * Parses an http(s) base URL, strips trailing slashes, and refuses plain http unless
     * {@code allowHttp} is set and the host is loopback.
     */
    public static URI checkedBase(String text, String what, boolean allowHttp) {
        URI uri;
        try {
            uri = new URI(text.trim().replaceAll("/+$", ""));
        } catch (URISyntaxException e) {
            throw CliException.usage(what + " is not a URL: " + text);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))) {
            throw CliException.usage(what + " must be an http(s) URL with a host, got '" + text + "'");
        }
        if (scheme.equals("http")) {
            if (!isLoopback(uri.getHost())) {
                throw CliException.usage("refusing plain http:// for " + what + " " + uri
                        + ": tokens would cross the network unencrypted. Use https://"
                        + " (plain http is allowed only for localhost, with --insecure-allow-http)");
            }
            if (!allowHttp) {
                throw CliException.usage(what + " " + uri + " is plain http://; for a local backplane add "
                        + "--insecure-allow-http");
            }
        }
        return uri;
    }

    public static boolean isLoopback(String host) {
        String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        if (h.equalsIgnoreCase("localhost") || h.toLowerCase(Locale.ROOT).endsWith(".localhost")) {
            return true;
        }
        return IpLiterals.parse(h).map(InetAddress::isLoopbackAddress).orElse(false);
    }
}
