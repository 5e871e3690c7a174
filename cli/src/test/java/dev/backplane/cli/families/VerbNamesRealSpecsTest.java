package dev.backplane.cli.families;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.OperationDescriptor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The names over every vendor spec in {@code ../shared/specs}, ingested offline: no two operations share a name or
 * an alias, every old name still reaches its operation, same catalog same names, and how long the names are.
 */
class VerbNamesRealSpecsTest {

    static Stream<String> families() {
        return RealCatalogs.SPECS.keySet().stream().sorted();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void everyNameAndOldNameReachesExactlyOneOperation(String family) {
        List<String> ids = RealCatalogs.operations(family).stream().map(OperationDescriptor::opId).toList();
        VerbNames names = VerbNames.of(ids);

        // what the first word after the family reaches: a noun (by its name or alias)
        Map<String, String> firstWord = new HashMap<>();
        // noun -> typed verb word -> op id
        Map<String, Map<String, String>> typed = new TreeMap<>();
        for (String id : ids) {
            VerbNames.Name n = names.name(id);
            assertThat(n).as(id).isNotNull();
            assertThat(n.noun()).as(id).isNotNull().matches("[a-z0-9]+(-[a-z0-9]+)*");
            assertThat(n.verb()).as(id).matches("[a-z0-9]+(-[a-z0-9]+)*");
            Stream.concat(Stream.of(n.noun()), n.nounAliases().stream()).forEach(word -> {
                String prior = firstWord.putIfAbsent(word, n.noun());
                assertThat(prior == null || prior.equals(n.noun())).as("%s names two nouns", word).isTrue();
            });
            assertThat(VerbNames.FAMILY_WORDS).doesNotContain(n.noun());
            Map<String, String> verbs = typed.computeIfAbsent(n.noun(), k -> new HashMap<>());
            Stream.concat(Stream.of(n.verb()), n.verbAliases().stream()).forEach(word -> {
                String prior = verbs.putIfAbsent(word, id);
                assertThat(prior).as("%s %s names %s and %s", n.noun(), word, prior, id).isNull();
            });
        }
        for (String id : ids) {
            String[] parts = id.split("\\.", 3);
            // svc <family> <group key> <op-id verb>, as before, still reaches the operation
            String noun = firstWord.get(parts[1]);
            assertThat(noun).as("old noun %s", parts[1]).isNotNull();
            assertThat(typed.get(noun).get(parts[2])).as("old verb of %s", id).isEqualTo(id);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void sameCatalogSameNames(String family) {
        List<String> ids = new ArrayList<>(RealCatalogs.operations(family).stream().map(OperationDescriptor::opId)
                .toList());
        Map<String, VerbNames.Name> first = new TreeMap<>();
        VerbNames.of(ids).all().forEach(n -> first.put(n.opId(), n));
        Collections.shuffle(ids, new java.util.Random(44));
        Map<String, VerbNames.Name> again = new TreeMap<>();
        VerbNames.of(ids).all().forEach(n -> again.put(n.opId(), n));

        assertThat(again).isEqualTo(first);
    }

    /** The short names docs/connectors/specs-we-wrote.md and the CLI guide quote for our own specs. */
    @Test
    void theNamesTheDocsQuoteForOurOwnSpecs() {
        Map<String, String> typed = new TreeMap<>();
        for (List<String> family : List.of(List.of("vcenter", "vcenter", "vcenter-9.0-operator-subset.openapi.yaml"),
                List.of("nsx", "nsx", "nsx-4.2-policy-operator-subset.openapi.yaml"),
                List.of("proxmox", "proxmox", "proxmox-ve-operator.yaml"),
                List.of("hetzner-robot", "hetzner-robot", "hetzner-robot-operator.yaml"),
                List.of("sddc-manager", "sddc-manager", "swagger.json"),
                List.of("vcfa", "vcfa", "vra-iaas.json", "vra-catalog-deployment.json", "vra-blueprint.json"))) {
            VerbNames names = VerbNames.of(RealCatalogs.pluginRepoOpIds(family.get(0), family.get(1),
                    family.subList(2, family.size()).toArray(String[]::new)));
            names.all().forEach(n -> typed.put(n.opId(), n.noun() + " " + n.verb()));
        }
        assertThat(typed).containsEntry("vcenter.vm.list_vms", "vm list")
                .containsEntry("vcenter.vm.get_vm", "vm get")
                .containsEntry("vcenter.vm.power_vm", "vm power")
                .containsEntry("vcenter.resource_pool.list_resource_pools", "resource-pool list")
                .containsEntry("vcenter.appliance.get_appliance_health_system", "appliance get-health-system")
                .containsEntry("vcenter.tagging.list_tag_categories", "tagging list-tag-categories")
                .containsEntry("nsx.firewall.list_firewall_rules", "firewall list-rules")
                .containsEntry("nsx.segment.list_segments", "segment list")
                .containsEntry("nsx.segment.patch_segment", "segment patch")
                .containsEntry("nsx.system.get_cluster_status", "system get-cluster-status")
                .containsEntry("nsx.nat.list_tier1_nat_rules", "nat list-tier1-rules")
                .containsEntry("nsx.lb.list_lb_virtual_servers", "lb list-virtual-servers")
                .containsEntry("proxmox.vm.list_vms", "vm list")
                .containsEntry("proxmox.vm.shutdown_vm", "vm shutdown")
                .containsEntry("proxmox.node.get_node_syslog", "node get-syslog")
                .containsEntry("proxmox.task.get_task_log", "task get-log")
                .containsEntry("proxmox.task.get_task_status", "task get-status")
                .containsEntry("hetzner-robot.server.list_servers", "server list")
                .containsEntry("hetzner-robot.reset.reset_server", "reset server")
                .containsEntry("hetzner-robot.boot.activate_rescue", "boot activate-rescue")
                .containsEntry("sddc-manager.domains.get_domains", "domains get-domains")
                .containsEntry("sddc-manager.bundles.start_bundle_download_by_id", "bundles start-download-by-id")
                .containsEntry("vcfa.compute.get_machines", "compute get-machines")
                .containsEntry("vcfa.catalog_items.request_catalog_item_instances_using_post_1",
                        "catalog-items request-instances");
    }

    @Test
    void namesPeopleCanType() {
        Map<String, String> typed = new TreeMap<>();
        long nanos = 0;
        for (String family : families().toList()) {
            List<String> ids = RealCatalogs.operations(family).stream().map(OperationDescriptor::opId).toList();
            long start = System.nanoTime();
            VerbNames names = VerbNames.of(ids);
            nanos += System.nanoTime() - start;
            names.all().forEach(n -> typed.put(n.opId(), n.noun() + " " + n.verb()));
        }
        long k8s = System.nanoTime();
        VerbNames.of(RealCatalogs.operations("k8s").stream().map(OperationDescriptor::opId).toList());
        System.out.printf("named %d operations of %d families in %d ms (first run); the %d of k8s again in %d ms%n",
                typed.size(), RealCatalogs.SPECS.size(), nanos / 1_000_000, RealCatalogs.operations("k8s").size(),
                (System.nanoTime() - k8s) / 1_000_000);
        assertThat(typed).containsEntry("docker.container.container_list", "container list")
                .containsEntry("docker.image.image_list", "image list")
                .containsEntry("argocd.applicationservice.application_service_sync", "application sync")
                .containsEntry("argocd.applicationservice.application_service_list", "application list")
                .containsEntry("harbor.project.create_project", "project create")
                .containsEntry("harbor.project.list_projects", "project list")
                .containsEntry("argocd.versionservice.version_service_version", "version version")
                .containsEntry("keycloak.users.get_users_by_realm", "users get-by-realm")
                .containsEntry("keycloak.users.post_users", "users create")
                // get_jobs and get_job would both be get: each keeps its noun word
                .containsEntry("nomad.jobs.get_jobs", "jobs get-jobs")
                .containsEntry("nomad.jobs.get_job", "jobs get-job");

        List<Integer> verbLengths = new ArrayList<>();
        List<Integer> commandLengths = new ArrayList<>();
        List<Integer> oldLengths = new ArrayList<>();
        String longest = "";
        int longestLength = 0;
        for (var e : typed.entrySet()) {
            String[] old = e.getKey().split("\\.", 3);
            String verb = e.getValue().substring(e.getValue().indexOf(' ') + 1);
            verbLengths.add(verb.length());
            commandLengths.add(e.getValue().length());
            oldLengths.add(old[1].length() + 1 + old[2].length());
            if (e.getValue().length() > longestLength) {
                longestLength = e.getValue().length();
                longest = e.getValue() + "  [" + e.getKey() + "]";
            }
        }
        Collections.sort(verbLengths);
        Collections.sort(commandLengths);
        Collections.sort(oldLengths);
        int p95 = commandLengths.get(commandLengths.size() * 95 / 100);
        int median = commandLengths.get(commandLengths.size() / 2);
        int oldP95 = oldLengths.get(oldLengths.size() * 95 / 100);
        int oldMedian = oldLengths.get(oldLengths.size() / 2);
        System.out.printf("verb names of %d operations over %d specs: <noun> <verb> median %d, p95 %d, max %d "
                        + "(op-id group key + verb: median %d, p95 %d, max %d); verb alone p95 %d%n  longest: %s%n",
                typed.size(), RealCatalogs.SPECS.size(), median, p95, commandLengths.getLast(), oldMedian, oldP95,
                oldLengths.getLast(), verbLengths.get(verbLengths.size() * 95 / 100), longest);
        assertThat(p95).isLessThan(oldP95);
        assertThat(median).isLessThan(oldMedian);
    }
}
