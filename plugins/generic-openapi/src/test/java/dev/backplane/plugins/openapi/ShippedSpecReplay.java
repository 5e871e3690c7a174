package dev.backplane.plugins.openapi;

import static dev.backplane.plugins.openapi.ReplayKernel.errorCode;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One family whose spec ships in {@code plugin-repo/specs} and whose writes are form-encoded (Proxmox VE,
 * Hetzner Robot), under replay: a {@link ReplayKernel} that has ingested it by catalog name with reads
 * enabled, an HTTPS {@link ReplayVendor} with a self-signed certificate, the spec as a JSON and a form
 * {@link FormContract}, and the shared {@link ReplayChecks} on them.
 *
 * @param replay the kernel
 * @param vendor the replay server
 * @param contract the spec's response and JSON request schemas
 * @param forms the spec's form request schemas
 * @param checks the checks every replayed family makes
 */
record ShippedSpecReplay(ReplayKernel replay, ReplayVendor vendor, SpecContract contract, FormContract forms,
                         ReplayChecks checks) implements AutoCloseable {

    private static final Path SPECS = Path.of("../../plugin-repo/specs");

    /**
     * Starts the kernel, ingests {@code catalogName} ({@code proxmox/9.x}; its impl is its product) and
     * enables its reads, and starts the HTTPS vendor answering with {@code handler}.
     *
     * @param spec the spec's path below {@code plugin-repo/specs}
     */
    static ShippedSpecReplay start(String catalogName, String spec, ReplayVendor.Handler handler) throws Exception {
        return start(catalogName, spec, handler, Map.of());
    }

    /** As above, with kernel settings (by environment-variable name) added to the test defaults. */
    static ShippedSpecReplay start(String catalogName, String spec, ReplayVendor.Handler handler,
                                   Map<String, String> settings) throws Exception {
        String product = catalogName.substring(0, catalogName.indexOf('/'));
        String connectorId = catalogName.replace('/', '-');
        ReplayKernel replay = ReplayKernel.start(List.of(product), Map.of(), settings);
        ReplayVendor vendor = null;
        try {
            SpecContract contract = SpecContract.read(SPECS.resolve(spec));
            FormContract forms = FormContract.of(contract, replay.work());
            vendor = ReplayVendor.https(replay.work(), handler);
            assertThat(replay.ingest(catalogName)).contains("ingested " + connectorId);
            replay.enableReads(connectorId);
            return new ShippedSpecReplay(replay, vendor, contract, forms, new ReplayChecks(replay, vendor, connectorId));
        } catch (Exception | AssertionError e) {
            ReplayChecks.close(replay, vendor); // a half-started family leaves no kernel behind
            throw e;
        }
    }

    /** Registers a target of {@code product} at the vendor, trusting its certificate by pin. */
    void pinnedTarget(String name, String product, Map<String, String> secret) {
        replay.target(name, product, vendor, secret, Map.of("tls_ca_pin", vendor.pem()));
    }

    /** Calls {@code opId} as the operator, whatever the outcome. */
    JsonNode call(String target, String opId, Map<String, Object> params) throws Exception {
        return replay.call(replay.operator(), checks.connectorId(), opId, target, params);
    }

    /**
     * {@link ReplayChecks#approvedWrite}, then {@code badParams} refused as {@code invalid_params} with
     * nothing sent, and the audit naming the write with its work ref.
     *
     * @return the approval answer (with the released result)
     */
    JsonNode approvedWrite(String target, String opId, Map<String, Object> params, Map<String, Object> badParams)
            throws Exception {
        JsonNode released = checks.approvedWrite(target, opId, params);
        int sent = vendor.writes().size();
        JsonNode refused = call(target, opId, badParams);
        assertThat(errorCode(refused)).as(refused.toString()).isEqualTo("invalid_params");
        assertThat(vendor.writes()).as("a refused body is never sent").hasSize(sent);
        assertThat(replay.auditOf(target)).contains(opId).contains("CHG-9");
        return released;
    }

    @Override
    public void close() {
        ReplayChecks.close(replay, vendor);
    }
}
