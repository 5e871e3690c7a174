package dev.backplane.plugins.openapi;

import static dev.backplane.plugins.openapi.ReplayKernel.errorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The virtualization-manager (vCenter) and network-virtualization-manager (NSX) families as ingested
 * specs: our own OpenAPI documents of their operator subsets, shipped in {@code plugin-repo/specs/} and
 * named by relative path in the shipped catalog index, ingested by catalog name and driven through a
 * real kernel against loopback HTTPS vendors (self-signed certificates, trusted by pin) replaying
 * hand-built answers. Each answer is checked against the document's response schema and each write the
 * vendor receives against its request schema ({@link SpecContract}).
 */
class VsphereAndNsxReplayIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SPECS = Path.of("../../plugin-repo/specs").toAbsolutePath().normalize();
    private static final String VCENTER = "vcenter-9.x";
    private static final String NSX = "nsx-4.x";
    private static final String VC_USER = "administrator@vsphere.local";
    private static final String PASSWORD = "vendor-pw-" + UUID.randomUUID();
    private static final Set<String> sessions = ConcurrentHashMap.newKeySet();
    private static final AtomicInteger logins = new AtomicInteger();
    private static final SpecContract vcenter = contract("vcenter/vcenter-9.0-operator-subset.openapi.yaml");
    private static final SpecContract nsx = contract("nsx/nsx-4.2-policy-operator-subset.openapi.yaml");
    private static ReplayKernel replay;
    private static ReplayVendor vcenterVendor;
    private static ReplayVendor nsxVendor;
    private static ReplayChecks vc;
    private static ReplayChecks ns;

    private static SpecContract contract(String file) {
        try {
            return SpecContract.read(SPECS.resolve(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @BeforeAll
    static void start() throws Exception {
        replay = ReplayKernel.start(List.of("vcenter", "nsx"), Map.of());
        vcenterVendor = ReplayVendor.https(replay.work(), VsphereAndNsxReplayIT::vcenterAnswer);
        nsxVendor = ReplayVendor.https(replay.work(), VsphereAndNsxReplayIT::nsxAnswer);
        vc = new ReplayChecks(replay, vcenterVendor, VCENTER);
        ns = new ReplayChecks(replay, nsxVendor, NSX);
        assertThat(replay.ingest("vcenter/9.x")).contains("ingested " + VCENTER);
        assertThat(replay.ingest("nsx/4.x")).contains("ingested " + NSX);
        replay.enableReads(VCENTER);
        replay.enableReads(NSX);
        replay.target("vc1", "vcenter", vcenterVendor, Map.of("username", VC_USER, "password", PASSWORD),
                Map.of("tls_ca_pin", vcenterVendor.pem()));
        replay.target("nsx1", "nsx", nsxVendor, Map.of("username", "admin", "password", PASSWORD),
                Map.of("tls_ca_pin", nsxVendor.pem()));
    }

    @AfterAll
    static void stop() {
        ReplayChecks.close(replay, vcenterVendor);
        ReplayChecks.close(null, nsxVendor);
    }

    // ---- vCenter: the replayed answers (ids and shapes as a vCenter 9.0 answers them) ----

    private static final String TAG_ID = "urn:vmomi:InventoryServiceTag:9c1b3f52-6d0e-4f1a-b7c2-5e8d4a1f0b93:GLOBAL";
    private static final String CATEGORY_ID =
            "urn:vmomi:InventoryServiceCategory:2f4a6c8e-1b3d-4e5f-8a9b-0c1d2e3f4a5b:GLOBAL";
    private static final String VMS = """
            [{"vm": "vm-1021", "name": "web-01", "power_state": "POWERED_ON", "cpu_count": 4, "memory_size_MiB": 8192},
             {"vm": "vm-1022", "name": "db-01", "power_state": "POWERED_OFF", "cpu_count": 8, "memory_size_MiB": 32768}]""";
    private static final String VM = """
            {"name": "web-01", "guest_OS": "RHEL_9_64", "power_state": "POWERED_ON",
             "identity": {"name": "web-01", "bios_uuid": "4222c1a8-5b7e-3f1d-9a2c-6e8f0b1d3c5a",
                          "instance_uuid": "5022a3f1-7c9e-4b2d-8f1a-3e5c7a9b1d2f"},
             "hardware": {"version": "VMX_21", "upgrade_policy": "NEVER", "upgrade_status": "NONE"},
             "cpu": {"count": 4, "cores_per_socket": 2, "hot_add_enabled": false, "hot_remove_enabled": false},
             "memory": {"size_MiB": 8192, "hot_add_enabled": false},
             "disks": {"2000": {"label": "Hard disk 1", "type": "SCSI", "capacity": 85899345920,
                                "backing": {"type": "VMDK_FILE", "vmdk_file": "[vsanDatastore] 6b1f5e65/web-01.vmdk"}}},
             "nics": {"4000": {"label": "Network adapter 1", "type": "VMXNET3", "state": "CONNECTED", "mac_type": "ASSIGNED",
                               "mac_address": "00:50:56:a2:3f:11", "start_connected": true,
                               "backing": {"type": "DISTRIBUTED_PORTGROUP", "network": "dvportgroup-2041",
                                           "network_name": "pg-app-vlan120"}}}}""";
    private static final String HOSTS = """
            [{"host": "host-1010", "name": "esx01.fra.example.com", "connection_state": "CONNECTED",
              "power_state": "POWERED_ON"},
             {"host": "host-1013", "name": "esx02.fra.example.com", "connection_state": "NOT_RESPONDING"}]""";
    private static final String CLUSTERS = """
            [{"cluster": "domain-c1006", "name": "cl-prod", "ha_enabled": true, "drs_enabled": true}]""";
    private static final String DATACENTERS = """
            [{"datacenter": "datacenter-1001", "name": "dc-fra"}]""";
    private static final String DATASTORES = """
            [{"datastore": "datastore-1017", "name": "vsanDatastore", "type": "VSAN", "free_space": 3298534883328,
              "capacity": 7696581394432},
             {"datastore": "datastore-1019", "name": "nfs-iso", "type": "NFS41", "free_space": 107374182400,
              "capacity": 536870912000}]""";
    private static final String NETWORKS = """
            [{"network": "dvportgroup-2041", "name": "pg-app-vlan120", "type": "DISTRIBUTED_PORTGROUP"},
             {"network": "network-1014", "name": "VM Network", "type": "STANDARD_PORTGROUP"}]""";
    private static final String FOLDERS = """
            [{"folder": "group-v1004", "name": "vm", "type": "VIRTUAL_MACHINE"},
             {"folder": "group-v2050", "name": "shop", "type": "VIRTUAL_MACHINE"}]""";
    private static final String RESOURCE_POOLS = """
            [{"resource_pool": "resgroup-1007", "name": "Resources"},
             {"resource_pool": "resgroup-2060", "name": "rp-shop"}]""";
    private static final String VERSION = """
            {"version": "9.0.0.0", "product": "VMware vCenter Server", "build": "24755230",
             "type": "vCenter Server with an embedded Platform Services Controller",
             "summary": "Update for vCenter Server 9.0.0.0", "releasedate": "June 17, 2025",
             "install_time": "2026-10-02T09:14:51.112Z"}""";
    private static final String TAG = """
            {"id": "%s", "category_id": "%s", "name": "env-prod", "description": "Production workloads",
             "used_by": []}""".formatted(TAG_ID, CATEGORY_ID);
    private static final String UNAUTHENTICATED = """
            {"error_type": "UNAUTHENTICATED", "messages": [{"id": "com.vmware.vapi.endpoint.method.authentication.required",
             "default_message": "Authentication required.", "args": []}]}""";

    private static void vcenterAnswer(ReplayVendor.Exchange x) throws Exception {
        if (x.route().equals("POST /api/session")) {
            if (!x.basic(VC_USER, PASSWORD)) {
                x.reply(401, UNAUTHENTICATED);
                return;
            }
            String session = "vmw-session-" + UUID.randomUUID();
            sessions.add(session);
            logins.incrementAndGet();
            x.reply(201, JSON.writeValueAsString(session));
            return;
        }
        if (!sessions.contains(x.header("vmware-api-session-id"))) {
            x.reply(401, UNAUTHENTICATED);
            return;
        }
        switch (x.route()) {
            case "GET /api/vcenter/vm" -> x.reply(200, vc("GET", "/vcenter/vm", matching(VMS, x.query(), Map.of(
                    "names", "name", "power_states", "power_state"))));
            case "GET /api/vcenter/vm/vm-1021" -> x.reply(200, vc("GET", "/vcenter/vm/{vm}", VM));
            case "GET /api/vcenter/vm/vm-1021/power" -> x.reply(200, vc("GET", "/vcenter/vm/{vm}/power",
                    "{\"state\": \"POWERED_ON\"}"));
            case "GET /api/vcenter/vm/vm-1022/guest/identity" -> x.reply(503, vcenterError("SERVICE_UNAVAILABLE",
                    "com.vmware.api.vcenter.vm.guest.not_running", "VMware Tools is not running in the guest."));
            case "GET /api/vcenter/host" -> x.reply(200, vc("GET", "/vcenter/host", HOSTS));
            case "GET /api/vcenter/cluster" -> x.reply(200, vc("GET", "/vcenter/cluster", CLUSTERS));
            case "GET /api/vcenter/datacenter" -> x.reply(200, vc("GET", "/vcenter/datacenter", DATACENTERS));
            case "GET /api/vcenter/datastore" -> x.reply(200, vc("GET", "/vcenter/datastore", matching(DATASTORES,
                    x.query(), Map.of("types", "type"))));
            case "GET /api/vcenter/network" -> x.reply(200, vc("GET", "/vcenter/network", NETWORKS));
            case "GET /api/vcenter/folder" -> x.reply(200, vc("GET", "/vcenter/folder", matching(FOLDERS, x.query(),
                    Map.of("type", "type"))));
            case "GET /api/vcenter/resource-pool" -> x.reply(200, vc("GET", "/vcenter/resource-pool", RESOURCE_POOLS));
            case "GET /api/appliance/health/system" -> x.reply(200, vc("GET", "/appliance/health/system", "\"green\""));
            case "GET /api/appliance/system/version" -> x.reply(200, vc("GET", "/appliance/system/version", VERSION));
            case "GET /api/cis/tagging/tag" -> x.reply(200, vc("GET", "/cis/tagging/tag",
                    JSON.writeValueAsString(List.of(TAG_ID))));
            case "GET /api/cis/tagging/tag/" + TAG_ID -> x.reply(200, vc("GET", "/cis/tagging/tag/{tag_id}", TAG));
            case "POST /api/cis/tagging/tag-association/" + TAG_ID -> {
                vcenter.request("POST", "/cis/tagging/tag-association/{tag_id}", x.body());
                assertThat(x.query()).as("the action goes in the query").isEqualTo("action=attach");
                x.recordWrite("vcenter attach");
                x.reply(204, "");
            }
            default -> x.reply(404, vcenterError("NOT_FOUND", "com.vmware.api.vcenter.not_found",
                    "The object or item referred to could not be found: " + x.path()));
        }
    }

    private static String vc(String method, String template, String body) {
        return vcenter.response(method, template, body);
    }

    private static String vcenterError(String type, String id, String message) throws Exception {
        return JSON.writeValueAsString(Map.of("error_type", type, "messages", List.of(Map.of("id", id,
                "default_message", message, "args", List.of()))));
    }

    /**
     * The items of a JSON array whose {@code field} is one of the values the query gives for its filter
     * parameter (vSphere list filters repeat the key: {@code names=a&names=b}); unfiltered without them.
     */
    private static String matching(String array, String query, Map<String, String> filters) throws Exception {
        Map<String, List<String>> wanted = new HashMap<>();
        for (String pair : query.isEmpty() ? new String[0] : query.split("&")) {
            String[] kv = pair.split("=", 2);
            String param = URLDecoder.decode(kv[0], StandardCharsets.UTF_8);
            if (filters.containsKey(param)) {
                wanted.computeIfAbsent(filters.get(param), k -> new ArrayList<>())
                        .add(URLDecoder.decode(kv.length > 1 ? kv[1] : "", StandardCharsets.UTF_8));
            }
        }
        ArrayNode out = JSON.createArrayNode();
        for (JsonNode item : JSON.readTree(array)) {
            if (wanted.entrySet().stream().allMatch(w -> w.getValue().contains(item.path(w.getKey()).asText()))) {
                out.add(item);
            }
        }
        return out.toString();
    }

    // ---- vCenter: the tests ----

    /** A call as the operator that may fail; no vCenter session id may come back. */
    private static JsonNode call(String connector, String opId, String target, Map<String, Object> params)
            throws Exception {
        JsonNode r = replay.call(replay.operator(), connector, opId, target, params);
        sessions.forEach(s -> assertThat(r.toString()).as("a vCenter session id in the answer").doesNotContain(s));
        return r;
    }

    /** A vCenter read against vc1 that must succeed. */
    private static String vcRead(String opId, Map<String, Object> params) throws Exception {
        String r = vc.read("vc1", opId, params).toString();
        sessions.forEach(s -> assertThat(r).as("a vCenter session id in the answer").doesNotContain(s));
        return r;
    }

    @Test
    void theVcenterContractCatchesADriftingFixture() {
        assertThatThrownBy(() -> vc("GET", "/vcenter/vm", "[{\"vm\": \"vm-1\", \"name\": \"a\", \"power_state\": \"ON\"}]"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("power_state");
        assertThatThrownBy(() -> vcenter.request("POST", "/cis/tagging/tag-association/{tag_id}",
                "{\"object_id\": {\"id\": \"vm-1021\"}}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("type");
    }

    @Test
    void vcenterReadsEveryCuratedGroupOverPinnedTlsWithOneSession() throws Exception {
        var groups = replay.kernel().get("/api/v1/connectors/" + VCENTER + "/groups", replay.operator());
        assertThat(groups.body()).as(groups.body()).contains("Virtual machines").contains("Appliance health and version")
                .contains("Resource pools").contains("Tagging");
        int before = logins.get();

        assertThat(vcRead("vcenter.vm.list_vms", Map.of())).contains("web-01").contains("db-01");
        String off = vcRead("vcenter.vm.list_vms", Map.of("power_states", List.of("POWERED_OFF")));
        assertThat(off).as("the filter reached vCenter as power_states=POWERED_OFF").contains("db-01")
                .doesNotContain("web-01");
        assertThat(vcRead("vcenter.vm.get_vm", Map.of("vm", "vm-1021"))).contains("RHEL_9_64")
                .contains("pg-app-vlan120");
        assertThat(vcRead("vcenter.vm.get_vm_power", Map.of("vm", "vm-1021"))).contains("POWERED_ON");
        assertThat(vcRead("vcenter.host.list_hosts", Map.of())).contains("esx01.fra.example.com")
                .contains("NOT_RESPONDING");
        assertThat(vcRead("vcenter.cluster.list_clusters", Map.of())).contains("cl-prod");
        assertThat(vcRead("vcenter.datacenter.list_datacenters", Map.of())).contains("dc-fra");
        String vsan = vcRead("vcenter.datastore.list_datastores", Map.of("types", List.of("VSAN")));
        assertThat(vsan).contains("vsanDatastore").doesNotContain("nfs-iso");
        assertThat(vcRead("vcenter.network.list_networks", Map.of())).contains("pg-app-vlan120");
        assertThat(vcRead("vcenter.folder.list_folders", Map.of("type", "VIRTUAL_MACHINE"))).contains("shop");
        assertThat(vcRead("vcenter.resource_pool.list_resource_pools", Map.of())).contains("rp-shop");
        assertThat(vcRead("vcenter.appliance.get_appliance_health_system", Map.of())).contains("green");
        assertThat(vcRead("vcenter.appliance.get_appliance_version", Map.of())).contains("24755230");
        assertThat(vcRead("vcenter.tagging.list_tags", Map.of())).contains(TAG_ID);
        assertThat(vcRead("vcenter.tagging.get_tag", Map.of("tag_id", TAG_ID))).contains("env-prod");

        assertThat(logins.get() - before).as("one session, reused for every read").isLessThanOrEqualTo(1);
        vc.probe("vc1", "vcenter", "9.0.0.0", "GET /api/appliance/system/version");
    }

    @Test
    void vcenterRefusesAnUnpinnedCertificateAndAWrongPasswordAndMapsVendorErrors() throws Exception {
        replay.target("vc-unpinned", "vcenter", vcenterVendor, Map.of("username", VC_USER, "password", PASSWORD),
                Map.of());
        int served = vcenterVendor.served();
        JsonNode unpinned = call(VCENTER, "vcenter.vm.list_vms", "vc-unpinned", Map.of());
        assertThat(errorCode(unpinned)).as(unpinned.toString()).isEqualTo("connector_tls_verify_failed");
        assertThat(vcenterVendor.served()).as("no request got past the handshake").isEqualTo(served);

        replay.target("vc-bad", "vcenter", vcenterVendor, Map.of("username", VC_USER, "password", "not-the-pw-4711"),
                Map.of("tls_ca_pin", vcenterVendor.pem()));
        JsonNode rejected = call(VCENTER, "vcenter.vm.list_vms", "vc-bad", Map.of());
        assertThat(errorCode(rejected)).as(rejected.toString()).isEqualTo("connector_auth_failed");

        vc.vendorError("vc1", "vcenter.vm.get_vm", Map.of("vm", "vm-9999"), 404);
        assertThat(vc.vendorError("vc1", "vcenter.vm.get_vm_guest_identity", Map.of("vm", "vm-1022"), 503).toString())
                .contains("SERVICE_UNAVAILABLE");
    }

    @Test
    void vcenterAttachesATagOnlyAfterASecondAdminApproves() throws Exception {
        String op = "vcenter.tagging.associate_tag";
        Map<String, Object> vm = Map.of("object_id", Map.of("type", "VirtualMachine", "id", "vm-1021"));
        int before = vcenterVendor.writes().size();
        vc.approvedWrite("vc1", op, Map.of("tag_id", TAG_ID, "action", "attach", "body", vm));
        assertThat(vcenterVendor.writes().get(before)).startsWith("vcenter attach")
                .contains("\"type\":\"VirtualMachine\"").contains("\"id\":\"vm-1021\"");

        JsonNode badBody = call(VCENTER, op, "vc1", Map.of("tag_id", TAG_ID, "action", "attach",
                "body", Map.of("object_id", "vm-1021")));
        assertThat(errorCode(badBody)).as(badBody.toString()).isEqualTo("invalid_params");
        JsonNode badAction = call(VCENTER, op, "vc1", Map.of("tag_id", TAG_ID, "action", "explode", "body", vm));
        assertThat(errorCode(badAction)).as(badAction.toString()).isEqualTo("invalid_params");
        String audit = replay.auditOf("vc1");
        assertThat(audit).contains("associate_tag").contains("CHG-9");
        sessions.forEach(s -> assertThat(audit).doesNotContain(s));
    }

    @Test
    void vcenterFamilyVerbsListTheNounsAndCallThroughTheCli() {
        vc.familyVerbs("vcenter", List.of("vm", "host", "cluster", "datastore", "resource_pool", "appliance", "tagging"),
                List.of("vm", "list_vms", "--names", "web-01", "--target", "vc1"), "vm-1021");
    }

    // ---- NSX: the replayed answers (as an NSX Manager 4.2 answers them) ----

    private static final String SEGMENTS = """
            {"results": [{"id": "seg-app", "display_name": "seg-app", "resource_type": "Segment",
              "path": "/infra/segments/seg-app", "relative_path": "seg-app", "parent_path": "/infra",
              "type": "ROUTED", "connectivity_path": "/infra/tier-1s/t1-shop",
              "transport_zone_path": "/infra/sites/default/enforcement-points/default/transport-zones/1b3a2f1e-8c4d-4e6f-9a0b-2c3d4e5f6a7b",
              "subnets": [{"gateway_address": "10.20.1.1/24", "network": "10.20.1.0/24"}], "admin_state": "UP",
              "replication_mode": "MTEP", "advanced_config": {"connectivity": "ON", "hybrid": false, "local_egress": false},
              "marked_for_delete": false, "_revision": 3, "_create_time": 1763366400000, "_create_user": "admin",
              "_last_modified_time": 1763539200000, "_last_modified_user": "admin", "_system_owned": false,
              "_protection": "NOT_PROTECTED"}],
             "result_count": 1, "sort_by": "display_name", "sort_ascending": true}""";
    private static final String TIER0S = """
            {"results": [{"id": "t0-edge", "display_name": "t0-edge", "resource_type": "Tier0", "path": "/infra/tier-0s/t0-edge",
              "ha_mode": "ACTIVE_STANDBY", "failover_mode": "NON_PREEMPTIVE", "transit_subnets": ["100.64.0.0/16"],
              "internal_transit_subnets": ["169.254.0.0/24"], "_revision": 7}], "result_count": 1}""";
    private static final String TIER1S = """
            {"results": [{"id": "t1-shop", "display_name": "t1-shop", "resource_type": "Tier1", "path": "/infra/tier-1s/t1-shop",
              "tier0_path": "/infra/tier-0s/t0-edge", "failover_mode": "NON_PREEMPTIVE", "pool_allocation": "ROUTING",
              "route_advertisement_types": ["TIER1_CONNECTED", "TIER1_NAT", "TIER1_LB_VIP"], "_revision": 2}],
             "result_count": 1}""";
    private static final String POLICIES = """
            {"results": [{"id": "shop-app", "display_name": "shop-app", "resource_type": "SecurityPolicy",
              "path": "/infra/domains/default/security-policies/shop-app", "category": "Application",
              "sequence_number": 10, "stateful": true, "tcp_strict": true, "scope": ["ANY"], "rule_count": 2,
              "_revision": 4}], "result_count": 1}""";
    private static final String RULES = """
            {"results": [{"id": "allow-web-https", "display_name": "allow-web-https", "resource_type": "Rule",
              "path": "/infra/domains/default/security-policies/shop-app/rules/allow-web-https", "rule_id": 3041,
              "sequence_number": 10, "source_groups": ["ANY"], "destination_groups": ["/infra/domains/default/groups/shop-web"],
              "services": ["/infra/services/HTTPS"], "profiles": ["ANY"], "scope": ["ANY"], "action": "ALLOW",
              "direction": "IN_OUT", "ip_protocol": "IPV4_IPV6", "logged": false, "disabled": false},
             {"id": "drop-rest", "display_name": "drop-rest", "resource_type": "Rule",
              "path": "/infra/domains/default/security-policies/shop-app/rules/drop-rest", "rule_id": 3042,
              "sequence_number": 20, "source_groups": ["ANY"], "destination_groups": ["/infra/domains/default/groups/shop-web"],
              "services": ["ANY"], "profiles": ["ANY"], "scope": ["ANY"], "action": "DROP", "direction": "IN_OUT",
              "ip_protocol": "IPV4_IPV6", "logged": true, "disabled": false}], "result_count": 2}""";
    private static final String GROUPS = """
            {"results": [{"id": "shop-web", "display_name": "shop-web", "resource_type": "Group",
              "path": "/infra/domains/default/groups/shop-web", "expression": [{"resource_type": "Condition", "id": "c1",
              "member_type": "VirtualMachine", "key": "Tag", "operator": "EQUALS", "scope_operator": "EQUALS",
              "value": "app|shop-web"}], "_revision": 1}], "result_count": 1}""";
    private static final String SERVICES = """
            {"results": [{"id": "HTTPS", "display_name": "HTTPS", "resource_type": "Service", "path": "/infra/services/HTTPS",
              "is_default": true, "service_type": "NON_ETHER", "_system_owned": true,
              "service_entries": [{"resource_type": "L4PortSetServiceEntry", "id": "HTTPS", "display_name": "HTTPS",
                "path": "/infra/services/HTTPS/service-entries/HTTPS", "l4_protocol": "TCP", "destination_ports": ["443"],
                "source_ports": []}]}], "result_count": 1}""";
    private static final String NAT_RULES = """
            {"results": [{"id": "snat-shop", "display_name": "snat-shop", "resource_type": "PolicyNatRule",
              "path": "/infra/tier-1s/t1-shop/nat/USER/nat-rules/snat-shop", "action": "SNAT",
              "source_network": "10.20.1.0/24", "translated_network": "203.0.113.20", "enabled": true, "logging": false,
              "sequence_number": 100, "firewall_match": "MATCH_INTERNAL_ADDRESS", "scope": []}], "result_count": 1}""";
    private static final String VIRTUAL_SERVERS = """
            {"results": [{"id": "vs-shop-web", "display_name": "vs-shop-web", "resource_type": "LBVirtualServer",
              "path": "/infra/lb-virtual-servers/vs-shop-web", "ip_address": "203.0.113.30", "ports": ["443"],
              "application_profile_path": "/infra/lb-app-profiles/default-tcp-lb-app-profile",
              "pool_path": "/infra/lb-pools/pool-shop-web", "lb_service_path": "/infra/lb-services/lb-shop",
              "enabled": true}], "result_count": 1}""";
    private static final String CLUSTER_STATUS = """
            {"cluster_id": "b7d2c8f0-4e1a-4c3b-9d5e-6f7a8b9c0d1e",
             "mgmt_cluster_status": {"status": "STABLE", "offline_nodes": [], "online_nodes": [
               {"uuid": "42a1b2c3-d4e5-f6a7-b8c9-d0e1f2a3b4c5", "mgmt_cluster_listen_ip_address": "10.0.0.11"}]},
             "control_cluster_status": {"status": "STABLE"},
             "detailed_cluster_status": {"cluster_id": "b7d2c8f0-4e1a-4c3b-9d5e-6f7a8b9c0d1e", "overall_status": "STABLE",
               "groups": [{"group_id": "f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9", "group_type": "MANAGER",
                 "group_status": "STABLE", "members": [{"member_fqdn": "nsx-mgr-01.fra.example.com",
                   "member_ip": "10.0.0.11", "member_uuid": "42a1b2c3-d4e5-f6a7-b8c9-d0e1f2a3b4c5",
                   "member_status": "UP"}]}]}}""";
    private static final String NODE_VERSION = """
            {"node_version": "4.2.1.0.0.24304122", "product_version": "4.2.1.0.0.24304122"}""";
    private static final String POLICY = "/policy/api/v1/infra";

    private static void nsxAnswer(ReplayVendor.Exchange x) throws Exception {
        if (!x.basic("admin", PASSWORD)) {
            x.reply(403, nsxError("FORBIDDEN", 98,
                    "The credentials were incorrect or the account specified has been locked."));
            return;
        }
        switch (x.route()) {
            case "GET " + POLICY + "/segments" -> x.reply(200, ns("GET", "/segments", SEGMENTS));
            case "GET " + POLICY + "/tier-0s" -> x.reply(200, ns("GET", "/tier-0s", TIER0S));
            case "GET " + POLICY + "/tier-1s" -> x.reply(200, ns("GET", "/tier-1s", TIER1S));
            case "GET " + POLICY + "/domains/default/security-policies" -> x.reply(200,
                    ns("GET", "/domains/{domain-id}/security-policies", POLICIES));
            case "GET " + POLICY + "/domains/default/security-policies/shop-app/rules" -> x.reply(200,
                    ns("GET", "/domains/{domain-id}/security-policies/{security-policy-id}/rules", RULES));
            case "GET " + POLICY + "/domains/default/groups" -> x.reply(200, ns("GET", "/domains/{domain-id}/groups",
                    GROUPS));
            case "GET " + POLICY + "/services" -> x.reply(200, ns("GET", "/services", SERVICES));
            case "GET " + POLICY + "/tier-1s/t1-shop/nat/USER/nat-rules" -> x.reply(200,
                    ns("GET", "/tier-1s/{tier-1-id}/nat/{nat-id}/nat-rules", NAT_RULES));
            case "GET " + POLICY + "/lb-virtual-servers" -> x.reply(200, ns("GET", "/lb-virtual-servers",
                    VIRTUAL_SERVERS));
            case "GET /api/v1/cluster/status" -> x.reply(200, nsx.response("GET", "/api/v1/cluster/status",
                    CLUSTER_STATUS));
            case "GET /api/v1/node/version" -> x.reply(200, nsx.response("GET", "/api/v1/node/version", NODE_VERSION));
            case "PATCH " + POLICY + "/segments/seg-db" -> {
                nsx.request("PATCH", "/policy/api/v1/infra/segments/{segment-id}", x.body());
                x.recordWrite("nsx segment");
                x.reply(200, "");
            }
            case "GET " + POLICY + "/lb-pools" -> x.reply(500, nsxError("INTERNAL_SERVER_ERROR", 100,
                    "General error has occurred."));
            default -> x.reply(404, nsxError("NOT_FOUND", 500090, "The requested URI: " + x.path()
                    + " could not be found."));
        }
    }

    private static String ns(String method, String infraTemplate, String body) {
        return nsx.response(method, "/policy/api/v1/infra" + infraTemplate, body);
    }

    private static String nsxError(String httpStatus, int code, String message) throws Exception {
        return JSON.writeValueAsString(Map.of("httpStatus", httpStatus, "error_code", code,
                "module_name", "common-services", "error_message", message));
    }

    // ---- NSX: the tests ----

    @Test
    void theNsxContractCatchesADriftingFixture() {
        assertThatThrownBy(() -> ns("GET", "/segments", "{\"results\": [{\"id\": \"s\", \"admin_state\": \"SIDEWAYS\"}]}"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("admin_state");
        assertThatThrownBy(() -> ns("GET", "/tier-1s", "{\"result_count\": 0}")).isInstanceOf(AssertionError.class)
                .hasMessageContaining("results");
    }

    @Test
    void nsxReadsEveryCuratedGroupOverPinnedTls() throws Exception {
        var groups = replay.kernel().get("/api/v1/connectors/" + NSX + "/groups", replay.operator());
        assertThat(groups.body()).as(groups.body()).contains("Segments").contains("Distributed firewall")
                .contains("Tier-0 gateways").contains("Load balancer").contains("Manager cluster and node status");

        assertThat(ns.read("nsx1", "nsx.segment.list_segments", Map.of()).toString()).contains("seg-app").contains("10.20.1.1/24");
        assertThat(ns.read("nsx1", "nsx.tier0.list_tier0s", Map.of()).toString()).contains("ACTIVE_STANDBY");
        assertThat(ns.read("nsx1", "nsx.tier1.list_tier1s", Map.of()).toString()).contains("/infra/tier-0s/t0-edge");
        assertThat(ns.read("nsx1", "nsx.firewall.list_security_policies", Map.of("domain-id", "default")).toString())
                .contains("shop-app");
        JsonNode rules = ns.read("nsx1", "nsx.firewall.list_firewall_rules", Map.of("domain-id", "default",
                "security-policy-id", "shop-app"));
        assertThat(rules.toString()).contains("allow-web-https").contains("DROP");
        assertThat(ns.read("nsx1", "nsx.group.list_groups", Map.of("domain-id", "default")).toString()).contains("app|shop-web");
        assertThat(ns.read("nsx1", "nsx.service.list_services", Map.of()).toString()).contains("L4PortSetServiceEntry");
        assertThat(ns.read("nsx1", "nsx.nat.list_tier1_nat_rules", Map.of("tier-1-id", "t1-shop", "nat-id", "USER")).toString())
                .contains("203.0.113.20");
        assertThat(ns.read("nsx1", "nsx.lb.list_lb_virtual_servers", Map.of()).toString()).contains("203.0.113.30");
        assertThat(ns.read("nsx1", "nsx.system.get_cluster_status", Map.of()).toString()).contains("STABLE")
                .contains("nsx-mgr-01.fra.example.com");
        assertThat(ns.read("nsx1", "nsx.system.get_node_version", Map.of()).toString()).contains("4.2.1.0.0.24304122");
        ns.probe("nsx1", "nsx", "4.2.1.0.0.24304122", "GET /api/v1/node/version");
    }

    @Test
    void nsxTurnsItsWrongPassword403IntoAnAuthFailureAndMapsVendorErrors() throws Exception {
        replay.target("nsx-bad", "nsx", nsxVendor, Map.of("username", "admin", "password", "not-the-pw-4711"),
                Map.of("tls_ca_pin", nsxVendor.pem()));
        JsonNode rejected = call(NSX, "nsx.segment.list_segments", "nsx-bad", Map.of());
        assertThat(errorCode(rejected)).as(rejected.toString()).isEqualTo("connector_auth_failed");
        assertThat(rejected.path("extras").path("vendor_status").asInt()).isEqualTo(403);

        ns.vendorError("nsx1", "nsx.firewall.list_firewall_rules", Map.of("domain-id", "default",
                "security-policy-id", "no-such-policy"), 404);
        ns.vendorError("nsx1", "nsx.lb.list_lb_pools", Map.of(), 500);
    }

    @Test
    void nsxCreatesASegmentOnlyAfterASecondAdminApproves() throws Exception {
        String op = "nsx.segment.patch_segment";
        Map<String, Object> segment = Map.of("display_name", "seg-db", "connectivity_path", "/infra/tier-1s/t1-shop",
                "subnets", List.of(Map.of("gateway_address", "10.20.2.1/24")), "admin_state", "UP");
        int before = nsxVendor.writes().size();
        ns.approvedWrite("nsx1", op, Map.of("segment-id", "seg-db", "body", segment));
        assertThat(nsxVendor.writes().get(before)).startsWith("nsx segment")
                .contains("\"gateway_address\":\"10.20.2.1/24\"").contains("\"connectivity_path\":\"/infra/tier-1s/t1-shop\"");

        JsonNode badBody = call(NSX, op, "nsx1", Map.of("segment-id", "seg-db", "body", Map.of("admin_state", "SIDEWAYS")));
        assertThat(errorCode(badBody)).as(badBody.toString()).isEqualTo("invalid_params");
        assertThat(replay.auditOf("nsx1")).contains("patch_segment").contains("CHG-9");
    }

    @Test
    void nsxFamilyVerbsListTheNounsAndCallThroughTheCli() {
        ns.familyVerbs("nsx", List.of("segment", "tier0", "tier1", "firewall", "nat", "system"), List.of("firewall",
                "list_firewall_rules", "--domain-id", "default", "--security-policy-id", "shop-app", "--target", "nsx1"),
                "drop-rest");
    }
}
