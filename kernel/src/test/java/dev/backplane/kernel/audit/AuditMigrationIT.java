package dev.backplane.kernel.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.audit.archive.ArchiveStore;
import dev.backplane.kernel.audit.integrity.ChainStore;
import dev.backplane.kernel.audit.integrity.Chainer;
import dev.backplane.kernel.audit.integrity.Verifier;
import dev.backplane.kernel.persistence.Database;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.TempDirs;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * V050 on a database that already has audit rows (PostgreSQL 15, as Debian ships it): the old table becomes the
 * legacy partition without a row copied or lost, new rows go to monthly partitions, and the chainer then links
 * the old rows too, so the whole log verifies.
 */
class AuditMigrationIT {

    @Test
    void existingRowsBecomeTheLegacyPartitionAndAreChainedAfterTheUpgrade() throws Exception {
        Path work = TempDirs.create("svc-audit-migration");
        UUID tenant = UUID.randomUUID();
        try (ExternalPostgres pg = ExternalPostgres.start();
             var ds = new com.zaxxer.hikari.HikariDataSource()) {
            org.flywaydb.core.Flyway.configure().dataSource(pg.jdbcUrl(), ExternalPostgres.USER, ExternalPostgres.PASSWORD)
                    .locations("classpath:db/migration").target("046").load().migrate(); // V047 is a Java migration, applied below
            ds.setJdbcUrl(pg.jdbcUrl());
            ds.setUsername(ExternalPostgres.USER);
            ds.setPassword(ExternalPostgres.PASSWORD);
            ds.setMaximumPoolSize(3);
            Jdbc db = new Jdbc(ds);
            db.update("""
                    INSERT INTO audit_rows (id, tenant_id, occurred_at, principal, principal_kind, op_class, op_id, target,
                           result_status, params_hash)
                    SELECT gen_random_uuid(), ?, now() - make_interval(days => g), 'old-' || (g % 7), 'human', 'read',
                           'k8s.pod.list', 'prod-' || (g % 3), 'ok', md5(g::text) FROM generate_series(1, 400) g""", tenant);

            var migrated = Database.migrateOnly(new Database.Settings(Optional.of(pg.jdbcUrl()), ExternalPostgres.USER,
                    ExternalPostgres.PASSWORD, 2, java.time.Duration.ofSeconds(30), work, 0, false, true));
            assertThat(migrated.from()).isEqualTo("046");

            List<String> partitions = new ArchiveStore(db).partitions().stream().map(ArchiveStore.Partition::name).toList();
            assertThat(partitions.getFirst()).isEqualTo("audit_rows_legacy");
            assertThat(partitions).hasSizeGreaterThanOrEqualTo(4); // legacy, and the months after it
            assertThat(db.queryOne("SELECT count(*) FROM audit_rows_legacy WHERE tenant_id = ?", rs -> rs.getLong(1), tenant))
                    .contains(400L);
            // a new row lands in a month of its own, after the legacy range
            db.update("INSERT INTO audit_rows (id, tenant_id, occurred_at, principal, principal_kind, op_class, op_id, "
                    + "result_status) VALUES (?, ?, now() + interval '40 days', 'new', 'human', 'read', 'x', 'ok')",
                    UUID.randomUUID(), tenant);
            assertThat(db.queryOne("SELECT tableoid::regclass::text FROM audit_rows WHERE principal = 'new'",
                    rs -> rs.getString(1)).orElseThrow()).startsWith("audit_rows_y");
            assertThat(new ArchiveStore(db).defaultPartitionRows()).isZero();

            Chainer chainer = new Chainer(new ChainStore(db), Optional.empty(), new SimpleMeterRegistry());
            assertThat(chainer.chainOnce()).isEqualTo(400); // the future row waits: it is above the bound
            var report = new Verifier(new ChainStore(db), Optional.empty(), (t, seq) -> Optional.empty())
                    .verify(tenant, Optional.empty(), Optional.empty());
            assertThat(report.ok()).as(report.toString()).isTrue();
            assertThat(report.rowsChecked()).isEqualTo(400);
            assertThat(report.pendingRows()).isEqualTo(1);
            assertThat(db.queryOne("SELECT sum(calls) FROM audit_target_principals WHERE tenant_id = ?",
                    rs -> rs.getLong(1), tenant)).contains(400L);
        }
    }
}
