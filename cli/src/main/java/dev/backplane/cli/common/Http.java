package dev.backplane.cli.common;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

/**
 * HTTP for the CLI: one client per scheme, transport failures turned into clear "unreachable" errors, and a
 * {@code User-Agent: svc-cli/<version>} on every request, whoever built it (backplane, OIDC, Keycloak).
 */
public final class Http implements AutoCloseable {

    public static final ObjectMapper JSON = new ObjectMapper();

    /** A response: status, headers and body bytes. */
    public record Response(int status, HttpHeaders headers, byte[] body) {
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public JsonNode json() {
            try {
                return body.length == 0 ? JSON.nullNode() : JSON.readTree(body);
            } catch (IOException e) {
                throw CliException.failed("expected JSON but got HTTP " + status + ": " + abbreviate(text()));
            }
        }

        public boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    private final SSLContext ssl;
    private final PrintWriter err;
    private final boolean verbose;
    /** For {@code http://} URLs: built without a TLS context (see {@link RefusedTls}). */
    private HttpClient plain;
    /** For {@code https://} URLs: built on the first one, with the given or the JDK's default TLS context. */
    private HttpClient tls;

    /**
     * @param ssl the TLS context for {@code https://} URLs; null for the JDK's default. Either is set up only when
     *            the first {@code https://} request is sent: a command against a plain-http backplane (the local
     *            stack) never loads the CA store and the TLS engine, which is a fifth of a short command's time
     */
    public Http(SSLContext ssl, PrintWriter err, boolean verbose) {
        this.ssl = ssl;
        this.err = err;
        this.verbose = verbose;
    }

    /** The client for {@code uri}'s scheme, built on first use. */
    private synchronized HttpClient client(URI uri) {
        if ("https".equalsIgnoreCase(uri.getScheme())) {
            if (tls == null) {
                tls = builder().sslContext(ssl != null ? ssl : defaultTls()).build();
            }
            return tls;
        }
        if (plain == null) {
            // an explicit context and explicit parameters: the JDK's client then touches neither at build time
            plain = builder().sslContext(RefusedTls.context(() -> { })).sslParameters(new javax.net.ssl.SSLParameters())
                    .build();
        }
        return plain;
    }

    private static HttpClient.Builder builder() {
        return HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER);
    }

    private static SSLContext defaultTls() {
        try {
            return SSLContext.getDefault();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw CliException.failed("this Java runtime has no TLS implementation: " + e.getMessage());
        }
    }

    public Response send(HttpRequest unnamed) {
        HttpRequest request = identified(unnamed);
        if (verbose) {
            err.println("> " + request.method() + " " + request.uri());
        }
        try {
            HttpResponse<byte[]> r = client(request.uri()).send(request, HttpResponse.BodyHandlers.ofByteArray());
            if (verbose) {
                err.println("< HTTP " + r.statusCode() + " " + request.uri()
                        + r.headers().firstValue("X-Request-Id").map(id -> " (request id " + id + ")").orElse(""));
            }
            return new Response(r.statusCode(), r.headers(), r.body());
        } catch (HttpConnectTimeoutException | ConnectException e) {
            throw new CliException(ExitCodes.UNREACHABLE, "cannot reach " + origin(request.uri())
                    + ": " + (e.getMessage() == null ? "connection refused" : e.getMessage()));
        } catch (HttpTimeoutException e) {
            throw new CliException(ExitCodes.UNREACHABLE, origin(request.uri()) + " did not answer in time");
        } catch (SSLException e) {
            throw new CliException(ExitCodes.UNREACHABLE, "TLS with " + origin(request.uri()) + " failed: "
                    + e.getMessage());
        } catch (IOException e) {
            throw new CliException(ExitCodes.UNREACHABLE, "cannot reach " + origin(request.uri()) + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("interrupted");
        }
    }

    /**
     * Sends a request whose answer is a stream (server-sent events): a 200 hands every line to
     * {@code line} as it arrives; any other status answers the whole body like {@link #send}.
     */
    public Response stream(HttpRequest request, java.util.function.Consumer<String> line) {
        return streamWhile(request, l -> {
            line.accept(l);
            return true;
        });
    }

    /** As {@link #stream}, until {@code line} answers false (the connection is then closed). */
    public Response streamWhile(HttpRequest request, java.util.function.Predicate<String> line) {
        try {
            HttpResponse<java.util.stream.Stream<String>> r = client(request.uri()).send(identified(request), HttpResponse.BodyHandlers.ofLines());
            if (r.statusCode() != 200) {
                return new Response(r.statusCode(), r.headers(), String.join("\n", r.body().toList())
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            try (java.util.stream.Stream<String> lines = r.body()) {
                java.util.Iterator<String> it = lines.iterator();
                while (it.hasNext() && line.test(it.next())) {
                    // each line handed over as it arrives
                }
            }
            return new Response(200, r.headers(), new byte[0]);
        } catch (IOException e) {
            throw new CliException(ExitCodes.UNREACHABLE, "cannot reach " + origin(request.uri()) + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("interrupted");
        }
    }

    /** The request with the CLI's User-Agent (a copy: a built request cannot change). */
    static HttpRequest identified(HttpRequest request) {
        return HttpRequest.newBuilder(request, (name, value) -> !name.equalsIgnoreCase("User-Agent"))
                .header("User-Agent", BuildInfo.userAgent()).build();
    }

    public Response get(URI uri) {
        return send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET()
                .header("Accept", "application/json").build());
    }

    public Response postForm(URI uri, Map<String, String> form) {
        return send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(form(form))).build());
    }

    public static String form(Map<String, String> form) {
        return form.entrySet().stream()
                .map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
                .collect(Collectors.joining("&"));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static String origin(URI uri) {
        return uri.getScheme() + "://" + uri.getAuthority();
    }

    public static String abbreviate(String s) {
        String oneLine = s.replaceAll("\\s+", " ").trim();
        return oneLine.length() > 300 ? oneLine.substring(0, 300) + "..." : oneLine;
    }

    @Override
    public synchronized void close() {
        if (plain != null) {
            plain.close();
        }
        if (tls != null) {
            tls.close();
        }
    }
}
