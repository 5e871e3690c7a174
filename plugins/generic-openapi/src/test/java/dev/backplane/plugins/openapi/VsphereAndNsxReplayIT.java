package dev.backplane.plugins.openapi;

import static dev.backplane.plugins.openapi.ReplayKernel.errorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
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
    private static final String VC_USER = "administrator@vsphere.local";
    private static final String PASSWORD = "vendor-pw-" + UUID.randomUUID();
    private static final Set<String> sessions = ConcurrentHashMap.newKeySet();
    private static final AtomicInteger logins = new AtomicInteger();
    private static SpecContract vcenter;
    private static ReplayVendor vcenterVendor;
    private static ReplayKernel replay;

    @BeforeAll
    static void start() throws Exception {
        vcenter = SpecContract.read(SPECS.resolve("vcenter/vcenter-9.0-operator-subset.openapi.yaml"));
        replay = ReplayKernel.start(List.of("vcenter"), Map.of());
        vcenterVendor = ReplayVendor.https(replay.work(), VsphereAndNsxReplayIT::vcenterAnswer);
        assertThat(replay.ingest("vcenter/9.x")).contains("ingested " + VCENTER);
        replay.enableReads(VCENTER);
        replay.target("vc1", "vcenter", vcenterVendor, Map.of("username", VC_USER, "password", PASSWORD),
                Map.of("tls_ca_pin", vcenterVendor.pem()));
    }

    @AfterAll
    static void stop() {
        if (replay != null) {
            replay.close();
        }
        if (vcenterVendor != null) {
            vcenterVendor.close();
        }
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
        Map<String, List<String>> wanted = new java.util.HashMap<>();
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

    private static JsonNode vcCall(String opId, String target, Map<String, Object> params) throws Exception {
        JsonNode r = replay.call(replay.operator(), VCENTER, opId, target, params);
        sessions.forEach(s -> assertThat(r.toString()).as("a vCenter session id in the answer").doesNotContain(s));
        return r;
    }

    private static JsonNode vcRead(String opId, Map<String, Object> params) throws Exception {
        JsonNode r = vcCall(opId, "vc1", params);
        assertThat(r.path("status").asText()).as(opId + ": " + r).isEqualTo("ok");
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

        assertThat(vcRead("vcenter.vm.list_vms", Map.of()).toString()).contains("web-01").contains("db-01");
        JsonNode off = vcRead("vcenter.vm.list_vms", Map.of("power_states", List.of("POWERED_OFF")));
        assertThat(off.toString()).as("the filter reached vCenter as power_states=POWERED_OFF").contains("db-01")
                .doesNotContain("web-01");
        assertThat(vcRead("vcenter.vm.get_vm", Map.of("vm", "vm-1021")).toString()).contains("RHEL_9_64")
                .contains("pg-app-vlan120");
        assertThat(vcRead("vcenter.vm.get_vm_power", Map.of("vm", "vm-1021")).toString()).contains("POWERED_ON");
        assertThat(vcRead("vcenter.host.list_hosts", Map.of()).toString()).contains("esx01.fra.example.com")
                .contains("NOT_RESPONDING");
        assertThat(vcRead("vcenter.cluster.list_clusters", Map.of()).toString()).contains("cl-prod");
        assertThat(vcRead("vcenter.datacenter.list_datacenters", Map.of()).toString()).contains("dc-fra");
        JsonNode vsan = vcRead("vcenter.datastore.list_datastores", Map.of("types", List.of("VSAN")));
        assertThat(vsan.toString()).contains("vsanDatastore").doesNotContain("nfs-iso");
        assertThat(vcRead("vcenter.network.list_networks", Map.of()).toString()).contains("pg-app-vlan120");
        assertThat(vcRead("vcenter.folder.list_folders", Map.of("type", "VIRTUAL_MACHINE")).toString()).contains("shop");
        assertThat(vcRead("vcenter.resource_pool.list_resource_pools", Map.of()).toString()).contains("rp-shop");
        assertThat(vcRead("vcenter.appliance.get_appliance_health_system", Map.of()).toString()).contains("green");
        assertThat(vcRead("vcenter.appliance.get_appliance_version", Map.of()).toString()).contains("24755230");
        assertThat(vcRead("vcenter.tagging.list_tags", Map.of()).toString()).contains(TAG_ID);
        assertThat(vcRead("vcenter.tagging.get_tag", Map.of("tag_id", TAG_ID)).toString()).contains("env-prod");

        assertThat(logins.get() - before).as("one session, reused for every read").isLessThanOrEqualTo(1);
    }

    @Test
    void vcenterRefusesAnUnpinnedCertificateAndAWrongPasswordAndMapsVendorErrors() throws Exception {
        replay.target("vc-unpinned", "vcenter", vcenterVendor, Map.of("username", VC_USER, "password", PASSWORD),
                Map.of());
        int served = vcenterVendor.served();
        JsonNode unpinned = vcCall("vcenter.vm.list_vms", "vc-unpinned", Map.of());
        assertThat(errorCode(unpinned)).as(unpinned.toString()).isEqualTo("connector_tls_verify_failed");
        assertThat(vcenterVendor.served()).as("no request got past the handshake").isEqualTo(served);

        replay.target("vc-bad", "vcenter", vcenterVendor, Map.of("username", VC_USER, "password", "not-the-pw-4711"),
                Map.of("tls_ca_pin", vcenterVendor.pem()));
        JsonNode rejected = vcCall("vcenter.vm.list_vms", "vc-bad", Map.of());
        assertThat(errorCode(rejected)).as(rejected.toString()).isEqualTo("connector_auth_failed");

        JsonNode missing = vcCall("vcenter.vm.get_vm", "vc1", Map.of("vm", "vm-9999"));
        assertThat(errorCode(missing)).as(missing.toString()).isEqualTo("connector_error");
        assertThat(missing.path("extras").path("vendor_status").asInt()).isEqualTo(404);
        JsonNode noTools = vcCall("vcenter.vm.get_vm_guest_identity", "vc1", Map.of("vm", "vm-1022"));
        assertThat(errorCode(noTools)).as(noTools.toString()).isEqualTo("connector_error");
        assertThat(noTools.path("extras").path("vendor_status").asInt()).isEqualTo(503);
        assertThat(noTools.toString()).contains("SERVICE_UNAVAILABLE");
    }

    @Test
    void vcenterAttachesATagOnlyAfterASecondAdminApproves() throws Exception {
        String op = "vcenter.tagging.associate_tag";
        Map<String, Object> attach = Map.of("tag_id", TAG_ID, "action", "attach",
                "body", Map.of("object_id", Map.of("type", "VirtualMachine", "id", "vm-1021")));
        JsonNode denied = vcCall(op, "vc1", attach);
        assertThat(denied.path("status").asText()).as("writes stay default-deny after enable-reads").isEqualTo("denied");
        replay.enableOperation(VCENTER, op);
        JsonNode badBody = vcCall(op, "vc1", Map.of("tag_id", TAG_ID, "action", "attach",
                "body", Map.of("object_id", "vm-1021")));
        assertThat(errorCode(badBody)).as(badBody.toString()).isEqualTo("invalid_params");
        JsonNode badAction = vcCall(op, "vc1", Map.of("tag_id", TAG_ID, "action", "explode", "body", attach.get("body")));
        assertThat(errorCode(badAction)).as(badAction.toString()).isEqualTo("invalid_params");

        int before = vcenterVendor.writes().size();
        JsonNode parked = vcCall(op, "vc1", attach);
        assertThat(vcenterVendor.writes()).as("nothing sent while parked").hasSize(before);
        JsonNode released = replay.approve(parked);
        assertThat(released.path("result").path("status").asText()).as(released.toString()).isEqualTo("ok");
        assertThat(vcenterVendor.writes()).hasSize(before + 1).last().asString()
                .contains("\"type\":\"VirtualMachine\"").contains("\"id\":\"vm-1021\"");
        String audit = replay.auditOf("vc1");
        assertThat(audit).contains("associate_tag").contains("CHG-9");
        sessions.forEach(s -> assertThat(audit).doesNotContain(s));
    }

    @Test
    void vcenterFamilyVerbsListTheNounsAndCallThroughTheCli() {
        Map<String, String> asOperator = Map.of("SVC_TOKEN", replay.operator());
        var help = replay.cli().run(asOperator, "", "vcenter", "--help");
        assertThat(help.exitCode()).as(help.toString()).isZero();
        assertThat(help.out()).as(help.toString()).contains("vm").contains("host").contains("cluster")
                .contains("datastore").contains("resource_pool").contains("appliance").contains("tagging");
        var list = replay.cli().run(asOperator, "", "vcenter", "vm", "list_vms", "--names", "web-01", "--target", "vc1");
        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.out()).as(list.toString()).contains("web-01").contains("vm-1021").doesNotContain("db-01");
    }
}
