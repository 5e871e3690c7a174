package dev.backplane.kernel.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.persistence.Jdbc;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The background-job facility on a real PostgreSQL: V018 carries the rows of the two old job tables
 * over, a job runs to success or failure, its row is seen by its own tenant and kind only, and the
 * reaper fails a job nobody updates.
 */
class BackgroundJobsIT {

    private static final JobKind QUEUED = new JobKind("test_queued", "test", "test", "/jobs/queued", true,
            "the kernel stopped; run it again");
    private static final JobKind RUNNING = new JobKind("test_running", "running test", "test", "/jobs/running", false,
            "the kernel stopped (nothing is lost)");
    private static final JobKind CONNECTOR = new JobKind("connector_ingest", "ingest", "ingest", "/c", true, "gone");
    private static final JobKind KB = new JobKind("kb_ingest", "kb ingest", "ingest", "/k", false, "gone");

    private static EmbeddedPostgres pg;
    private static Jdbc jdbc;
    private static BackgroundJobs jobs;
    private static final UUID MIGRATED_CONNECTOR_JOB = UUID.randomUUID();
    private static final UUID MIGRATED_KB_JOB = UUID.randomUUID();
    private static final UUID MIGRATED_KB_FAILED = UUID.randomUUID();
    private static final UUID OLD_TENANT = UUID.randomUUID();

    private final UUID tenant = UUID.randomUUID();
    private final Caller caller = caller(tenant);

    @BeforeAll
    static void start() throws Exception {
        pg = EmbeddedPostgres.builder().setPGStartupWait(Duration.ofSeconds(60)).start();
        jdbc = new Jdbc(pg.getPostgresDatabase());
        migrate("16");
        jdbc.update("""
                INSERT INTO catalog_ingest_jobs (id, tenant_id, requested_by, status, connector_id, request, progress,
                       result, error, created_at, updated_at, finished_at)
                VALUES (?, ?, 'alice', 'failed', 'big-3.x', '{"source": "manual", "connector_id": "big-3.x"}',
                        '{"stage": "parse", "done": 1, "total": 4}', NULL,
                        '{"error_code": "spec_invalid", "message": "not a spec"}', now(), now(), now())""",
                MIGRATED_CONNECTOR_JOB, OLD_TENANT);
        jdbc.update("""
                INSERT INTO kb_ingest_jobs (id, tenant_id, requested_by, directory, status, progress, files, finished_at)
                VALUES (?, ?, 'bob', '/srv/kb', 'succeeded', '{"total": 1, "done": 1}',
                        '[{"path": "a.md", "slug": "a", "outcome": "created"}]', now())""",
                MIGRATED_KB_JOB, OLD_TENANT);
        jdbc.update("""
                INSERT INTO kb_ingest_jobs (id, tenant_id, requested_by, directory, status, error, finished_at)
                VALUES (?, ?, 'bob', '/srv/kb2', 'failed', 'the kernel running this ingest stopped; run the ingest again',
                        now())""", MIGRATED_KB_FAILED, OLD_TENANT);
        migrate(null);
        jobs = new BackgroundJobs(jdbc, List.of(QUEUED, RUNNING, CONNECTOR, KB));
    }

    private static void migrate(String target) {
        FluentConfiguration flyway = Flyway.configure().dataSource(pg.getPostgresDatabase())
                .locations("classpath:db/migration").failOnMissingLocations(true);
        if (target != null) {
            flyway.target(target);
        }
        flyway.getConfigurationExtension(PostgreSQLConfigurationExtension.class).setTransactionalLock(false);
        flyway.load().migrate();
    }

    @AfterAll
    static void stop() throws Exception {
        pg.close();
    }

    private static Caller caller(UUID tenant) {
        return new Caller("alice", Optional.empty(), Optional.of(tenant), tenant, Role.TENANT_ADMIN, false,
                PrincipalKind.HUMAN, Optional.empty());
    }

    private BackgroundJob awaitTerminal(JobKind kind, UUID id) throws InterruptedException {
        Instant until = Instant.now().plusSeconds(30);
        BackgroundJob job = jobs.job(caller, kind, id);
        while (!job.terminal() && Instant.now().isBefore(until)) {
            Thread.sleep(20);
            job = jobs.job(caller, kind, id);
        }
        return job;
    }

    @Test
    void theOldJobTablesAreCarriedOverAndDropped() {
        Caller old = caller(OLD_TENANT);
        BackgroundJob connector = jobs.job(old, CONNECTOR, MIGRATED_CONNECTOR_JOB);
        assertThat(connector.status()).isEqualTo("failed");
        assertThat(connector.details().path("connector_id").asText()).isEqualTo("big-3.x");
        assertThat(connector.details().path("source").asText()).isEqualTo("manual");
        assertThat(connector.progress().path("stage").asText()).isEqualTo("parse");
        assertThat(connector.error().path("error_code").asText()).isEqualTo("spec_invalid");
        assertThat(connector.result().isNull()).isTrue();
        assertThat(connector.finishedAt()).isPresent();

        BackgroundJob kb = jobs.job(old, KB, MIGRATED_KB_JOB);
        assertThat(kb.status()).isEqualTo("succeeded");
        assertThat(kb.details().path("directory").asText()).isEqualTo("/srv/kb");
        assertThat(kb.result().get(0).path("slug").asText()).isEqualTo("a");
        assertThat(kb.error().isNull()).isTrue();
        BackgroundJob failed = jobs.job(old, KB, MIGRATED_KB_FAILED);
        assertThat(failed.error().path("error_code").asText()).isEqualTo("ingest_abandoned");
        assertThat(failed.error().path("message").asText()).startsWith("the kernel running this ingest stopped");
        assertThat(failed.result()).as("kb files defaulted to []").hasSize(0);

        assertThat(jdbc.query("SELECT count(*) FROM pg_tables WHERE tablename IN ('catalog_ingest_jobs', "
                + "'kb_ingest_jobs')", rs -> rs.getInt(1))).containsExactly(0);
    }

