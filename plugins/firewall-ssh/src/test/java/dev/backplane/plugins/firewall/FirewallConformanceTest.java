package dev.backplane.plugins.firewall;

import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.ClassFixture;
import dev.backplane.plugin.api.testkit.ConnectorConformanceTest;
import dev.backplane.plugins.ssh.SshLab;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The connector conformance kit against nftables in a network namespace, through a real sshd. */
class FirewallConformanceTest extends ConnectorConformanceTest {

    @RegisterExtension
    static final ClassFixture<NftLab> LAB = ClassFixture.unless(NftLab::unavailable,
            () -> NftLab.start(TempDirs.create("fw-conformance")));

    /** The login name is not a secret; the keys are. */
    @Override
    protected Subject subject() throws Exception {
        SshLab ssh = LAB.get().ssh();
        return new Subject(new FirewallConnectorFactory(),
                new TargetSpec("fw1", "nftables", "127.0.0.1", ssh.port(), Optional.empty(), true,
                        Optional.empty(), Optional.empty(), LAB.get().extras()),
                new Credential(Map.of("username", ssh.user(), "private_key", ssh.privateKey())),
                new Credential(Map.of("username", ssh.user(), "private_key", ssh.strangerPrivateKey())),
                List.of(sampleCall("firewall.table.list", Map.of()), sampleCall("firewall.chain.list", Map.of()),
                        sampleCall("firewall.rule.list", Map.of("family", "inet", "table", "filter", "chain", "input")),
                        sampleCall("firewall.set.list", Map.of()),
                        sampleCall("firewall.set.show", Map.of("family", "inet", "table", "filter", "name", "blocklist")),
                        sampleCall("firewall.counter.list", Map.of()), sampleCall("firewall.ruleset.show", Map.of()),
                        sampleCall("firewall.about", Map.of())))
                .withSecretValues(Set.of(ssh.privateKey().strip(), ssh.strangerPrivateKey().strip()));
    }
}
