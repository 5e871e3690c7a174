package dev.backplane.kernel.audit;

import dev.backplane.kernel.audit.archive.ArchiveStore;
import dev.backplane.kernel.audit.archive.AuditArchives;
import dev.backplane.kernel.audit.integrity.ChainStore;
import dev.backplane.kernel.audit.integrity.Chainer;
import dev.backplane.kernel.audit.integrity.Verifier;
import dev.backplane.kernel.audit.integrity.VerifyReport;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.util.TimeArg;
import io.helidon.webserver.http.ServerRequest;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * REST surface of the audit log's integrity and lifecycle: verify the chain, stats, a tenant's retention, and
 * the archives (list, archive a partition now, verify, restore). Registered before {@link AuditRoutes}, whose
 * {@code /api/v1/audit/{audit_id}} would otherwise take these paths. Reads and changes are audited.
 *
 * @param streamLag each SIEM sink's position and lag, for stats
 */
public record AuditIntegrityRoutes(Verifier verifier, ChainStore chain, Chainer chainer, AuditArchives archives,
                                   AuditLog log, Supplier<Map<String, Object>> streamLag) {

    /** A body that sets a tenant's retention. */
    public record RetentionBody(Integer days) {
    }

    /** A body naming a partition to archive now. */
    public record ArchiveBody(String partition) {
    }

    public void register(ApiRoutes api) {
        api.get("/api/v1/audit/verify", Role.TENANT_ADMIN, (req, res, c) -> {
            VerifyReport report = verifier.verify(c.tenantId(), time(req, "since"), time(req, "until"));
            audited(c, "svc.audit.verify", Map.of("ok", report.ok(), "rows_checked", report.rowsChecked()));
            Json.ok(res, report);
        }).get("/api/v1/audit/stats", Role.TENANT_ADMIN, (req, res, c) -> {
            Map<String, Object> stats = stats(c);
            audited(c, "svc.audit.stats", Map.of());
            Json.ok(res, stats);
        }).get("/api/v1/audit/retention", Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res, retention(c)))
                .put("/api/v1/audit/retention", Role.TENANT_ADMIN, (req, res, c) -> {
                    RetentionBody body = Json.read(req, RetentionBody.class);
                    if (body.days() == null) {
                        throw AuditErrors.INVALID_RETENTION.error("days is required", Map.of("field", "days"));
                    }
                    archives.setRetention(c.tenantId(), body.days(), c.sub());
                    Json.ok(res, retention(c));
                }).get("/api/v1/audit/archives", Role.TENANT_ADMIN, (req, res, c) -> {
                    c.requirePlatformAdmin();
                    Json.ok(res, Map.of("archives", archives.archives().stream().map(AuditIntegrityRoutes::archive).toList()));
                }).post("/api/v1/audit/archives", Role.TENANT_ADMIN, (req, res, c) -> {
                    c.requirePlatformAdmin();
                    ArchiveBody body = Json.read(req, ArchiveBody.class);
                    if (body.partition() == null || body.partition().isBlank()) {
                        throw AuditErrors.INVALID_FILTER.error("partition is required", Map.of("field", "partition"));
                    }
                    try {
                        Json.ok(res, archive(archives.archiveNow(body.partition())));
                    } catch (IOException | java.io.UncheckedIOException e) {
                        throw AuditErrors.ARCHIVE_UNREADABLE.error("the archive could not be written: " + e.getMessage());
                    }
                }).post("/api/v1/audit/archives/{name}/verify", Role.TENANT_ADMIN, (req, res, c) -> {
                    c.requirePlatformAdmin();
                    Json.ok(res, archives.verify(req.path().pathParameters().get("name")));
                }).post("/api/v1/audit/archives/{name}/restore", Role.TENANT_ADMIN, (req, res, c) -> {
                    c.requirePlatformAdmin();
                    Json.ok(res, archives.restore(req.path().pathParameters().get("name")));
                });
    }

    private Map<String, Object> retention(Caller c) {
        Map<String, Object> out = new LinkedHashMap<>();
        Optional<Integer> own = archives.store().retention(c.tenantId());
        out.put("days", archives.retentionDays(c.tenantId()));
        out.put("source", own.isPresent() ? "tenant" : "default");
        out.put("default_days", archives.policy().defaultDays());
        out.put("minimum_days", archives.policy().minimumDays());
        out.put("archive_configured", archives.policy().archiveDir().isPresent());
        return out;
    }

    private Map<String, Object> stats(Caller c) {
        Map<String, Object> tenant = new LinkedHashMap<>();
        chain.head(c.tenantId()).ifPresent(h -> {
            tenant.put("chain_seq", h.seq());
            tenant.put("chain_head_at", h.occurredAt().toString());
        });
        chain.lastSeal(c.tenantId()).ifPresent(s -> {
            tenant.put("last_seal_seq", s.seq());
            tenant.put("last_seal_at", s.sealedAt().toString());
            tenant.put("seals_signed", s.mac().isPresent());
        });
        archives.store().oldestRow(c.tenantId()).ifPresent(t -> tenant.put("oldest_kept_at", t.toString()));
        tenant.put("retention", retention(c));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("tenant", tenant);
        out.put("chain_lag_seconds", chainer.lag().toMillis() / 1000.0);
        if (c.platformAdmin()) {
            out.put("partitions", archives.store().partitions().stream().map(p -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", p.name());
                m.put("from", p.from().map(Instant::toString).orElse(null));
                m.put("to", p.to().toString());
                m.put("estimated_rows", p.estimatedRows());
                m.put("bytes", p.bytes());
                return m;
            }).toList());
            out.put("default_partition_rows", archives.store().defaultPartitionRows());
            out.put("archives", archives.archives().stream().map(AuditIntegrityRoutes::archive).toList());
            out.put("stream", streamLag.get());
        }
        return out;
    }

    private static Map<String, Object> archive(ArchiveStore.Archive a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", a.name());
        m.put("partition", a.partition());
        m.put("from", a.from().map(Instant::toString).orElse(null));
        m.put("to", a.to().toString());
        m.put("rows", a.rowCount());
        m.put("sha256", a.sha256());
        m.put("bytes", a.bytes());
        m.put("location", a.locations());
        m.put("created_at", a.createdAt().toString());
        m.put("verified_at", a.verifiedAt().map(Instant::toString).orElse(null));
        m.put("dropped_at", a.droppedAt().map(Instant::toString).orElse(null));
        return m;
    }

    private void audited(Caller caller, String opId, Map<String, Object> extras) {
        log.record(AuditLog.Entry.by(caller, AuditClass.AUDIT_QUERY, opId), "ok", Optional.empty(), Optional.empty(), extras);
    }

    private static Optional<Instant> time(ServerRequest req, String name) {
        return req.query().first(name).asOptional().filter(v -> !v.isBlank()).map(v -> TimeArg.parse(v, name));
    }
}
