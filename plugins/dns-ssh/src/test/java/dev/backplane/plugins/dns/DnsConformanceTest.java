package dev.backplane.plugins.dns;

import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.ClassFixture;
import dev.backplane.plugin.api.testkit.ConnectorConformanceTest;
import dev.backplane.plugins.ssh.SshLab;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The connector conformance kit against a real sshd and a real named on loopback. */
class DnsConformanceTest extends ConnectorConformanceTest {

    @RegisterExtension
    static final ClassFixture<SshLab> SSH = ClassFixture.unless(SshLab::unavailable,
            () -> SshLab.start(TempDirs.create("dns-conformance-ssh")));
    @RegisterExtension
    static final ClassFixture<BindLab> BIND = ClassFixture.unless(BindLab::unavailable,
            () -> BindLab.start(TempDirs.create("dns-conformance-bind")));

    /** The login name is not a secret (it is in every sshd log line); keys and the passphrase are. */
    @Override
    protected Subject subject() throws Exception {
        SshLab ssh = SSH.get();
        Map<String, Object> extras = new HashMap<>(BIND.get().extras());
        extras.put("ssh_host_key", ssh.hostKeyLine());
        return new Subject(new DnsConnectorFactory(),
                new TargetSpec("bind1", "bind", "127.0.0.1", ssh.port(), Optional.empty(), true, Optional.empty(),
                        Optional.empty(), extras),
                new Credential(Map.of("username", ssh.user(), "private_key", ssh.encryptedPrivateKey(),
                        "passphrase", SshLab.PASSPHRASE)),
                new Credential(Map.of("username", ssh.user(), "private_key", ssh.strangerPrivateKey())),
                List.of(sampleCall("dns.zone.list", Map.of()), sampleCall("dns.zone.show", Map.of("name", BindLab.ZONE)),
                        sampleCall("dns.record.search", Map.of("zone", BindLab.ZONE, "type", "A")),
                        sampleCall("dns.about", Map.of()),
                        sampleCall("dns.server.status", Map.of()), sampleCall("dns.config.check", Map.of())))
                .withSecretValues(Set.of(ssh.encryptedPrivateKey().strip(), ssh.strangerPrivateKey().strip(),
                        SshLab.PASSPHRASE));
    }
}
