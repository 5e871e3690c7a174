package dev.backplane.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Reads that hand out key material in specs nobody here wrote, found by the heuristic alone (manual mode, no
 * catalog index): from a path segment ({@code /swarm/unlockkey}, {@code /tsigkeys}), a field's name or its
 * description ("The Base64 encoded secret key"). Reads beside them stay reads.
 */
class CredentialReadsRealSpecsTest {

    @Test
    void powerDnsKeysAreCredentialReads() {
        Map<String, OpClass> ops = ingest("powerdns-auth-openapi-3.1.yaml", "powerdns", "4.x");
        assertThat(ops).containsEntry("powerdns.tsigkey.get_tsig_key", OpClass.CREDENTIAL_READ)
                .containsEntry("powerdns.tsigkey.list_tsig_keys", OpClass.CREDENTIAL_READ)
                .containsEntry("powerdns.zonecryptokey.get_cryptokey", OpClass.CREDENTIAL_READ)
                .containsEntry("powerdns.servers.list_servers", OpClass.READ)
                .containsEntry("powerdns.zones.list_zones", OpClass.READ);
    }

    @Test
    void dockerUnlockKeyAndSecretsAreCredentialReads() {
        Map<String, OpClass> ops = ingest("docker-engine-1.56-swagger.yaml", "docker", "1.x");
        assertThat(ops).containsEntry("docker.swarm.swarm_unlockkey", OpClass.CREDENTIAL_READ)
                .containsEntry("docker.secret.secret_inspect", OpClass.CREDENTIAL_READ)
                .containsEntry("docker.container.container_list", OpClass.READ)
                .containsEntry("docker.image.image_list", OpClass.READ);
    }

    @Test
    void nomadAclTokensAreCredentialReads() {
        Map<String, OpClass> ops = ingest("nomad-openapi.yaml", "nomad", "1.x");
        assertThat(ops).containsEntry("nomad.acl.get_acl_token", OpClass.CREDENTIAL_READ)
                .containsEntry("nomad.jobs.get_jobs", OpClass.READ);
    }

    @Test
    void wordsThatNameKeyMaterial() {
        assertThat(CredentialReads.pathNamesSecret("/clusters/{id}/kubeconfig")).isTrue();
        assertThat(CredentialReads.pathNamesSecret("/swarm/unlockkey")).isTrue();
        assertThat(CredentialReads.pathNamesSecret("/projects/{id}/apikeys")).isTrue();
        assertThat(CredentialReads.pathNamesSecret("/monkeys")).isFalse();
        assertThat(CredentialReads.pathNamesSecret("/hotkeys")).isFalse();
        assertThat(CredentialReads.fieldNamesSecret("UnlockKey")).isTrue();
        assertThat(CredentialReads.fieldNamesSecret("tsigkey")).isTrue();
        assertThat(CredentialReads.fieldNamesSecret("keyName")).isFalse();
    }

    private static Map<String, OpClass> ingest(String spec, String impl, String label) {
        IngestResult result = SpecIngester.ingest(List.of(SpecSource.of(RealSpecs.spec(spec).toString())),
                new IngestOptions(impl, label, impl, List.of("*"), IngestOptions.DEFAULT_MAX_BYTES, false, p -> { }));
        return result.catalog().operations().stream()
                .collect(Collectors.toMap(OperationDescriptor::opId, OperationDescriptor::opClass));
    }
}
