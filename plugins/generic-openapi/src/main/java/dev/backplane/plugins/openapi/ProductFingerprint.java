package dev.backplane.plugins.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.ProductProbe;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads a fingerprint from the answer to a catalog index's product probe: the version at the probe's JSON
 * pointer, the product confirmed by the probe's expectations. A target that answers something else (another
 * status, no JSON, no version, a failed expectation) is reachable but not recognised: its fingerprint names no
 * product and no version, and says why in its probe method, rather than guessing.
 */
final class ProductFingerprint {

    private ProductFingerprint() {
    }

    static Fingerprint of(ProductProbe probe, VendorResponse answer, String product, Instant now) {
        String method = "GET " + probe.path();
        if (!answer.ok()) {
            return unrecognised(method + " answered HTTP " + answer.status(), product, now);
        }
        JsonNode doc = Json.treeOf(answer.body());
        JsonNode version = doc.at(probe.versionPointer());
        if (!version.isValueNode() || version.asText().isBlank()) {
            return unrecognised(method + " has no version at " + probe.versionPointer(), product, now);
        }
        for (Map.Entry<String, String> e : probe.expect().entrySet()) {
            JsonNode v = doc.at(e.getKey());
            if (!v.isValueNode() || !Pattern.compile(e.getValue()).matcher(v.asText()).find()) {
                return unrecognised(method + ": " + e.getKey() + " does not match " + e.getValue(), product, now);
            }
        }
        return new Fingerprint(probe.vendor(), Optional.of(product), Optional.of(version.asText().strip()), true, now,
                method);
    }

    private static Fingerprint unrecognised(String why, String product, Instant now) {
        return new Fingerprint(Optional.empty(), Optional.empty(), Optional.empty(), true, now,
                why + " (not recognised as " + product + ")");
    }
}
