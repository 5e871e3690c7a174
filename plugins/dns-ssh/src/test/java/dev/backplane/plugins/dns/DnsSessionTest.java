package dev.backplane.plugins.dns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.backplane.kernel.egress.GuardedSocketFactory;
import dev.backplane.kernel.egress.SsrfGuard;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.RecordingContext;
import dev.backplane.plugins.ssh.SshLab;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.SocketFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The dns-ssh connector driven directly against a real sshd and a real named on loopback. */
class DnsSessionTest {

    private static final String MARKER = "/tmp/dns-ssh-injected-" + java.util.UUID.randomUUID();
    private static final List<String> INJECTIONS = List.of("; touch " + MARKER, "$(touch " + MARKER + ")",
            "`touch " + MARKER + "`", "a\nb", "a'b", "a\"b",
            "a b", "a|b", "a&b", "a>b", "-x", "a\\b", "..", "");
    private static Path dir;
    private static SshLab ssh;
    private static SshLab slow;
    private static BindLab bind;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(SshLab.unavailable().isEmpty(), SshLab.unavailable().orElse(""));
        Assumptions.assumeTrue(BindLab.unavailable().isEmpty(), BindLab.unavailable().orElse(""));
        dir = TempDirs.create("dns-session");
        ssh = SshLab.start(dir.resolve("ssh"));
        slow = SshLab.start(dir.resolve("slow"), Optional.of("/bin/sleep 30"));
        bind = BindLab.start(dir.resolve("bind"));
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {bind, slow, ssh}) {
            if (c != null) {
                c.close();
            }
        }
    }

    private static TargetSpec target(SshLab lab, Map<String, Object> more) throws Exception {
        Map<String, Object> extras = new HashMap<>(bind.extras());
        extras.put("ssh_host_key", lab.hostKeyLine());
        extras.putAll(more);
        extras.values().removeIf(v -> v == null || v.equals(""));
        return new TargetSpec("bind1", "bind", "127.0.0.1", lab.port(), Optional.empty(), true, Optional.empty(),
                Optional.empty(), extras);
    }

    private static Credential key(SshLab lab) throws Exception {
        return new Credential(Map.of("username", lab.user(), "private_key", lab.privateKey()));
    }

    private static Connector open(TargetSpec target) throws Exception {
        return new DnsConnectorFactory().open(new RecordingContext(), target, key(ssh));
    }

    /** The params of record {@code name} of {@code zone}: its type, TTL and data. */
    private static Map<String, Object> record(String zone, String name, String type, int ttl, String data) {
        return Map.of("zone", zone, "name", name, "type", type, "ttl", ttl, "data", data);
    }

    private static OperationResult call(Connector c, String op, Map<String, Object> params) {
        return c.invoke(new OperationRequest(op, params, Optional.empty()));
    }

    private static ErrorCode codeOf(Runnable r) {
        ConnectorException e = catchThrowableOfType(ConnectorException.class, r::run);
        assertThat(e).as("a ConnectorException").isNotNull();
        return e.code();
    }

    @Test
    void probeFingerprintsBind() throws Exception {
        try (Connector c = open(target(ssh, Map.of()))) {
            Fingerprint f = c.probe();
            assertThat(f.product()).contains("bind");
            assertThat(f.version()).hasValueSatisfying(v -> assertThat(v).matches("9\\.\\d+\\.\\d+"));
            assertThat(f.probeMethod()).isEqualTo("ssh: named -v");
        }
    }

    @Test
    void writesApplyInOneUpdateAndAreVerifiedByReadingBack() throws Exception {
        try (Connector c = open(target(ssh, Map.of()))) {
            Map<String, Object> record = record(BindLab.ZONE, "api", "A", 120, "192.0.2.80");
            OperationResult added = call(c, "dns.record.add", record);
            assertThat(added).isInstanceOf(OperationResult.Document.class);
            assertThat(((Map<?, ?>) ((OperationResult.Document) added).value()).get("verified")).isEqualTo(true);
            assertThat(bind.lookup("api.example.test", "A")).containsExactly("120 192.0.2.80");

            OperationResult updated = call(c, "dns.record.update",
                    record(BindLab.ZONE, "api.example.test.", "A", 60, "192.0.2.81"));
            assertThat(updated).as(updated.toString()).isInstanceOf(OperationResult.Document.class);
            assertThat(bind.lookup("api.example.test", "A")).containsExactly("60 192.0.2.81");

            call(c, "dns.record.add", record(BindLab.ZONE, "api", "AAAA", 60, "2001:DB8:0:0::81"));
            assertThat(bind.lookup("api.example.test", "AAAA")).containsExactly("60 2001:db8::81");
            call(c, "dns.record.add", record(BindLab.ZONE, "alias", "CNAME", 60, "api"));
            assertThat(bind.lookup("alias.example.test", "CNAME")).containsExactly("60 api.example.test.");
            call(c, "dns.record.add", record(BindLab.ZONE, "@", "MX", 60, "20 mx"));
            assertThat(bind.lookup("example.test", "MX")).containsExactly("60 20 mx.example.test.");
            call(c, "dns.record.add", record(BindLab.ZONE, "note", "TXT", 60, "v=test1"));
            assertThat(bind.lookup("note.example.test", "TXT")).containsExactly("60 \"v=test1\"");

            OperationResult deleted = call(c, "dns.record.delete", Map.of("zone", BindLab.ZONE, "name", "api", "type", "A",
                    "data", "192.0.2.81"));
            assertThat(deleted).as(deleted.toString()).isInstanceOf(OperationResult.Document.class);
            assertThat(bind.lookup("api.example.test", "A")).isEmpty();
            call(c, "dns.record.delete", Map.of("zone", BindLab.ZONE, "name", "api", "type", "AAAA"));
            assertThat(bind.lookup("api.example.test", "AAAA")).isEmpty();
        }
    }

    @Test
    void aWildcardNameIsRefusedBeforeAnythingIsApplied() throws Exception {
        try (Connector c = open(target(ssh, Map.of()))) {
            for (String name : List.of("*", "*.wild", "*.example.test.")) {
                Map<String, Object> wildcard = record(BindLab.ZONE, name, "A", 60, "192.0.2.99");
                assertThat(codeOf(() -> call(c, "dns.record.add", wildcard))).as(name).isEqualTo(ErrorCode.INVALID_PARAMS);
                assertThat(codeOf(() -> c.preview(new OperationRequest("dns.record.add", wildcard, Optional.empty()))))
                        .isEqualTo(ErrorCode.INVALID_PARAMS);
            }
        }
        assertThat(bind.lookup("anything.example.test", "A")).as("no wildcard was applied").isEmpty();
        assertThat(bind.lookup("x.wild.example.test", "A")).isEmpty();
    }

    @Test
    void anAddressNextToACnameIsNotReportedVerifiedByTheCnamesTarget() throws Exception {
        try (Connector c = open(target(ssh, Map.of()))) {
            // ftp is a CNAME to www (A 192.0.2.10, TTL 300): BIND ignores an A added next to it, and dig's
            // answer for ftp A is the CNAME plus www's A with exactly this data and TTL
            OperationResult r = call(c, "dns.record.add", record(BindLab.ZONE, "ftp", "A", 300, "192.0.2.10"));
            assertThat(r).as(r.toString()).isInstanceOf(OperationResult.Failure.class);
            assertThat(((OperationResult.Failure) r).message()).contains("does not show the change");
            assertThat(bind.lookup("ftp.example.test", "CNAME")).containsExactly("300 www.example.test.");
        }
    }

    @Test
    void anInterruptedCallRunsNoCommand() throws Exception {
        try (Connector c = open(target(ssh, Map.of()))) {
            Thread.currentThread().interrupt();
            try {
                assertThat(codeOf(() -> call(c, "dns.record.add", record(BindLab.ZONE, "late", "A", 60, "192.0.2.98"))))
                        .isEqualTo(ErrorCode.CONNECTOR_TIMEOUT);
            } finally {
                Thread.interrupted();
            }
        }
        assertThat(bind.lookup("late.example.test", "A")).isEmpty();
    }

    @Test
    void aRefusedUpdateFailsWithTheServersWords() throws Exception {
        try (Connector c = open(target(ssh, Map.of()))) {
            OperationResult r = call(c, "dns.record.add", Map.of("zone", BindLab.STATIC_ZONE, "name", "x", "type", "A",
                    "ttl", 60, "data", "192.0.2.9"));
            assertThat(r).isInstanceOf(OperationResult.Failure.class);
            assertThat(((OperationResult.Failure) r).message()).contains("nsupdate failed").contains("REFUSED");
            OperationResult reload = call(c, "dns.zone.reload", Map.of("name", BindLab.STATIC_ZONE));
            assertThat(reload).as(reload.toString()).isInstanceOf(OperationResult.Document.class);
            OperationResult dynamic = call(c, "dns.zone.reload", Map.of("name", BindLab.ZONE));
            assertThat(((OperationResult.Failure) dynamic).message()).contains("dynamic zone");
        }
    }

    @Test
    void injectionInEveryStringParameterIsRefusedBeforeAnyCommandRuns() throws Exception {
        Map<String, Map<String, Object>> ops = Map.of(
                "dns.record.add", record(BindLab.ZONE, "inj", "TXT", 60, "x"),
                "dns.record.update", record(BindLab.ZONE, "inj", "TXT", 60, "x"),
                "dns.record.delete", Map.of("zone", BindLab.ZONE, "name", "inj", "type", "TXT", "data", "x"),
                "dns.zone.show", Map.of("name", BindLab.ZONE),
                "dns.zone.reload", Map.of("name", BindLab.STATIC_ZONE),
                "dns.record.search", Map.of("zone", BindLab.ZONE, "name_contains", "www", "type", "A",
                        "data_contains", "192"));
        try (Connector c = open(target(ssh, Map.of()))) {
            for (var op : ops.entrySet()) {
                for (String param : op.getValue().keySet()) {
                    if (!(op.getValue().get(param) instanceof String)) {
                        continue;
                    }
                    for (String bad : INJECTIONS) {
                        if ((bad.equals("..") || bad.equals("-x")) && (param.endsWith("_contains") || param.equals("data"))) {
                            continue; // a TXT word or a search filter: never an argument of a command
                        }
                        Map<String, Object> params = new HashMap<>(op.getValue());
                        params.put(param, bad);
                        ErrorCode code = codeOf(() -> call(c, op.getKey(), params));
                        assertThat(code).as(op.getKey() + " " + param + "=" + bad).isEqualTo(ErrorCode.INVALID_PARAMS);
                    }
                }
            }
        }
        assertThat(bind.lookup("inj.example.test", "TXT")).isEmpty();
        assertThat(Path.of(MARKER)).doesNotExist();
    }

    @Test
    void aBadTargetExtraIsRefusedWithoutRunningAnything() throws Exception {
        for (String bad : List.of("/etc/bind/named.conf;id", "relative/named.conf", "$(id)")) {
            try (Connector c = open(target(ssh, Map.of("named_conf", bad)))) {
                assertThat(codeOf(() -> call(c, "dns.zone.list", Map.of()))).isEqualTo(ErrorCode.CONNECTOR_ERROR);
            }
        }
    }

    @Test
    void anUnknownOrChangedHostKeyFailsClosed() throws Exception {
        try (Connector c = open(target(ssh, Map.of("ssh_host_key", ssh.strangerKeyLine())))) {
            ConnectorException e = catchThrowableOfType(ConnectorException.class, () -> call(c, "dns.zone.list", Map.of()));
            assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_HOST_KEY_MISMATCH);
            assertThat(e.getMessage()).contains("not the pinned");
        }
        Map<String, Object> unpinned = new HashMap<>();
        unpinned.put("ssh_host_key", "");
        try (Connector c = open(target(ssh, unpinned))) {
            ConnectorException e = catchThrowableOfType(ConnectorException.class, c::probe);
            assertThat(e.code()).as("no trust on first use").isEqualTo(ErrorCode.CONNECTOR_HOST_KEY_MISMATCH);
            String presented = dev.backplane.plugins.ssh.HostKeyPin.parse(ssh.hostKeyLine()).fingerprint();
            assertThat(e.getMessage()).contains(presented);
        }
        String fingerprint = dev.backplane.plugins.ssh.HostKeyPin.parse(ssh.hostKeyLine()).fingerprint();
        try (Connector c = open(target(ssh, Map.of("ssh_host_key", fingerprint)))) {
            assertThat(c.probe().reachable()).as("a SHA256 fingerprint pins as well as a key line").isTrue();
        }
    }

    @Test
    void aPasswordTheServerRefusesIsConnectorAuthFailed() throws Exception {
        Credential password = new Credential(Map.of("username", ssh.user(), "password", "not-the-password-42"));
        try (Connector c = new DnsConnectorFactory().open(new RecordingContext(), target(ssh, Map.of()), password)) {
            ConnectorException e = catchThrowableOfType(ConnectorException.class, c::probe);
            assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_AUTH_FAILED);
            assertThat(e.toString()).doesNotContain("not-the-password-42");
        }
    }

    @Test
    void aCommandPastItsTimeoutIsStopped() throws Exception {
        try (Connector c = new DnsConnectorFactory().open(new RecordingContext(),
                target(slow, Map.of("ssh_command_timeout_seconds", 1)), key(slow))) {
            long t0 = System.nanoTime();
            assertThat(codeOf(() -> call(c, "dns.zone.list", Map.of()))).isEqualTo(ErrorCode.CONNECTOR_TIMEOUT);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(15));
        }
    }

    @Test
    void outputPastTheCapFailsInsteadOfTruncating() throws Exception {
        try (Connector c = open(target(ssh, Map.of("ssh_output_cap_bytes", 64)))) {
            ConnectorException e = catchThrowableOfType(ConnectorException.class,
                    () -> call(c, "dns.zone.show", Map.of("name", BindLab.ZONE)));
            assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_ERROR);
            assertThat(e.getMessage()).contains("more than 64 bytes");
        }
    }

    @Test
    void theSsrfGuardRefusesALoopbackTargetNotOnTheAllowlist() throws Exception {
        long before = ssh.acceptedLogins();
        ConnectorContext guarded = guarded("");
        try (Connector c = new DnsConnectorFactory().open(guarded, target(ssh, Map.of()), key(ssh))) {
            ConnectorException e = catchThrowableOfType(ConnectorException.class, c::probe);
            assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_UNREACHABLE);
        }
        assertThat(ssh.acceptedLogins()).isEqualTo(before);
        ConnectorContext allowed = guarded("127.0.0.0/8");
        try (Connector c = new DnsConnectorFactory().open(allowed, target(ssh, Map.of()), key(ssh))) {
            assertThat(c.probe().reachable()).isTrue();
        }
    }

    @Test
    void sessionsAreReusedPerTargetAndCredential() throws Exception {
        try (Connector c = open(target(ssh, Map.of()))) {
            call(c, "dns.zone.list", Map.of());
        }
        long after = ssh.acceptedLogins();
        for (int i = 0; i < 3; i++) {
            try (Connector c = open(target(ssh, Map.of()))) {
                assertThat(call(c, "dns.zone.list", Map.of())).isInstanceOf(OperationResult.Rows.class);
            }
        }
        assertThat(ssh.acceptedLogins()).as("no new login for the same target and credential").isEqualTo(after);
    }

    @Test
    void readsAnswerRows() throws Exception {
        try (Connector c = open(target(ssh, Map.of()))) {
            var zones = (OperationResult.Rows) call(c, "dns.zone.list", Map.of());
            assertThat(zones.rows()).extracting(r -> r.get("zone")).contains(BindLab.ZONE, BindLab.STATIC_ZONE);
            var records = (OperationResult.Rows) call(c, "dns.zone.show", Map.of("name", BindLab.ZONE));
            assertThat(records.rows()).contains(Map.of("name", "www.example.test.", "type", "A", "ttl", 300L,
                    "data", "192.0.2.10"));
            assertThat(records.rows()).filteredOn(r -> r.get("type").equals("SOA")).hasSize(1);
            var found = (OperationResult.Rows) call(c, "dns.record.search", Map.of("zone", BindLab.ZONE,
                    "name_contains", "sip", "type", "SRV"));
            assertThat(found.rows()).extracting(r -> r.get("data")).containsExactly("10 5 5060 sip.example.test.");
            var status = (OperationResult.Document) call(c, "dns.server.status", Map.of());
            assertThat(((Map<?, ?>) status.value()).get("version").toString()).startsWith("BIND 9.");
            var check = (OperationResult.Document) call(c, "dns.config.check", Map.of());
            assertThat(((Map<?, ?>) check.value()).get("ok")).isEqualTo(true);
            ConnectorException missing = catchThrowableOfType(ConnectorException.class,
                    () -> call(c, "dns.zone.show", Map.of("name", "nosuch.test")));
            assertThat(missing.getMessage()).as("an unknown zone's transfer fails with dig's words")
                    .contains("zone transfer of nosuch.test failed");
        }
    }

    @Test
    void previewShowsTheExactCommandAndInput() throws Exception {
        try (Connector c = open(target(ssh, Map.of()))) {
            HttpPreview p = c.preview(new OperationRequest("dns.record.delete", Map.of("zone", BindLab.ZONE, "name", "www",
                    "type", "A", "data", "192.0.2.10"), Optional.empty())).orElseThrow();
            assertThat(p.method()).isEqualTo("SSH");
            assertThat(p.path()).startsWith("nsupdate -k /");
            assertThat(p.body().orElseThrow().toString()).contains("update delete www.example.test. IN A 192.0.2.10");
        }
        assertThat(bind.lookup("www.example.test", "A")).as("a preview sends nothing").containsExactly("300 192.0.2.10");
    }

    /** A context whose sockets come from the kernel's SSRF-guarded factory with {@code allowlist}. */
    private static ConnectorContext guarded(String allowlist) {
        SocketFactory sockets = new GuardedSocketFactory(SsrfGuard.fromSetting(allowlist), 2000);
        return new RecordingContext() {
            @Override
            public SocketFactory socketFactory() {
                return sockets;
            }
        };
    }
}
