package dev.backplane.kernel.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A composite operation's child requests (ConnectorContext.beginStep, plugin-api 1.6): each gets an audit
 * row under the composite's, written before the request leaves; when that row cannot be written the child
 * request is never sent.
 */
@KernelTest
class CompositeAuditIT {

    private static final String PASSWORD = "comp-pw-" + UUID.randomUUID();
    private static final List<String> HITS = new CopyOnWriteArrayList<>();
    private static final UUID TENANT = UUID.randomUUID();
    private static LoopbackTarget target;
    private static TestIssuer issuer;
    private static TestKernel kernel;

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackTarget.start(setup, "svc", PASSWORD, x -> {
            LoopbackTarget.recordInto(HITS).accept(x);
            LoopbackHttp.answer(x, 200, "4.2.0");
        });
        setup.plugin(TestPlugins.connector("comp", "1.x").product("comp").operations(3).httpProbe(false)
                .typedAndComposite().manifest("Plugin-Api-Version", "1.6"));
    }

    @BeforeAll
    static void target() {
        String admin = issuer.tenantAdmin(TENANT);
        target.register(kernel, admin, "c1", "comp");
        kernel.enableConnector(admin, "comp-1.x");
        assertThat(kernel.send("PATCH", "/api/v1/connectors/comp-1.x/operations/comp.sync.composite", admin,
                "{\"is_enabled\": true}", Map.of()).status()).isEqualTo(200);
    }

    private static JsonNode callComposite() {
        var r = kernel.send("POST", "/api/v1/operations/call", issuer.operator(TENANT), "{\"connector_id\": "
                + "\"comp-1.x\", \"op_id\": \"comp.sync.composite\", \"target\": \"c1\", \"params\": {}, "
                + "\"work_ref\": \"CHG-77\"}", Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    @Test
    void eachChildRequestHasItsOwnRowUnderTheCompositesRow() {
        JsonNode env = callComposite();
        assertThat(env.path("status").asText()).as(env.toString()).isEqualTo("ok");
        String parent = env.path("extras").path("audit_id").asText();
        var children = kernel.get("/api/v1/audit?parent_audit_id=" + parent, issuer.tenantAdmin(TENANT));
        assertThat(children.status()).as(children.body()).isEqualTo(200);
        JsonNode rows = children.json().path("rows");
        assertThat(rows.size()).as(children.body()).isEqualTo(1);
        JsonNode child = rows.get(0);
        assertThat(child.path("op_id").asText()).isEqualTo("comp.status.typed");
        assertThat(child.path("op_class").asText()).as("the child's class, from the catalog").isEqualTo("read");
        assertThat(child.path("result_status").asText()).isEqualTo("ok");
        assertThat(child.path("parent_audit_id").asText()).isEqualTo(parent);
        assertThat(child.path("work_ref").asText()).isEqualTo("CHG-77");
        assertThat(child.path("target").asText()).isEqualTo("c1");
        assertThat(children.body()).doesNotContain(PASSWORD);
    }

    @Test
    void aChildWhoseRowCannotBeWrittenIsNeverSent() {
        kernel.jdbc().update("ALTER TABLE audit_rows ADD CONSTRAINT no_children CHECK (parent_audit_id IS NULL) NOT VALID");
        int before = HITS.size();
        try {
            JsonNode env = callComposite();
            assertThat(env.path("status").asText()).as(env.toString()).isEqualTo("error");
            assertThat(env.path("extras").path("error_code").asText()).isEqualTo("connector_error");
            assertThat(env.path("error").asText()).contains("not sent");
            assertThat(HITS).as("the child request never left").hasSize(before);
        } finally {
            kernel.jdbc().update("ALTER TABLE audit_rows DROP CONSTRAINT no_children");
        }
    }
}
