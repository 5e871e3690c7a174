package dev.backplane.kernel.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One connector's operations called through the REST pipeline, as every plugin's pipeline test calls them:
 * enable operations, preview or call one (expecting 200 and none of the staged secrets in the answer), approve
 * a parked call. Written once here so that each plugin's test says only what is particular to its product.
 */
public final class OperationCalls {

    private final TestKernel kernel;
    private final String connectorId;
    private final Collection<String> secrets;

    /** Calls of {@code connectorId} on {@code kernel}; no answer may contain any of {@code secrets}. */
    public OperationCalls(TestKernel kernel, String connectorId, String... secrets) {
        this(kernel, connectorId, List.of(secrets));
    }

    /**
     * As {@link #OperationCalls(TestKernel, String, String...)}, with secrets read at each answer: a test that
     * stages more secrets as it goes passes a live collection.
     */
    public OperationCalls(TestKernel kernel, String connectorId, Collection<String> secrets) {
        this.kernel = kernel;
        this.connectorId = connectorId;
        this.secrets = secrets;
    }

    /** Enables each operation ({@code PATCH .../operations/{op}} with {@code is_enabled}), expecting 200. */
    public void enable(String adminToken, List<String> opIds) {
        for (String op : opIds) {
            var r = kernel.patch("/api/v1/connectors/" + connectorId + "/operations/" + op, adminToken,
                    Map.of("is_enabled", true));
            assertThat(r.status()).as(op + ": " + r.body()).isEqualTo(200);
        }
    }

    /** As {@link #enable(String, List)}. */
    public void enable(String adminToken, String... opIds) {
        enable(adminToken, List.of(opIds));
    }

    /** {@code POST /api/v1/operations/call}, expecting 200 and no secret in the answer; the answer's JSON. */
    public JsonNode call(String token, String opId, String target, Map<String, Object> params) {
        return call(token, opId, target, params, Map.of());
    }

    /** As {@link #call(String, String, String, Map)} with more fields in the body ({@code preview_hash}, ...). */
    public JsonNode call(String token, String opId, String target, Map<String, Object> params,
                         Map<String, Object> more) {
        Map<String, Object> body = new HashMap<>(Map.of("connector_id", connectorId, "op_id", opId, "target", target,
                "params", params));
        body.putAll(more);
        return clean(kernel.post("/api/v1/operations/call", token, body)).json();
    }

    /** {@code POST /api/v1/operations/preview}, expecting 200 and no secret in the answer; what the call would send. */
    public JsonNode preview(String token, String opId, String target, Map<String, Object> params) {
        return clean(kernel.post("/api/v1/operations/preview", token, Map.of("connector_id", connectorId, "op_id", opId,
                "target", target, "params", params))).json().path("result");
    }

    /**
     * For an operation that needs its preview hash: a call without one is refused with
     * {@code preview_hash_required}; then its preview (what the call would send, with the hash).
     */
    public JsonNode previewRequired(String token, String opId, String target, Map<String, Object> params) {
        JsonNode noHash = call(token, opId, target, params);
        assertThat(noHash.path("extras").path("error_code").asText()).as(noHash.toString())
                .isEqualTo("preview_hash_required");
        return preview(token, opId, target, params);
    }

    /** As {@link #call(String, String, String, Map)} with the preview hash of {@code preview}. */
    public JsonNode call(String token, String opId, String target, Map<String, Object> params, JsonNode preview) {
        return call(token, opId, target, params, Map.of("preview_hash", preview.path("preview_hash").asText()));
    }

    /** Approves the parked call {@code parked} (expecting it parked and a 200) and returns the released result. */
    public JsonNode approve(String approverToken, JsonNode parked) {
        return approval(approverToken, parked).path("result");
    }

    /**
     * Approves the parked call {@code parked}, expecting it parked, a 200 and no secret in the answer; the whole
     * approval answer (the request and, under {@code result}, the released result).
     */
    public JsonNode approval(String approverToken, JsonNode parked) {
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        return clean(kernel.post("/api/v1/approvals/" + parked.path("extras").path("approval_request_id").asText()
                + "/approve", approverToken, Map.of("reason", "ok"))).json();
    }

    /** {@code POST /api/v1/targets/{target}/probe}, expecting 200 and no secret in the answer; the fingerprint. */
    public JsonNode probe(String token, String target) {
        return clean(kernel.post("/api/v1/targets/" + target + "/probe", token, null)).json().path("fingerprint");
    }

    /**
     * As {@link #probe(String, String)}, expecting a reachable target identified as {@code vendor}'s
     * {@code product} in a version matching {@code versionPattern}, by {@code probeMethod}.
     */
    public JsonNode probe(String token, String target, String vendor, String product, String versionPattern,
                          String probeMethod) {
        JsonNode fp = probe(token, target);
        assertThat(fp.path("reachable").asBoolean()).as(fp.toString()).isTrue();
        assertThat(fp.path("vendor").asText()).as(fp.toString()).isEqualTo(vendor);
        assertThat(fp.path("product").asText()).as(fp.toString()).isEqualTo(product);
        assertThat(fp.path("version").asText()).as(fp.toString()).matches(versionPattern);
        assertThat(fp.path("probe_method").asText()).as(fp.toString()).isEqualTo(probeMethod);
        return fp;
    }

    private TestKernel.Response clean(TestKernel.Response r) {
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        for (String secret : secrets) {
            assertThat(r.body()).doesNotContain(secret);
        }
        return r;
    }
}
