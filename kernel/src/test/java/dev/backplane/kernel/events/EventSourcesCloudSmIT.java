package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.SecretManagerDouble;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Event sources on a deploy whose credential backend is Google Secret Manager (SPEC: event-source secret
 * storage on every credential backend): the kernel runs with {@code credentials.backend=cloudsm} against a
 * protocol-level Secret Manager on loopback; a source's secret lands there as
 * {@code t-<tenant>-event-source-<id>} in the configured project (never in the database), signed deliveries
 * are accepted and badly signed ones refused, and rotation keeps the previous secret for its overlap.
 */
@KernelTest
class EventSourcesCloudSmIT {

    private static final String PROJECT = "acme-prod";
    private static final String SECRET = "cloudsm-hmac-secret-" + UUID.randomUUID();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static TestIssuer issuer;
    private static TestKernel kernel;
    private static SecretManagerDouble gsm;

    private final UUID tenant = UUID.randomUUID();
    private final String admin = issuer.token("admin", tenant, "tenant_admin");

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        gsm = setup.closeAfter(SecretManagerDouble.start("gsm-token-" + UUID.randomUUID()));
        setup.setting("SVC_CREDENTIALS_BACKEND", "cloudsm");
        setup.setting("SVC_CLOUDSM_ENDPOINT", gsm.endpoint());
        setup.setting("SVC_CLOUDSM_TOKEN", gsm.token());
        setup.setting("SVC_CLOUDSM_PROJECT", PROJECT);
    }

    private HttpResponse<String> deliver(String slug, String secret, String id, byte[] body) throws Exception {
        var b = HttpRequest.newBuilder(URI.create(kernel.url() + "/api/v1/events/ingest/" + slug))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).header("Content-Type", "application/json");
        EventsIT.signed(secret, id, body).forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aSourcesSecretLivesInSecretManagerAndSignedDeliveriesAreAccepted() throws Exception {
        var created = kernel.send("POST", "/api/v1/event-sources", admin, JSON.writeValueAsString(Map.of(
                "name", "grafana", "kind", "generic-json", "auth_strategy", "hmac-sha256", "secret", SECRET)), Map.of());
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.body()).doesNotContain(SECRET);
        String slug = created.json().path("slug").asText();
        String id = created.json().path("id").asText();
        String name = "t-" + tenant + "-event-source-" + id;
        assertThat(gsm.secretNames(PROJECT)).contains(name);
        assertThat(gsm.latest(PROJECT, name)).containsEntry("secret", SECRET);
        assertThat(kernel.jdbc().query("SELECT count(*) FROM event_sources WHERE id = ?::uuid AND row_to_json(event_sources)"
                + "::text LIKE ?", rs -> rs.getLong(1), id, "%" + SECRET + "%")).containsExactly(0L);

        byte[] body = "{\"alert\": \"disk full\"}".getBytes(StandardCharsets.UTF_8);
        var ok = deliver(slug, SECRET, "d-1", body);
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(JSON.readTree(ok.body()).path("status").asText()).isEqualTo("accepted");
        assertThat(deliver(slug, "not-the-secret-0123456789", "d-2", body).statusCode()).isEqualTo(401);

        // rotation: a new version in Secret Manager, the previous secret still good within the overlap
        String next = "cloudsm-rotated-" + UUID.randomUUID();
        var rotated = kernel.send("PATCH", "/api/v1/event-sources/" + slug, admin, JSON.writeValueAsString(Map.of(
                "secret", next, "overlap_seconds", 600)), Map.of());
        assertThat(rotated.status()).as(rotated.body()).isEqualTo(200);
        assertThat(gsm.latest(PROJECT, name)).containsEntry("secret", next).containsEntry("previous", SECRET);
        assertThat(deliver(slug, next, "d-3", body).statusCode()).isEqualTo(200);
        assertThat(deliver(slug, SECRET, "d-4", body).statusCode()).as("within the overlap").isEqualTo(200);
        assertThat(gsm.requests()).allMatch(r -> !r.contains(SECRET) && !r.contains(next));
    }
}
