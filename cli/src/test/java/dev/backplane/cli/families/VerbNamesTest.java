package dev.backplane.cli.families;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The typeable names of a family's operations, on hand-picked op ids from real specs. */
class VerbNamesTest {

    @Test
    void nounWordsLeaveTheVerbAndTheOldNamesStayAsAliases() {
        VerbNames names = VerbNames.of(List.of("docker.container.container_list", "docker.container.container_inspect",
                "docker.image.image_list"));

        VerbNames.Name list = names.name("docker.container.container_list");
        assertThat(list.noun()).isEqualTo("container");
        assertThat(list.verb()).isEqualTo("list");
        assertThat(list.verbAliases()).containsExactly("container_list", "container-list");
        assertThat(names.name("docker.image.image_list").verb()).isEqualTo("list");
        assertThat(names.name("docker.container.container_inspect").verb()).isEqualTo("inspect");
    }

    private static final String TEMPLATES =
            "argocd.clusterworkflowtemplateservice.cluster_workflow_template_service_list_cluster_workflow_templates";

    @Test
    void groupKeySplitsIntoTheWordsItsVerbsUseAndDropsAGenericLastWord() {
        VerbNames names = VerbNames.of(List.of("argocd.applicationservice.application_service_sync",
                "argocd.applicationservice.application_service_list",
                TEMPLATES));

        VerbNames.Name sync = names.name("argocd.applicationservice.application_service_sync");
        assertThat(sync.noun()).isEqualTo("application");
        assertThat(sync.nounAliases()).containsExactly("applicationservice");
        assertThat(sync.verb()).isEqualTo("sync");
        VerbNames.Name templates = names.name(TEMPLATES);
        assertThat(templates.noun()).isEqualTo("cluster-workflow-template");
        assertThat(templates.verb()).isEqualTo("list");
        assertThat(names.firstWords()).contains("application", "applicationservice", "cluster-workflow-template",
                "clusterworkflowtemplateservice");
    }

    @Test
    void pluralAndSingularNounWordsAreOneNoun() {
        VerbNames names = VerbNames.of(List.of("harbor.registry.list_registries", "harbor.registry.get_registry",
                "coolify.applications.delete_application_by_uuid"));

        assertThat(names.name("harbor.registry.list_registries").verb()).isEqualTo("list");
        assertThat(names.name("harbor.registry.get_registry").verb()).isEqualTo("get");
        assertThat(names.name("coolify.applications.delete_application_by_uuid").verb()).isEqualTo("delete-by-uuid");
    }

    @Test
    void bareMethodWordSaysWhatItDoes() {
        VerbNames names = VerbNames.of(List.of("keycloak.users.post_users", "keycloak.users.put_user",
                "keycloak.users.get_users", "keycloak.users.post_users_logout"));

        assertThat(names.name("keycloak.users.post_users").verb()).isEqualTo("create");
        assertThat(names.name("keycloak.users.put_user").verb()).isEqualTo("update");
        assertThat(names.name("keycloak.users.get_users").verb()).isEqualTo("get");
        assertThat(names.name("keycloak.users.post_users_logout").verb()).isEqualTo("post-logout");
    }

    @Test
    void aCodeGeneratorsUsingMethodTailIsDropped() {
        VerbNames names = VerbNames.of(List.of("vcfa.catalog_items.request_catalog_item_instances_using_post_1",
                "vcfa.compute.get_machines_using_get", "vcfa.compute.get_machine_using_get",
                "vcfa.compute.delete_machine_using_delete", "vcfa.compute.delete_machine_using_delete_2"));

        assertThat(names.name("vcfa.catalog_items.request_catalog_item_instances_using_post_1").noun())
                .isEqualTo("catalog-items");
        assertThat(names.name("vcfa.catalog_items.request_catalog_item_instances_using_post_1").verb())
                .isEqualTo("request-instances");
        assertThat(names.name("vcfa.compute.get_machines_using_get").verb()).isEqualTo("get-machines");
        assertThat(names.name("vcfa.compute.get_machine_using_get").verb()).isEqualTo("get-machine");
        // both would be delete-machine: each keeps its tail
        assertThat(names.name("vcfa.compute.delete_machine_using_delete").verb())
                .isEqualTo("delete-machine-using-delete");
        assertThat(names.name("vcfa.compute.delete_machine_using_delete_2").verb())
                .isEqualTo("delete-machine-using-delete-2");
        assertThat(VerbNames.withoutUsingMethod(List.of("using", "get"))).containsExactly("using", "get");

        VerbNames items = VerbNames.of(List.of("vcfa.catalog_items.get_catalog_item_using_get_5",
                "vcfa.catalog_items.get_catalog_items_using_get_5"));
        // both would be get: each keeps its noun words before it keeps the tail
        assertThat(items.name("vcfa.catalog_items.get_catalog_item_using_get_5").verb()).isEqualTo("get-catalog-item");
        assertThat(items.name("vcfa.catalog_items.get_catalog_items_using_get_5").verb())
                .isEqualTo("get-catalog-items");
    }

