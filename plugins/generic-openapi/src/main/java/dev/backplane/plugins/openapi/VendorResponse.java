package dev.backplane.plugins.openapi;

import static java.util.Objects.requireNonNull;

import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What the vendor answered.
 *
 * @param status the HTTP status
 * @param headers the response headers
 * @param body the body bytes (possibly empty)
 */
record VendorResponse(int status, HttpHeaders headers, byte[] body) {

    VendorResponse {
        requireNonNull(headers, "headers is null");
        requireNonNull(body, "body is null");
    }

    Optional<String> contentType() {
        return headers.firstValue("Content-Type");
    }

    String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    boolean ok() {
        return status >= 200 && status < 300;
    }

    @Override
    public String toString() {
        return "VendorResponse[status=" + status + ", " + body.length + " bytes]";
    }
}
