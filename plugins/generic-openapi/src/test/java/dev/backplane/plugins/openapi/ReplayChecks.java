package dev.backplane.plugins.openapi;

import static dev.backplane.plugins.openapi.ReplayKernel.errorCode;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.Fixtures;
import java.util.List;
import java.util.Map;

/**
 * The checks every replayed vendor family makes the same way, on one {@link ReplayKernel} and its
 * {@link ReplayVendor}: a read that must succeed, the four-eyes life of a write, a vendor failure that
 * must keep its HTTP status, and the family verbs through the CLI. A family IT states only its data.
 *
 * @param replay the kernel
 * @param vendor the replay server
 * @param connectorId the ingested connector ({@code vcfa-9.x})
 */
record ReplayChecks(ReplayKernel replay, ReplayVendor vendor, String connectorId) {

    /** Calls a read as the operator; it must answer ok. */
    JsonNode read(String target, String opId, Map<String, Object> params) throws Exception {
        JsonNode r = replay.call(replay.operator(), connectorId, opId, target, params);
        assertThat(r.path("status").asText()).as(r.toString()).isEqualTo("ok");
        return r;
    }

    /**
     * A write's life: denied while default-deny, then enabled, parked with nothing sent, and released by the
     * second tenant_admin. Returns the released answer; the vendor has by then recorded the write.
     */
    JsonNode approvedWrite(String target, String opId, Map<String, Object> params) throws Exception {
        JsonNode denied = replay.call(replay.operator(), connectorId, opId, target, params);
        assertThat(denied.path("status").asText()).as("writes stay default-deny after enable-reads").isEqualTo("denied");
        replay.enableOperation(connectorId, opId);
        int before = vendor.writes().size();
        JsonNode parked = replay.call(replay.operator(), connectorId, opId, target, params);
        assertThat(vendor.writes()).as("nothing sent while parked").hasSize(before);
        JsonNode released = replay.approve(parked);
        assertThat(released.path("result").path("status").asText()).as(released.toString()).isEqualTo("ok");
        assertThat(vendor.writes()).as("sent once approved").hasSize(before + 1);
        return released;
    }

    /**
     * A credential read's life (a read whose answer carries a secret, e.g. a rescue system's root password):
     * left off by enable-reads, enabled alone, parked for approval, and released by the second tenant_admin.
     * Returns the released answer.
     */
    JsonNode approvedCredentialRead(String target, String opId, Map<String, Object> params) throws Exception {
        JsonNode denied = replay.call(replay.operator(), connectorId, opId, target, params);
        assertThat(denied.path("status").asText()).as("enable-reads leaves a credential read off: " + denied)
                .isEqualTo("denied");
        replay.enableOperation(connectorId, opId);
        JsonNode parked = replay.call(replay.operator(), connectorId, opId, target, params);
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        JsonNode released = replay.approve(parked);
        assertThat(released.path("result").path("status").asText()).as(released.toString()).isEqualTo("ok");
        return released;
    }

    /** A vendor's HTTP failure is {@code connector_error} carrying its status. */
    JsonNode vendorError(String target, String opId, Map<String, Object> params, int status) throws Exception {
        JsonNode r = replay.call(replay.operator(), connectorId, opId, target, params);
        assertThat(errorCode(r)).as(r.toString()).isEqualTo("connector_error");
        assertThat(r.path("extras").path("vendor_status").asInt()).as(r.toString()).isEqualTo(status);
        return r;
    }

    /** {@code svc <family> --help} lists {@code nouns}; {@code svc <family> <verb...>} answers with {@code expected}. */
    void familyVerbs(String family, List<String> nouns, List<String> verb, String expected) {
        var help = replay.cli().run(family, "--help");
        assertThat(help.exitCode()).as(help.toString()).isZero();
        assertThat(help.out()).contains(nouns);
        var call = replay.cli().run(java.util.stream.Stream.concat(java.util.stream.Stream.of(family), verb.stream())
                .toArray(String[]::new));
        assertThat(call.exitCode()).as(call.toString()).isZero();
        assertThat(call.out()).contains(expected);
    }

    /**
     * {@code POST /api/v1/targets/{name}/probe}: the index-driven product probe recognises the product and
     * reads its version, by {@code probeMethod} ({@code GET /api/v1/node/version}).
     */
    JsonNode probe(String target, String product, String version, String probeMethod) {
        var r = replay.kernel().send("POST", "/api/v1/targets/" + target + "/probe", replay.operator(), "{}", Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode f = r.json().path("fingerprint");
        assertThat(f.path("reachable").asBoolean()).as(r.body()).isTrue();
        assertThat(f.path("product").asText()).as(r.body()).isEqualTo(product);
        assertThat(f.path("version").asText()).as(r.body()).isEqualTo(version);
        assertThat(f.path("probe_method").asText()).as(r.body()).isEqualTo(probeMethod);
        return f;
    }

    /** Stops the kernel and the vendor, whichever started. */
    static void close(ReplayKernel replay, ReplayVendor vendor) {
        Fixtures.closeAll(replay, vendor);
    }
}
