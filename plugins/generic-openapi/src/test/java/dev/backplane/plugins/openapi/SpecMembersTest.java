package dev.backplane.plugins.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.plugins.openapi.FakeVendor.Reply;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.Discovery;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.IngestedConnector;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ProductDiscovery;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An ingested connector's discovery as its index entry declares it, against a fake vendor on loopback: members
 * filtered by {@code where}, fields by pointer, the seed marked; no declaration, no {@link Discovery}; a vendor
 * error, an answer without the list and a declaration naming a missing or credential-reading operation are
 * connector errors that say so.
 */
class SpecMembersTest {

    private static final String TOKEN = "tok-" + "x".repeat(24);
    private final FakeVendor vendor = FakeVendor.start();
    private final TestContext ctx = new TestContext();
    private final Credential credential = new Credential(Map.of("token", TOKEN));

    @AfterEach
    void stop() {
        vendor.close();
    }

    private static final ProductDiscovery NODES = new ProductDiscovery("GET /cluster/status", "/data",
            Map.of("/type", "^node$"), "/name", "/ip", Optional.of("/port"), Optional.of("/version"),
            Map.of("/local", "^1$"));

    private Connector open(Optional<ProductDiscovery> discovery, OperationDescriptor... ops) {
        IngestedConnector plain = Specs.connector("/api2/json", Specs.auth("static_header", Map.of("header", "Authorization", "prefix", "Bearer ")), ops);
        IngestedConnector c = new IngestedConnector(plain.descriptor(), plain.catalog(), plain.basePath(), plain.auth(),
                Optional.empty(), discovery);
        return new OpenApiEngine().connector(c).open(ctx, vendor.target(), credential);
    }

    private static OperationDescriptor status() {
        return Specs.op("acme.cluster.status", "GET", "/cluster/status", ResultKind.OBJECT, Specs.NO_PARAMS);
    }

    private List<Map<String, Object>> discover(Connector c) {
        return ((Discovery) c).discover("acme");
    }

    @Test
    void theDeclaredReadsMembersBecomeCandidates() {
        vendor.on("GET", "/api2/json/cluster/status", s -> Reply.json(200, """
                {"data": [{"type": "cluster", "name": "homelab"},
                  {"type": "node", "name": "pve1", "ip": "192.168.10.11", "local": 1, "port": 8006, "version": "9.1"},
                  {"type": "node", "name": "pve2", "ip": "192.168.10.12", "local": 0, "port": "8007"},
                  {"type": "node", "name": "pve3", "local": 0}]}"""));
        try (Connector c = open(Optional.of(NODES), status())) {
            var members = discover(c);
            assertThat(members).extracting(m -> m.get("name")).containsExactly("pve1", "pve2", "pve3");
            assertThat(members.get(0)).containsEntry("product", "acme").containsEntry("host", "192.168.10.11")
                    .containsEntry("port", 8006).containsEntry("version", "9.1").containsEntry("seed", true);
            assertThat(members.get(1)).containsEntry("port", 8007).doesNotContainKeys("seed", "version");
            assertThat(members.get(2)).doesNotContainKey("host");
            assertThat(members.get(0).get("notes").toString()).isEqualTo("listed by GET /api2/json/cluster/status "
                    + "through " + vendor.target().name());
        }
        assertThat(vendor.last().header("Authorization")).isEqualTo("Bearer " + TOKEN);
    }

    @Test
    void withoutADeclarationTheSessionOffersNoDiscovery() {
        try (Connector c = open(Optional.empty(), status())) {
            assertThat(c).isNotInstanceOf(Discovery.class);
        }
    }

    @Test
    void aVendorErrorOrAnAnswerWithoutTheListIsAConnectorErrorSayingSo() {
        vendor.on("GET", "/api2/json/cluster/status", s -> Reply.json(500, "{\"message\": \"no quorum\"}"));
        try (Connector c = open(Optional.of(NODES), status())) {
            assertThatThrownBy(() -> discover(c)).isInstanceOfSatisfying(ConnectorException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_ERROR);
                assertThat(e.getMessage()).contains("answered HTTP 500");
                assertThat(e.extras()).containsEntry("vendor_status", 500);
            });
        }
        vendor.on("GET", "/api2/json/cluster/status", s -> Reply.json(200, "{\"data\": {\"type\": \"node\"}}"));
        try (Connector c = open(Optional.of(NODES), status())) {
            assertThatThrownBy(() -> discover(c)).isInstanceOf(ConnectorException.class)
                    .hasMessageContaining("answered no list at '/data'");
        }
        vendor.on("GET", "/api2/json/cluster/status", s -> Reply.json(401, "{}"));
        try (Connector c = open(Optional.of(NODES), status())) {
            assertThatThrownBy(() -> discover(c)).isInstanceOfSatisfying(ConnectorException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_AUTH_FAILED));
        }
    }

    @Test
    void aDeclarationNamingAMissingOrCredentialReadingOperationIsRefusedBeforeAnythingIsSent() {
        OperationDescriptor secretRead = new OperationDescriptor("acme.cluster.status", Specs.GROUP, "reads secrets",
                SafetyLevel.SAFE, true, OpClass.CREDENTIAL_READ, Specs.NO_PARAMS,
                new OperationShape.Http("GET", "/cluster/status"), ResultKind.OBJECT);
        try (Connector c = open(Optional.of(NODES), secretRead)) {
            assertThatThrownBy(() -> discover(c)).hasMessageContaining("a credential read");
        }
        try (Connector c = open(Optional.of(NODES), Specs.op("acme.other", "GET", "/other", ResultKind.OBJECT,
                Specs.NO_PARAMS))) {
            assertThatThrownBy(() -> discover(c)).hasMessageContaining("which the ingested spec does not have");
        }
        assertThat(vendor.seen()).isEmpty();
    }
}
