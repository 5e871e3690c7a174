package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.testing.ScratchDatabase;
import dev.backplane.kernel.util.JsonMapping;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A busy source's tokens taken ahead ({@link SourceRateLimits#ahead}) on a real (embedded) PostgreSQL: two limiters
 * standing for two replicas share one bucket and together never accept more than it held and refilled.
 * {@code SharedRateLimitIT} runs two whole kernels on a slow source (one token per statement).
 */
class SourceRateLimitsIT {

    @RegisterExtension
    static final ScratchDatabase.PerClass DB = ScratchDatabase.perClass("svc-rate-limits");

    @Test
    void tokensAreTakenAheadOnlyForABusySource() {
        assertThat(SourceRateLimits.ahead(1)).isEqualTo(1);
        assertThat(SourceRateLimits.ahead(199)).isEqualTo(1);
        assertThat(SourceRateLimits.ahead(1000)).isEqualTo(10);
        assertThat(SourceRateLimits.ahead(10_000_000)).isEqualTo(SourceRateLimits.MAX_AHEAD);
    }

    @Test
    void twoReplicasTakingAheadTogetherAcceptNoMoreThanTheBucketGives() {
        int rate = 1000;
        int burst = 100;
        EventSource source = source(rate, burst);
        SourceRateLimits a = new SourceRateLimits(DB.jdbc(), 100);
        SourceRateLimits b = new SourceRateLimits(DB.jdbc(), 100);
        int[] accepted = new int[2];
        int limited = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < 4 * burst; i++) {
            try {
                (i % 2 == 0 ? a : b).take(source);
                accepted[i % 2]++;
            } catch (DomainException e) {
                assertThat(e.code()).isEqualTo("rate_limited");
                limited++;
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        int total = accepted[0] + accepted[1];
        System.out.printf("SourceRateLimitsIT: %d + %d accepted, %d limited in %.3f s%n", accepted[0], accepted[1],
                limited, seconds);
        assertThat(limited).as("the bucket ran dry").isPositive();
        assertThat(total).as("never more than the burst and what refilled meanwhile")
                .isLessThanOrEqualTo(burst + (int) Math.ceil(rate * seconds));
        assertThat(total).as("what the two hold unused is at most one batch each")
                .isGreaterThanOrEqualTo(burst - 2 * SourceRateLimits.ahead(rate));
        assertThat(accepted[0]).isPositive();
        assertThat(accepted[1]).isPositive();
    }

    private static EventSource source(int rate, int burst) {
        UUID id = UUID.randomUUID();
        UUID tenant = UUID.randomUUID();
        String slug = "rl-" + id;
        DB.jdbc().update("""
                INSERT INTO event_sources (id, tenant_id, slug, name, kind, auth_strategy, created_by, updated_by)
                VALUES (?, ?, ?, ?, 'generic-json', 'basic', 'test', 'test')""", id, tenant, slug, slug);
        return new EventSource(id, tenant, slug, slug, EventNormalizer.Kind.GENERIC_JSON,
                EventSource.AuthStrategy.BASIC, JsonMapping.mapper().valueToTree(Map.of("rate_per_second", rate,
                        "burst", burst)), "active", 1, Optional.empty(), Instant.now(), "test", Instant.now(), "test");
    }
}