    @Test
    void collidingVerbsKeepMoreWordsNeverARandomSuffix() {
        VerbNames names = VerbNames.of(List.of("keycloak.component.get_components", "keycloak.component.get_component",
                "keycloak.component.delete_component"));

        assertThat(names.name("keycloak.component.get_components").verb()).isEqualTo("get-components");
        assertThat(names.name("keycloak.component.get_component").verb()).isEqualTo("get-component");
        assertThat(names.name("keycloak.component.delete_component").verb()).isEqualTo("delete");
    }

    @Test
    void anOldNameKeepsMeaningItsOperation() {
        // pod_list would shorten to list, which already names x.pod.list
        VerbNames names = VerbNames.of(List.of("x.pod.list", "x.pod.pod_list", "x.pod.pod_delete"));

        assertThat(names.name("x.pod.list").verb()).isEqualTo("list");
        assertThat(names.name("x.pod.pod_list").verb()).isEqualTo("pod-list");
        assertThat(names.name("x.pod.pod_list").verbAliases()).containsExactly("pod_list");
        assertThat(names.name("x.pod.pod_delete").verb()).isEqualTo("delete");
    }

    @Test
    void nounsDoNotCollideWithEachOtherOrTheFamilysOwnWords() {
        VerbNames names = VerbNames.of(List.of("x.operationservice.operation_service_list", "x.repo.repo_list",
                "x.reposervice.repo_service_list", "x.about"));

        assertThat(names.name("x.operationservice.operation_service_list").noun()).isEqualTo("operation-service");
        assertThat(names.name("x.repo.repo_list").noun()).isEqualTo("repo");
        assertThat(names.name("x.reposervice.repo_service_list").noun()).isEqualTo("repo-service");
        assertThat(names.name("x.about").noun()).isNull();
        assertThat(names.name("x.about").verb()).isEqualTo("about");
    }

    @Test
    void handWrittenPluginVerbsKeepTheirNames() {
        List<String> ids = List.of("k8s.pod.list", "k8s.logs", "k8s.about", "vault.sys.seal-status",
                "vault.token.lookup-self", "prometheus.am-alert.list", "dns.record.add");
        VerbNames names = VerbNames.of(ids);

        for (String id : ids) {
            String[] parts = id.split("\\.");
            VerbNames.Name n = names.name(id);
            assertThat(n.verb()).as(id).isEqualTo(parts[parts.length - 1]);
            assertThat(n.verbAliases()).as(id).isEmpty();
            assertThat(n.noun()).as(id).isEqualTo(parts.length == 3 ? parts[1] : null);
        }
    }

    @Test
    void sameCatalogSameNamesInAnyOrder() {
        List<String> ids = new ArrayList<>(List.of("keycloak.component.get_components",
                "keycloak.component.get_component",
                "argocd.applicationservice.application_service_sync", "x.pod.list", "x.pod.pod_list", "x.about"));
        String first = VerbNames.of(ids).all().stream().sorted(java.util.Comparator.comparing(VerbNames.Name::opId))
                .toList().toString();
        for (int seed = 0; seed < 5; seed++) {
            Collections.shuffle(ids, new Random(seed));
            assertThat(VerbNames.of(ids).all().stream().sorted(java.util.Comparator.comparing(VerbNames.Name::opId))
                    .toList().toString()).isEqualTo(first);
        }
    }

    @Test
    void wordsAndStems() {
        assertThat(VerbNames.words("labelSelector")).containsExactly("label", "selector");
        assertThat(VerbNames.words("name__ic")).containsExactly("name", "ic");
        assertThat(VerbNames.words("X-Request-Id")).containsExactly("x", "request", "id");
        assertThat(VerbNames.words("IPAddress")).containsExactly("ip", "address");
        assertThat(VerbNames.stem("policies")).isEqualTo("policy");
        assertThat(VerbNames.stem("vms")).isEqualTo("vm");
        assertThat(VerbNames.stem("status")).isEqualTo("status");
        assertThat(VerbNames.segment("scanall", java.util.Set.of("scan", "all", "sc", "an")))
                .containsExactly("scan", "all");
        assertThat(VerbNames.segment("tsigkey", java.util.Set.of("tsig"))).containsExactly("tsigkey");
    }

    @Test
    void readableFlagsKeepTheOldSpellingAsAlias() {
        assertThat(FamilyVerbs.flagName("name__ic")).isEqualTo("name-ic");
        assertThat(FamilyVerbs.oldFlagName("name__ic")).isEqualTo("name--ic");
        assertThat(FamilyVerbs.flagName("all_namespaces")).isEqualTo("all-namespaces");
        assertThat(FamilyVerbs.flagName("labelSelector")).isEqualTo("label-selector");
        assertThat(FamilyVerbs.flagName("continue")).isEqualTo("continue-token");
        assertThat(FamilyVerbs.flagName("$filter")).isEqualTo("filter");
        assertThat(FamilyVerbs.flagName("_")).isEqualTo("param");
    }
}
