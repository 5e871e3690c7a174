package dev.backplane.plugins.firewall;

import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.ConnectorConformanceTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/** The connector conformance kit against nftables in a network namespace, through a real sshd. */
class FirewallConformanceTest extends ConnectorConformanceTest {

    private static NftLab lab;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(NftLab.unavailable().isEmpty(), NftLab.unavailable().orElse(""));
        lab = NftLab.start(Files.createTempDirectory("fw-conformance"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (lab != null) {
            lab.close();
        }
    }

    @Override
    protected ConnectorFactory factory() {
        return new FirewallConnectorFactory();
    }

    @Override
    protected TargetSpec reachableTarget() {
        try {
            return new TargetSpec("fw1", "nftables", "127.0.0.1", lab.ssh().port(), Optional.empty(), true,
                    Optional.empty(), Optional.empty(), lab.extras());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected Credential goodCredential() {
        try {
            return new Credential(Map.of("username", lab.ssh().user(), "private_key", lab.ssh().privateKey()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected Credential rejectedCredential() {
        try {
            return new Credential(Map.of("username", lab.ssh().user(), "private_key", lab.ssh().strangerPrivateKey()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The login name is not a secret; the keys are. */
    @Override
    protected Set<String> secretValues() {
        try {
            return Set.of(lab.ssh().privateKey().strip(), lab.ssh().strangerPrivateKey().strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected List<OperationRequest> sampleCalls() {
        return List.of(sampleCall("firewall.table.list", Map.of()), sampleCall("firewall.chain.list", Map.of()),
                sampleCall("firewall.rule.list", Map.of("family", "inet", "table", "filter", "chain", "input")),
                sampleCall("firewall.set.list", Map.of()),
                sampleCall("firewall.set.show", Map.of("family", "inet", "table", "filter", "name", "blocklist")),
                sampleCall("firewall.counter.list", Map.of()), sampleCall("firewall.ruleset.show", Map.of()),
                sampleCall("firewall.about", Map.of()));
    }
}
