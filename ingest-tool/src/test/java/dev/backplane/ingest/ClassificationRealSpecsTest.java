package dev.backplane.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * How operations of specs nobody here wrote are classified by the heuristics alone (manual mode, no catalog index).
 * Reads that hand out key material are credential reads: found from a path segment ({@code /swarm/unlockkey},
 * {@code /tsigkeys}), a field's name or its description ("The Base64 encoded secret key"); reads beside them stay
 * reads. Writes that remove things in bulk or for good are dangerous whatever their method.
 */
class ClassificationRealSpecsTest {

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
    void massDeletesByPostAreDangerous() {
        Map<String, SafetyLevel> docker = safety("docker-engine-1.56-swagger.yaml", "docker", "1.x");
        assertThat(docker).containsEntry("docker.container.container_prune", SafetyLevel.DANGEROUS)
                .containsEntry("docker.image.image_prune", SafetyLevel.DANGEROUS)
                .containsEntry("docker.volume.volume_prune", SafetyLevel.DANGEROUS)
                .containsEntry("docker.container.container_create", SafetyLevel.CAUTION)
                .containsEntry("docker.container.container_restart", SafetyLevel.CAUTION);
        assertThat(safety("nomad-openapi.yaml", "nomad", "1.x"))
                .containsEntry("nomad.nodes.update_node_purge", SafetyLevel.DANGEROUS)
                .containsEntry("nomad.nodes.update_node_drain", SafetyLevel.CAUTION);
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
        return operations(spec, impl, label).stream()
                .collect(Collectors.toMap(OperationDescriptor::opId, OperationDescriptor::opClass));
    }

    private static Map<String, SafetyLevel> safety(String spec, String impl, String label) {
        return operations(spec, impl, label).stream()
                .collect(Collectors.toMap(OperationDescriptor::opId, OperationDescriptor::safetyLevel));
    }

    private static List<OperationDescriptor> operations(String spec, String impl, String label) {
        return SpecIngester.ingest(List.of(SpecSource.of(RealSpecs.spec(spec).toString())),
                new IngestOptions(impl, label, impl, List.of("*"), IngestOptions.DEFAULT_MAX_BYTES, false, p -> { }))
                .catalog().operations();
    }
}
