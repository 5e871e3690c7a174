package dev.backplane.plugins.dns;

import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.ConnectorConformanceTest;
import dev.backplane.plugins.ssh.SshLab;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/** The connector conformance kit against a real sshd and a real named on loopback. */
class DnsConformanceTest extends ConnectorConformanceTest {

    private static SshLab ssh;
    private static BindLab bind;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(SshLab.unavailable().isEmpty(), SshLab.unavailable().orElse(""));
        Assumptions.assumeTrue(BindLab.unavailable().isEmpty(), BindLab.unavailable().orElse(""));
        Path dir = Files.createTempDirectory("dns-conformance");
        ssh = SshLab.start(dir.resolve("ssh"));
        bind = BindLab.start(dir.resolve("bind"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (bind != null) {
            bind.close();
        }
        if (ssh != null) {
            ssh.close();
        }
    }

    @Override
    protected ConnectorFactory factory() {
        return new DnsConnectorFactory();
    }

    @Override
    protected TargetSpec reachableTarget() {
        try {
            Map<String, Object> extras = new HashMap<>(bind.extras());
            extras.put("ssh_host_key", ssh.hostKeyLine());
            return new TargetSpec("bind1", "bind", "127.0.0.1", ssh.port(), Optional.empty(), true, Optional.empty(),
                    Optional.empty(), extras);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    protected Credential goodCredential() {
        try {
            return new Credential(Map.of("username", ssh.user(), "private_key", ssh.encryptedPrivateKey(),
                    "passphrase", SshLab.PASSPHRASE));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    protected Credential rejectedCredential() {
        try {
            return new Credential(Map.of("username", ssh.user(), "private_key", ssh.strangerPrivateKey()));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The login name is not a secret (it is in every sshd log line); keys and the passphrase are. */
    @Override
    protected Set<String> secretValues() {
        try {
            return Set.of(ssh.encryptedPrivateKey().strip(), ssh.strangerPrivateKey().strip(), SshLab.PASSPHRASE);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    protected List<OperationRequest> sampleCalls() {
        return List.of(sampleCall("dns.zone.list", Map.of()), sampleCall("dns.zone.show", Map.of("name", BindLab.ZONE)),
                sampleCall("dns.record.search", Map.of("zone", BindLab.ZONE, "type", "A")),
                sampleCall("dns.about", Map.of()),
                sampleCall("dns.server.status", Map.of()), sampleCall("dns.config.check", Map.of()));
    }
}
