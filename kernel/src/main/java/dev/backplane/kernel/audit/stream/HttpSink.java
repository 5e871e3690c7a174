package dev.backplane.kernel.audit.stream;

import dev.backplane.kernel.audit.integrity.AuditChain;
import dev.backplane.kernel.audit.integrity.AuditRecord;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * Delivers audit rows to an HTTP endpoint: one POST of {@code {"rows":[...]}} per batch, with the bearer token
 * when one is set; a 2xx answer acknowledges the whole batch, anything else (or no answer) is a failure and the
 * batch is sent again. The token and the URL's query and user info never appear in a log or an error.
 */
final class HttpSink implements AuditSink {

    private final URI url;
    private final Optional<String> token;
    private final HttpClient http;
    private final Duration timeout;

    HttpSink(URI url, Optional<String> token, SSLContext tls, Duration timeout) {
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme()) || url.getHost() == null) {
            throw new IllegalArgumentException("audit.stream.http.url must be an http or https URL with a host");
        }
        this.url = url;
        this.token = token.filter(t -> !t.isBlank());
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).sslContext(tls)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @Override
    public String name() {
        return "http";
    }

    @Override
    public String describe() {
        return "HTTP receiver " + url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort())
                + (url.getRawPath() == null ? "" : url.getRawPath());
    }

    @Override
    public void deliver(List<AuditRecord> rows, long redeliveredUpTo) throws IOException, InterruptedException {
        List<Object> body = new ArrayList<>(rows.size());
        for (AuditRecord row : rows) {
            body.add(StreamMessages.json(row, row.chainPos() <= redeliveredUpTo));
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(AuditChain.line(Map.of("rows", body))));
        token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
        int status = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        if (status < 200 || status > 299) {
            throw new IOException(describe() + " answered " + status);
        }
    }
}
