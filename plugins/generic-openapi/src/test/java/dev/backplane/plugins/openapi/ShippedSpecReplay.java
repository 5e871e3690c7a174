package dev.backplane.plugins.openapi;

import static dev.backplane.plugins.openapi.ReplayKernel.errorCode;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One family whose spec ships in {@code plugin-repo/specs} (Proxmox VE, Hetzner Robot), under replay: a
 * {@link ReplayKernel} that has ingested it by catalog name with reads enabled, an HTTPS
 * {@link ReplayVendor} with a self-signed certificate, and the spec as both a JSON and a form
 * {@link FormContract}. It also holds the checks every such family's test makes the same way: a read
 * that must succeed, and the life of an approval-gated write.
 */
record ShippedSpecReplay(ReplayKernel replay, ReplayVendor vendor, SpecContract contract, FormContract forms,
                         String connectorId) implements AutoCloseable {

    private static final Path SPECS = Path.of("../../plugin-repo/specs");

    /**
     * Starts the kernel, ingests {@code catalogName} ({@code proxmox/9.x}; its impl is its product) and
     * enables its reads, and starts the HTTPS vendor answering with {@code handler}.
     *
     * @param spec the spec's path below {@code plugin-repo/specs}
     */
    static ShippedSpecReplay start(String catalogName, String spec, ReplayVendor.Handler handler) throws Exception {
        String product = catalogName.substring(0, catalogName.indexOf('/'));
        String connectorId = catalogName.replace('/', '-');
        ReplayKernel replay = ReplayKernel.start(List.of(product), Map.of());
        ReplayVendor vendor = null;
        try {
            SpecContract contract = SpecContract.read(SPECS.resolve(spec));
            FormContract forms = FormContract.of(contract, replay.work());
            vendor = ReplayVendor.https(replay.work(), handler);
            assertThat(replay.ingest(catalogName)).contains("ingested " + connectorId);
            replay.enableReads(connectorId);
            return new ShippedSpecReplay(replay, vendor, contract, forms, connectorId);
        } catch (Exception | AssertionError e) {
            replay.close(); // a half-started family leaves no kernel behind
            if (vendor != null) {
                vendor.close();
            }
            throw e;
        }
    }

    /** Registers a target of {@code product} at the vendor, trusting its certificate by pin. */
    void pinnedTarget(String name, String product, Map<String, String> secret) {
        replay.target(name, product, vendor, secret, Map.of("tls_ca_pin", vendor.pem()));
    }

    /** Calls {@code opId} as the operator; it must succeed. */
    JsonNode read(String target, String opId, Map<String, Object> params) throws Exception {
        JsonNode r = call(target, opId, params);
        assertThat(r.path("status").asText()).as(opId + ": " + r).isEqualTo("ok");
        return r;
    }

    /** Calls {@code opId} as the operator, whatever the outcome. */
    JsonNode call(String target, String opId, Map<String, Object> params) throws Exception {
        return replay.call(replay.operator(), connectorId, opId, target, params);
    }

    /**
     * The life of a write: denied while only reads are enabled; once enabled, parked with nothing sent;
     * sent exactly once when the second tenant_admin approves; {@code badParams} refused as
     * {@code invalid_params} before anything is sent; the audit names it with its work ref.
     *
     * @return the approval answer (with the released result)
     */
    JsonNode approvedWrite(String target, String opId, Map<String, Object> params, Map<String, Object> badParams)
            throws Exception {
        JsonNode denied = call(target, opId, params);
        assertThat(denied.path("status").asText()).as("writes stay default-deny after enable-reads").isEqualTo("denied");
        replay.enableOperation(connectorId, opId);
        int before = vendor.writes().size();
        JsonNode parked = call(target, opId, params);
        assertThat(vendor.writes()).as("nothing sent while parked").hasSize(before);
        JsonNode released = replay.approve(parked);
        assertThat(released.path("result").path("status").asText()).as(released.toString()).isEqualTo("ok");
        assertThat(vendor.writes()).as("sent once on approval").hasSize(before + 1);

        JsonNode refused = call(target, opId, badParams);
        assertThat(errorCode(refused)).as(refused.toString()).isEqualTo("invalid_params");
        assertThat(vendor.writes()).as("a refused body is never sent").hasSize(before + 1);
        assertThat(replay.auditOf(target)).contains(opId).contains("CHG-9");
        return released;
    }

    @Override
    public void close() {
        replay.close();
        vendor.close();
    }
}
