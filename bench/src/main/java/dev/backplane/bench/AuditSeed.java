package dev.backplane.bench;

import dev.backplane.bench.AuditShape.Op;
import dev.backplane.bench.AuditShape.Tenant;
import dev.backplane.kernel.audit.integrity.AuditChain;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * Generates a year of audit rows day by day in (occurred_at, id) order, each already chained as the chainer would
 * chain it (per tenant: chain_seq from 1, {@link AuditChain#GENESIS} before the first; chain_pos increasing over
 * all tenants), rendered as COPY text. Sessions of 5-50 rows by one principal against one to three targets, a
 * work_ref on about 5 % of sessions, statuses mostly ok with some error, denied and parked.
 */
final class AuditSeed {

    static final String COLUMNS = "id, tenant_id, occurred_at, principal, principal_kind, op_class, op_id, connector_id, "
            + "target, target_id, result_status, error_code, duration_ms, session_id, parent_audit_id, work_ref, "
            + "params_hash, approval_request_id, extras";
    /** The columns of a link's COPY line (V059: a row of audit_links). */
    static final String LINK_COLUMNS = "audit_id, occurred_at, tenant_id, seq, hash, pos";

    /** A day's rows and their links, as COPY text. */
    record Day(byte[] rows, byte[] links) {
    }
    static final long DAY_MICROS = 86_400_000_000L;
    static final int DAYS = 365;

    private record Row(long micros, UUID id, Tenant tenant, String principal, String kind, Op op, String target,
                       UUID targetId, String status, String errorCode, Integer duration, UUID session, UUID parent,
                       String workRef, String paramsHash, UUID approval) {
    }

    private static final Comparator<Row> ORDER = Comparator.comparingLong(Row::micros)
            .thenComparing(Row::id, AuditShape::compare);
    private static final String[] ERRORS = {"target_error", "timeout", "upstream_unavailable", "invalid_params"};

    private final long total;
    private final long startMicros;
    private final SplittableRandom random = new SplittableRandom(42);
    /** Per tenant: the chain's last seq, link, time (µs) and id. */
    final long[] seq = new long[AuditShape.TENANTS];
    final byte[][] link = new byte[AuditShape.TENANTS][];
    final long[] lastMicros = new long[AuditShape.TENANTS];
    final UUID[] lastId = new UUID[AuditShape.TENANTS];
    long pos;
    long newestMicros;
    UUID newestId;

    AuditSeed(long total, long endMicros) {
        this.total = total;
        this.startMicros = endMicros - DAYS * DAY_MICROS;
        java.util.Arrays.fill(link, AuditChain.GENESIS);
    }

    long startMicros() {
        return startMicros;
    }

    /** Day {@code d}'s rows (0 = the oldest) and their links as COPY text, chained after every earlier day's. */
    Day day(int d) {
        int n = (int) ((d + 1) * total / DAYS - d * total / DAYS);
        long dayStart = startMicros + d * DAY_MICROS;
        List<Row> rows = new ArrayList<>(n + 50);
        while (rows.size() < n) {
            session(rows, n - rows.size(), dayStart);
        }
        rows.sort(ORDER);
        StringBuilder out = new StringBuilder(n * 360);
        StringBuilder links = new StringBuilder(n * 160);
        for (Row row : rows) {
            render(out, links, row);
        }
        return new Day(out.toString().getBytes(StandardCharsets.UTF_8), links.toString().getBytes(StandardCharsets.UTF_8));
    }

    private void session(List<Row> rows, int left, long dayStart) {
        SplittableRandom r = random;
        Tenant t = AuditShape.pickTenant(r);
        double skew = r.nextDouble();
        int p = (int) (t.principals().length * skew * skew); // a few principals make most of the calls
        String kind = t.kinds()[p];
        int len = Math.min(left, 5 + r.nextInt(46));
        UUID session = kind.equals("agent") || kind.equals("user-agent") ? AuditShape.uuid(r) : null;
        String workRef = r.nextDouble() < 0.05 ? String.format("CHG%07d", r.nextInt(10_000_000)) : null;
        int[] targets = new int[1 + r.nextInt(3)];
        for (int i = 0; i < targets.length; i++) {
            double s = r.nextDouble();
            targets[i] = (int) (t.targets().length * s * s);
        }
        long ts = dayStart + (long) (r.nextDouble() * (DAY_MICROS - 3_600_000_000L));
        UUID first = null;
        for (int i = 0; i < len; i++) {
            ts = Math.min(dayStart + DAY_MICROS - 1, ts + 1 + (long) (-Math.log(1 - r.nextDouble()) * 4_000_000));
            Op op = AuditShape.pickOp(r);
            int ti = targets[r.nextInt(targets.length)];
            double s = r.nextDouble();
            String status = s < 0.94 ? "ok" : s < 0.98 ? "error" : s < 0.995 ? "denied" : "awaiting_approval";
            Integer duration = switch (status) {
                case "ok", "error" -> (int) Math.min(60_000, Math.exp(4 + r.nextGaussian()));
                default -> 0;
            };
            UUID id = AuditShape.uuid(r);
            rows.add(new Row(ts, id, t, t.principals()[p], kind, op, op.targeted() ? t.targets()[ti] : null,
                    op.targeted() ? t.targetIds()[ti] : null, status,
                    status.equals("error") ? ERRORS[r.nextInt(ERRORS.length)]
                            : status.equals("denied") ? "policy_denied" : null,
                    duration, session, first != null && session != null && r.nextDouble() < 0.1 ? first : null,
                    workRef, HexFormat.of().toHexDigits(r.nextLong()) + HexFormat.of().toHexDigits(r.nextLong())
                            + HexFormat.of().toHexDigits(r.nextLong()) + HexFormat.of().toHexDigits(r.nextLong()),
                    status.equals("awaiting_approval") ? AuditShape.uuid(r) : null));
            if (first == null) {
                first = id;
            }
        }
    }

    /** Chains {@code row} after its tenant's last row and appends its COPY line and its link's. */
    private void render(StringBuilder out, StringBuilder links, Row row) {
        int t = row.tenant().index();
        Instant at = Instant.ofEpochSecond(Math.floorDiv(row.micros(), 1_000_000L),
                Math.floorMod(row.micros(), 1_000_000L) * 1000L);
        String time = at.toString();
        Map<String, Object> content = new LinkedHashMap<>();
        content.put("id", row.id().toString());
        content.put("tenant_id", row.tenant().id().toString());
        content.put("occurred_at", time);
        content.put("principal", row.principal());
        content.put("principal_kind", row.kind());
        content.put("op_class", row.op().opClass());
        content.put("op_id", row.op().id());
        content.put("connector_id", row.op().connector());
        content.put("target", row.target());
        content.put("target_id", string(row.targetId()));
        content.put("result_status", row.status());
        content.put("error_code", row.errorCode());
        content.put("duration_ms", row.duration());
        content.put("session_id", string(row.session()));
        content.put("parent_audit_id", string(row.parent()));
        content.put("work_ref", row.workRef());
        content.put("params_hash", row.paramsHash());
        content.put("approval_request_id", string(row.approval()));
        content.put("extras", Map.of());
        link[t] = AuditChain.link(link[t], content);
        seq[t]++;
        pos++;
        lastMicros[t] = row.micros();
        lastId[t] = row.id();
        newestMicros = row.micros();
        newestId = row.id();
        for (Object value : content.values()) {
            out.append(value == null ? "\\N" : value instanceof Map ? "{}" : value.toString()).append('\t');
        }
        out.setCharAt(out.length() - 1, '\n');
        links.append(row.id()).append('\t').append(time).append('\t').append(row.tenant().id()).append('\t').append(seq[t])
                .append("\t\\\\x").append(HexFormat.of().formatHex(link[t])).append('\t').append(pos).append('\n');
    }

    private static String string(UUID id) {
        return id == null ? null : id.toString();
    }
}
