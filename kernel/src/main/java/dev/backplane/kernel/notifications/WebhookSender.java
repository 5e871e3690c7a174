package dev.backplane.kernel.notifications;

import dev.backplane.kernel.egress.EgressProxy;
import dev.backplane.kernel.events.WebhookMacs;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * POSTs one webhook message, signed with Standard Webhooks ({@code webhook-id}, {@code webhook-timestamp},
 * {@code webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>}) when the tenant named a secret. Every
 * connection goes through the egress proxy, which checks the address actually dialled against the SSRF guard; no
 * redirect is followed. A 2xx answer delivers; anything else, or no answer, is a {@link Failure}, whose message names
 * the receiver by scheme, host and port only (a webhook URL's path often carries its token).
 */
final class WebhookSender {

    /** A delivery that did not happen, and why (never the URL's path or query, never the secret). */
    static final class Failure extends Exception {
        Failure(String message) {
            super(message, null, false, false);
        }
    }

    private final HttpClient http;
    private final Duration timeout;

    WebhookSender(EgressProxy egress, SSLContext tls, Duration timeout) {
        this.http = HttpClient.newBuilder().proxy(egress.selector()).sslContext(tls).connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        this.timeout = timeout;
    }

    /** Sends {@code body} to {@code url} as message {@code id}; returns the receiver's status (2xx). */
    int send(String url, String id, byte[] body, Optional<byte[]> secret, Instant now) throws Failure {
        URI uri = URI.create(url);
        long timestamp = now.getEpochSecond();
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout)
                .header("Content-Type", "application/json")
                .header("User-Agent", "svc-backplane-notifications")
                .header("webhook-id", id)
                .header("webhook-timestamp", Long.toString(timestamp))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        secret.ifPresent(s -> b.header("webhook-signature", WebhookMacs.standardSignature(s, id, timestamp, body)));
        HttpResponse<String> res;
        try {
            res = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new Failure(describe(uri) + " did not answer within " + timeout.toMillis() + " ms");
        } catch (IOException e) {
            throw new Failure(describe(uri) + " could not be reached: " + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failure(describe(uri) + ": interrupted");
        }
        if (res.headers().firstValue("X-Svc-Egress").isPresent()) { // the egress proxy answered, not the receiver
            String why = res.body() == null ? "" : res.body().strip();
            throw new Failure(describe(uri) + " refused by the egress guard: "
                    + why.substring(0, Math.min(300, why.length())));
        }
        if (res.statusCode() / 100 != 2) {
            throw new Failure(describe(uri) + " answered HTTP " + res.statusCode());
        }
        return res.statusCode();
    }

    /** The receiver as logs and audit rows name it: scheme, host and port. */
    static String describe(URI uri) {
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
    }
}