    @Test
    void aJobRunsOnItsOwnThreadReportsProgressAndStoresItsResult() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        UUID id = jobs.start(QUEUED, caller, Map.of("what", "count"), Map.of("done", 0), progress -> {
            progress.reportNow(Map.of("done", 1));
            await(release);
            progress.report(Map.of("done", 2));
            progress.report(Map.of("done", 3));
            return Map.of("counted", 3);
        });
        Instant until = Instant.now().plusSeconds(30);
        while (jobs.job(caller, QUEUED, id).progress().path("done").asInt() != 1 && Instant.now().isBefore(until)) {
            Thread.sleep(20);
        }
        BackgroundJob running = jobs.job(caller, QUEUED, id);
        assertThat(running.status()).isEqualTo("running");
        assertThat(running.terminal()).isFalse();
        assertThat(running.progress().path("done").asInt()).as("reportNow is written at once").isEqualTo(1);
        assertThat(running.details().path("what").asText()).isEqualTo("count");
        assertThat(running.pollUrl()).isEqualTo("/jobs/queued/" + id);
        release.countDown();

        BackgroundJob done = awaitTerminal(QUEUED, id);
        assertThat(done.status()).isEqualTo("succeeded");
        assertThat(done.result().path("counted").asInt()).isEqualTo(3);
        assertThat(done.progress().path("done").asInt()).as("the last report, throttled or not, is kept")
                .isEqualTo(3);
        assertThat(done.finishedAt()).isPresent();
        assertThat(done.error().isNull()).isTrue();
    }

    @Test
    void aKindThatDoesNotQueueReadsRunningFromTheStart() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        UUID id = jobs.start(RUNNING, caller, Map.of(), Map.of("done", 0), progress -> {
            await(release);
            return List.of();
        });
        assertThat(jobs.job(caller, RUNNING, id).status()).isEqualTo("running");
        release.countDown();
        assertThat(awaitTerminal(RUNNING, id).status()).isEqualTo("succeeded");
    }

    @Test
    void aFailedJobKeepsTheErrorCodeOfAnApiExceptionOrNamesItsKind() throws Exception {
        UUID refused = jobs.start(QUEUED, caller, Map.of(), Map.of(), progress -> {
            progress.report(Map.of("stage", "parse"));
            throw DomainException.unprocessable("spec_invalid", "not an OpenAPI document", Map.of());
        });
        BackgroundJob a = awaitTerminal(QUEUED, refused);
        assertThat(a.status()).isEqualTo("failed");
        assertThat(a.error().path("error_code").asText()).isEqualTo("spec_invalid");
        assertThat(a.error().path("message").asText()).isEqualTo("not an OpenAPI document");
        assertThat(a.progress().path("stage").asText()).isEqualTo("parse");

        UUID broken = jobs.start(RUNNING, caller, Map.of(), Map.of(), progress -> {
            throw new IllegalStateException("disk full");
        });
        BackgroundJob b = awaitTerminal(RUNNING, broken);
        assertThat(b.error().path("error_code").asText()).isEqualTo("test_failed");
        assertThat(b.error().path("message").asText()).isEqualTo("running test failed: "
                + "java.lang.IllegalStateException: disk full");
    }

    @Test
    void anotherTenantOrAnotherKindDoesNotSeeTheJob() throws Exception {
        UUID id = jobs.start(QUEUED, caller, Map.of(), Map.of(), progress -> "ok");
        assertThat(awaitTerminal(QUEUED, id).status()).isEqualTo("succeeded");
        assertThatThrownBy(() -> jobs.job(caller(UUID.randomUUID()), QUEUED, id))
                .isInstanceOfSatisfying(DomainException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.NOT_FOUND);
                    assertThat(e.code()).isEqualTo("test_job_not_found");
                    assertThat(e.getMessage()).isEqualTo("no test job " + id + " in this tenant");
                });
        assertThatThrownBy(() -> jobs.job(caller, RUNNING, id)).isInstanceOf(DomainException.class)
                .hasMessage("no running test job " + id + " in this tenant");
        JobKind unknown = new JobKind("unregistered", "x", "x", "/x", true, "x");
        assertThatThrownBy(() -> jobs.start(unknown, caller, Map.of(), Map.of(), p -> null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theReaperFailsUnfinishedJobsNobodyUpdatesWithTheirKindsMessage() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        UUID stale = jobs.start(RUNNING, caller, Map.of(), Map.of(), progress -> {
            await(release);
            return "late";
        });
        UUID fresh = jobs.start(QUEUED, caller, Map.of(), Map.of(), progress -> {
            await(release);
            return "ok";
        });
        jdbc.update("UPDATE background_jobs SET updated_at = now() - interval '6 minutes' WHERE id = ?", stale);
        assertThat(jobs.reapStale()).isEqualTo(1);
        BackgroundJob reaped = jobs.job(caller, RUNNING, stale);
        assertThat(reaped.status()).isEqualTo("failed");
        JsonNode error = reaped.error();
        assertThat(error.path("error_code").asText()).isEqualTo("test_abandoned");
        assertThat(error.path("message").asText()).isEqualTo("the kernel stopped (nothing is lost)");
        assertThat(jobs.job(caller, QUEUED, fresh).terminal()).isFalse();
        release.countDown();
        assertThat(awaitTerminal(QUEUED, fresh).status()).isEqualTo("succeeded");
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
