package dev.backplane.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
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
    void postsThatOnlyReadAreReads() {
        Map<String, OperationDescriptor> nomad = byId("nomad-openapi.yaml", "nomad", "1.x");
        for (String read : List.of("nomad.jobs.post_job_plan", "nomad.jobs.post_job_validate_request", "nomad.search.get_search", "nomad.search.get_fuzzy_search")) {
            assertThat(nomad.get(read)).as(read).isNotNull();
            assertThat(nomad.get(read).opClass()).as(read).isEqualTo(OpClass.READ);
            assertThat(nomad.get(read).safetyLevel()).as(read).isEqualTo(SafetyLevel.SAFE);
            assertThat(nomad.get(read).requiresApproval()).as(read).isFalse();
            assertThat(nomad.get(read).isReadClass()).as("a POST is never read-class (GET/HEAD)").isFalse();
        }
        // parsing a job only reads, but the parsed job it answers with has VaultToken and ConsulToken fields
        assertThat(nomad.get("nomad.jobs.post_job_parse").opClass()).isEqualTo(OpClass.CREDENTIAL_READ);
        // evaluate creates an evaluation; a register, a dispatch and a plain POST are writes
        assertThat(nomad.get("nomad.jobs.post_job_evaluate").opClass()).isEqualTo(OpClass.WRITE);
        assertThat(nomad.get("nomad.jobs.post_job_dispatch").opClass()).isEqualTo(OpClass.WRITE);
        assertThat(nomad.get("nomad.jobs.register_job").opClass()).isEqualTo(OpClass.WRITE);

        Map<String, OperationDescriptor> harbor = byId("harbor-v2.0-swagger.yaml", "harbor", "2.x");
        assertThat(harbor.values()).filteredOn(o -> o.opId().endsWith(".ping_registry")).singleElement()
                .extracting(OperationDescriptor::opClass).isEqualTo(OpClass.READ);
        assertThat(harbor.values()).filteredOn(o -> o.opId().endsWith(".create_project")).singleElement()
                .extracting(OperationDescriptor::opClass).isEqualTo(OpClass.WRITE);

        Map<String, OperationDescriptor> argo = byId("argocd-swagger.json", "argocd", "3.x");
        assertThat(argo.values()).filteredOn(o -> o.opId().endsWith(".repository_service_validate_access"))
                .singleElement().extracting(OperationDescriptor::opClass).isEqualTo(OpClass.READ);
        assertThat(argo.values()).filteredOn(o -> o.opId().endsWith(".repository_service_validate_write_access"))
                .singleElement().extracting(OperationDescriptor::opClass).isEqualTo(OpClass.WRITE);
        assertThat(argo.values()).filteredOn(o -> o.opId().endsWith(".application_service_sync"))
                .singleElement().extracting(OperationDescriptor::opClass).isEqualTo(OpClass.WRITE);

        // Docker's POST /auth answers with an identity token: not a read
        Map<String, OperationDescriptor> docker = byId("docker-engine-1.56-swagger.yaml", "docker", "1.x");
        assertThat(docker.get("docker.system.system_auth").opClass()).isEqualTo(OpClass.WRITE);
    }

    @Test
    void lookupsReadAndLoginsAndOneTimeCodesStayWrites() {
        Map<String, OperationDescriptor> vault = byId("vault-openapi.json", "vault", "1.x");
        OperationDescriptor lookup = vault.values().stream().filter(o -> o.shape() instanceof OperationShape.Http h
                && h.method().equals("POST") && h.pathTemplate().equals("/identity/lookup/entity")).findFirst()
                .orElseThrow();
        assertThat(lookup.opClass()).isEqualTo(OpClass.READ);
        assertThat(lookup.requiresApproval()).isFalse();
        // unsure is a write: a token lookup under /auth, an MFA validation that answers with a token, codes spent
        for (String path : List.of("/auth/token/lookup", "/sys/mfa/validate", "/{totp_mount_path}/code/{name}", "/{ssh_mount_path}/verify",
                "/auth/{kubernetes_mount_path}/login")) {
            OperationDescriptor op = vault.values().stream().filter(o -> o.shape() instanceof OperationShape.Http h
                    && h.method().equals("POST") && h.pathTemplate().equals(path)).findFirst().orElseThrow();
            assertThat(op.opClass()).as(path).isEqualTo(OpClass.WRITE);
            assertThat(op.requiresApproval()).as(path).isTrue();
        }
    }

    @Test
    void everyOperationSaysWhyItHasItsClass() {
        IngestResult result = result("docker-engine-1.56-swagger.yaml", "docker", "1.x");
        assertThat(result.classifications().keySet()).containsExactlyInAnyOrderElementsOf(
                result.catalog().operations().stream().map(OperationDescriptor::opId).toList());
        assertThat(result.classifications()).containsEntry("docker.container.container_list", "GET")
                .containsEntry("docker.container.container_delete", "DELETE")
                .containsEntry("docker.container.container_create", "POST")
                .containsEntry("docker.container.container_prune", "POST whose name says it removes things: 'prune'")
                .containsEntry("docker.swarm.swarm_unlockkey", "credential read: path segment 'unlockkey' names a secret");
        assertThat(result("nomad-openapi.yaml", "nomad", "1.x").classifications())
                .containsEntry("nomad.jobs.post_job_plan", "POST whose name says it only reads: 'plan'");
        assertThat(result("powerdns-auth-openapi-3.1.yaml", "powerdns", "4.x").classifications().get(
                "powerdns.zonecryptokey.get_cryptokey")).startsWith("credential read: response field");
    }

    /** Every POST any shared spec has that the heuristic finds read-only, printed for review of the word lists. */
    @Test
    void readOnlyPostsAcrossTheSharedSpecs() throws java.io.IOException {
        int total = 0;
        try (var specs = java.nio.file.Files.list(RealSpecs.dir())) {
            for (java.nio.file.Path spec : specs.filter(p -> p.toString().matches(".*\\.(json|yaml)$")).sorted().toList()) {
                IngestResult r = result(spec.getFileName().toString(), "x", "1.x");
                for (OperationDescriptor op : r.catalog().operations()) {
                    if (op.shape() instanceof OperationShape.Http h && h.method().equals("POST")
                            && op.opClass() != OpClass.WRITE) {
                        total++;
                        System.out.println("read-only POST " + spec.getFileName() + " " + h.pathTemplate() + " "
                                + op.opClass().wireName() + " — " + r.classifications().get(op.opId()));
                    }
                }
            }
        }
        assertThat(total).isPositive();
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
        assertThat(CredentialReads.fieldNamesSecret("NextToken")).isFalse();
        assertThat(CredentialReads.fieldNamesSecret("page_token")).isFalse();
        assertThat(CredentialReads.fieldNamesSecret("ConsulToken")).isTrue();
    }

    private static Map<String, OpClass> ingest(String spec, String impl, String label) {
        return operations(spec, impl, label).stream()
                .collect(Collectors.toMap(OperationDescriptor::opId, OperationDescriptor::opClass));
    }

    private static Map<String, SafetyLevel> safety(String spec, String impl, String label) {
        return operations(spec, impl, label).stream()
                .collect(Collectors.toMap(OperationDescriptor::opId, OperationDescriptor::safetyLevel));
    }

    private static Map<String, OperationDescriptor> byId(String spec, String impl, String label) {
        return operations(spec, impl, label).stream().collect(Collectors.toMap(OperationDescriptor::opId, o -> o));
    }

    private static List<OperationDescriptor> operations(String spec, String impl, String label) {
        return result(spec, impl, label).catalog().operations();
    }

    private static IngestResult result(String spec, String impl, String label) {
        return SpecIngester.ingest(List.of(SpecSource.of(RealSpecs.spec(spec).toString())),
                new IngestOptions(impl, label, impl, List.of("*"), IngestOptions.DEFAULT_MAX_BYTES, false, p -> { }));
    }
}
