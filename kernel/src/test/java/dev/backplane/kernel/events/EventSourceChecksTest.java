package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.errors.DomainException;
import java.util.HashSet;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** The checks an event-source write passes, without a database. */
class EventSourceChecksTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int CAP = 1 << 20;

    private static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static void refused(ThrowingCallable call, String code, String field) {
        assertThatThrownBy(call).isInstanceOfSatisfying(DomainException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.extras()).containsEntry("field", field);
        });
    }

    @Test
    void slugsAreLongLowerCaseAndHardToGuess() {
        assertThat(EventSourceChecks.checkedSlug("a".repeat(16))).isEqualTo("a".repeat(16));
        assertThat(EventSourceChecks.isSlug("0-" + "x".repeat(62))).isTrue();
        for (String bad : new String[] {"a".repeat(15), "a".repeat(65), "-" + "a".repeat(16), "A".repeat(16),
                "a".repeat(15) + "_", "a".repeat(15) + "/"}) {
            assertThat(EventSourceChecks.isSlug(bad)).as(bad).isFalse();
            refused(() -> EventSourceChecks.checkedSlug(bad), "invalid_event_source", "slug");
        }
    }

    @Test
    void generatedSlugsAreValidAndDistinct() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            String slug = EventSourceChecks.generatedSlug();
            assertThat(slug).matches("es-[a-z2-7]{26}");
            assertThat(EventSourceChecks.isSlug(slug)).isTrue();
            seen.add(slug);
        }
        assertThat(seen).hasSize(200);
    }

    @Test
    void namesStatusesAndStrategies() {
        assertThat(EventSourceChecks.checkedName("n".repeat(128))).hasSize(128);
        refused(() -> EventSourceChecks.checkedName("n".repeat(129)), "invalid_event_source", "name");
        refused(() -> EventSourceChecks.checkedName(" \t"), "invalid_event_source", "name");
        refused(() -> EventSourceChecks.checkedName("a\u0007b"), "invalid_event_source", "name");
        assertThat(EventSourceChecks.checkedStatus("paused")).isEqualTo("paused");
        refused(() -> EventSourceChecks.checkedStatus("Active"), "invalid_event_source", "status");
        assertThat(EventSourceChecks.strategy("static-header")).isEqualTo(EventSource.AuthStrategy.STATIC_HEADER);
        refused(() -> EventSourceChecks.strategy("hmac_sha256"), "invalid_event_source", "auth_strategy");
        refused(() -> EventSourceChecks.required(" ", "kind"), "invalid_event_source", "kind");
    }

    @Test
    void secretsArePrintableAndBounded() {
        assertThat(EventSourceChecks.checkedSecret("s".repeat(16))).hasSize(16);
        assertThat(EventSourceChecks.checkedSecret("s".repeat(4096))).hasSize(4096);
        for (String bad : new String[] {null, "", "s".repeat(15), "s".repeat(4097), "s".repeat(16) + "\n",
                "s".repeat(16) + "\u007f"}) {
            refused(() -> EventSourceChecks.checkedSecret(bad), "invalid_event_source", "secret");
        }
        assertThatThrownBy(() -> EventSourceChecks.checkedSecret("short\u0001secret")).hasMessageNotContaining("short");
    }

    @Test
    void overlapGoesWithANewSecretAndIsAtMostAWeek() {
        assertThat(EventSourceChecks.checkedOverlap(null, false)).isEqualTo(3600);
        assertThat(EventSourceChecks.checkedOverlap(null, true)).isEqualTo(3600);
        assertThat(EventSourceChecks.checkedOverlap(0, true)).isZero();
        assertThat(EventSourceChecks.checkedOverlap(7 * 86400, true)).isEqualTo(604_800);
        refused(() -> EventSourceChecks.checkedOverlap(600, false), "invalid_event_source", "overlap_seconds");
        refused(() -> EventSourceChecks.checkedOverlap(7 * 86400 + 1, true), "invalid_event_source", "overlap_seconds");
        refused(() -> EventSourceChecks.checkedOverlap(-1, true), "invalid_event_source", "overlap_seconds");
    }

    @Test
    void extrasKeepKnownKeysWithCheckedValues() {
        ObjectNode out = EventSourceChecks.checkedExtras(parse("""
                {"max_body_bytes": 1024, "rate_per_second": 5, "burst": 10, "replay_window_seconds": 10,
                 "require_timestamp": true, "basic_username": "am", "signature_header": "X-Sig-256"}"""), CAP);
        assertThat(out.toString()).as("numbers stored as longs, same text").isEqualTo(parse("""
                {"max_body_bytes": 1024, "rate_per_second": 5, "burst": 10, "replay_window_seconds": 10,
                 "require_timestamp": true, "basic_username": "am", "signature_header": "X-Sig-256"}""").toString());
        assertThat(EventSourceChecks.checkedExtras(null, CAP)).isEmpty();
        assertThat(EventSourceChecks.checkedExtras(parse("null"), CAP)).isEmpty();
        assertThat(EventSourceChecks.checkedExtras(parse("{\"max_body_bytes\": " + CAP + "}"), CAP).get("max_body_bytes")
                .asLong()).isEqualTo(CAP);
    }

    @Test
    void extrasRefuseUnknownKeysAndBadValues() {
        assertThatThrownBy(() -> EventSourceChecks.checkedExtras(parse("{\"max_body\": 1}"), CAP))
                .isInstanceOfSatisfying(DomainException.class, e -> {
                    assertThat(e.code()).isEqualTo("invalid_extras");
                    assertThat(e.extras().get("known_keys")).asList().contains("max_body_bytes", "secret_header");
                });
        for (String bad : new String[] {"[]", "\"x\"", "{\"max_body_bytes\": " + (CAP + 1) + "}",
                "{\"max_body_bytes\": 0}", "{\"rate_per_second\": 1.5}", "{\"burst\": \"10\"}",
                "{\"replay_window_seconds\": 9}", "{\"replay_window_seconds\": 86401}", "{\"require_timestamp\": \"true\"}",
                "{\"basic_username\": \"a:b\"}", "{\"basic_username\": \"\"}", "{\"id_header\": \"X Id\"}",
                "{\"timestamp_header\": 5}", "{\"secret_header\": \"" + "h".repeat(65) + "\"}"}) {
            refused(() -> EventSourceChecks.checkedExtras(parse(bad), CAP), "invalid_event_source", "extras");
        }
    }
}
