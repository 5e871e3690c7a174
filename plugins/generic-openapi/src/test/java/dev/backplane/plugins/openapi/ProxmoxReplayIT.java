package dev.backplane.plugins.openapi;

import static dev.backplane.plugins.openapi.ReplayKernel.errorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The lab-appliance family (Proxmox VE) as an ingested spec: our own OpenAPI document shipped in
 * {@code plugin-repo/specs/proxmox} is ingested by catalog name ({@code proxmox/9.x}) with the shipped
 * index's auth scheme (an API token in {@code Authorization: PVEAPIToken=...}) and driven through a real
 * kernel against a loopback HTTPS server with a self-signed certificate (Proxmox's default), replaying
 * hand-built answers that are checked against the document's response schemas, and checking the form
 * bodies of the writes it receives against its request schemas.
 */
class ProxmoxReplayIT {

    private static final String TOKEN = "root@pam!backplane=" + UUID.randomUUID();
    /** A token the replay accepts, for which the cluster status answers 500 (a cluster that lost quorum). */
    private static final String NO_QUORUM_TOKEN = "root@pam!noquorum=" + UUID.randomUUID();
    private static final String UPID = "UPID:pve1:0003A1B2:0157E2C4:6922D4A0:qmshutdown:100:root@pam!backplane:";
    private static ShippedSpecReplay family;

    @BeforeAll
    static void start() throws Exception {
        // pve2's address is one this deploy may reach; pve3's (also RFC 1918) is not
        family = ShippedSpecReplay.start("proxmox/9.x", "proxmox/proxmox-ve-operator.yaml", ProxmoxReplayIT::answer,
                Map.of("SVC_TARGET_SSRF_ALLOWLIST", "127.0.0.0/8,192.168.10.12/32"));
        family.pinnedTarget("lab1", "proxmox", Map.of("api_token", TOKEN));
    }

    @AfterAll
    static void stop() {
        if (family != null) {
            family.close();
        }
    }

    // ---- the replay server: answers hand-built from the Proxmox VE API viewer ----

    private static final String VERSION = """
            {"data": {"version": "9.1.1", "release": "9.1", "repoid": "42db4a6cf33dac83", "console": "html5"}}""";
    private static final String CLUSTER_STATUS = """
            {"data": [{"type": "cluster", "id": "cluster", "name": "homelab", "nodes": 3, "quorate": 1, "version": 7},
              {"type": "node", "id": "node/pve1", "name": "pve1", "ip": "192.168.10.11", "online": 1, "local": 1,
               "nodeid": 1, "level": ""},
              {"type": "node", "id": "node/pve2", "name": "pve2", "ip": "192.168.10.12", "online": 1, "local": 0,
               "nodeid": 2, "level": ""},
              {"type": "node", "id": "node/pve3", "name": "pve3", "ip": "192.168.10.13", "online": 0, "local": 0,
               "nodeid": 3, "level": ""}]}""";
    private static final String RESOURCES = """
            {"data": [{"id": "qemu/100", "type": "qemu", "node": "pve1", "vmid": 100, "name": "web-01",
               "status": "running", "cpu": 0.0213, "maxcpu": 2, "mem": 1503238553, "maxmem": 4294967296, "disk": 0,
               "maxdisk": 34359738368, "uptime": 86423, "template": 0, "tags": "prod;web"},
              {"id": "lxc/200", "type": "lxc", "node": "pve2", "vmid": 200, "name": "dns-01", "status": "running",
               "cpu": 0.0021, "maxcpu": 1, "mem": 67108864, "maxmem": 536870912, "disk": 1073741824,
               "maxdisk": 8589934592, "uptime": 604800, "template": 0},
              {"id": "node/pve1", "type": "node", "node": "pve1", "status": "online", "cpu": 0.0312, "maxcpu": 16,
               "mem": 12884901888, "maxmem": 68719476736, "disk": 9663676416, "maxdisk": 100861726720,
               "uptime": 1209600, "level": ""},
              {"id": "storage/pve1/local-lvm", "type": "storage", "node": "pve1", "storage": "local-lvm",
               "status": "available", "plugintype": "lvmthin", "content": "rootdir,images", "shared": 0,
               "disk": 21474836480, "maxdisk": 858993459200}]}""";
    private static final String NODES = """
            {"data": [{"node": "pve1", "status": "online", "id": "node/pve1", "type": "node", "cpu": 0.0312,
               "maxcpu": 16, "mem": 12884901888, "maxmem": 68719476736, "disk": 9663676416, "maxdisk": 100861726720,
               "uptime": 1209600, "level": "",
               "ssl_fingerprint": "5C:1E:8A:73:0B:44:9D:21:6F:A2:33:C0:7E:91:5B:08:D4:6A:2F:E7:10:C3:88:4B:9F:26:71:DE:05:B2:3A:C9"},
              {"node": "pve2", "status": "online", "id": "node/pve2", "type": "node", "cpu": 0.0105, "maxcpu": 8,
               "mem": 4294967296, "maxmem": 34359738368, "disk": 7516192768, "maxdisk": 100861726720,
               "uptime": 1209311, "level": ""}]}""";
    private static final String NODE_STATUS = """
            {"data": {"uptime": 1209600, "cpu": 0.0312, "wait": 0.0004, "loadavg": ["0.42", "0.37", "0.31"],
              "kversion": "Linux 6.17.2-1-pve #1 SMP PREEMPT_DYNAMIC PMX 6.17.2-1 (2025-10-21T11:55Z)",
              "pveversion": "pve-manager/9.1.1/42db4a6cf33dac83",
              "cpuinfo": {"model": "AMD Ryzen 7 5700G with Radeon Graphics", "cpus": 16, "cores": 8, "sockets": 1,
                "mhz": "3800.000"},
              "memory": {"total": 68719476736, "used": 12884901888, "free": 55834574848},
              "swap": {"total": 8589930496, "used": 0, "free": 8589930496},
              "rootfs": {"total": 100861726720, "used": 9663676416, "free": 91198050304, "avail": 86049345536},
              "boot-info": {"mode": "efi", "secureboot": 0},
              "current-kernel": {"sysname": "Linux", "release": "6.17.2-1-pve", "machine": "x86_64",
                "version": "#1 SMP PREEMPT_DYNAMIC PMX 6.17.2-1 (2025-10-21T11:55Z)"}}}""";
    private static final String VMS = """
            {"data": [{"vmid": 100, "name": "web-01", "status": "running", "cpus": 2, "cpu": 0.0213, "mem": 1503238553,
               "maxmem": 4294967296, "disk": 0, "maxdisk": 34359738368, "uptime": 86423, "netin": 1843204,
               "netout": 922311, "diskread": 301989888, "diskwrite": 104857600, "pid": 2245, "tags": "prod;web"},
              {"vmid": 101, "name": "db-01", "status": "stopped", "cpus": 4, "cpu": 0, "mem": 0, "maxmem": 8589934592,
               "disk": 0, "maxdisk": 68719476736, "uptime": 0}]}""";
    private static final String VM_STATUS = """
            {"data": {"vmid": 100, "name": "web-01", "status": "running", "qmpstatus": "running", "cpus": 2,
              "cpu": 0.0213, "mem": 1503238553, "maxmem": 4294967296, "maxdisk": 34359738368, "uptime": 86423,
              "pid": 2245, "agent": 1, "ha": {"managed": 0}, "running-machine": "pc-q35-9.2+pve1",
              "running-qemu": "9.2.0"}}""";
    private static final String VM_CONFIG = """
            {"data": {"digest": "b5d8e5a4c1f0f4c7f9d1b8e2a7c3d6e9f0a1b2c3", "name": "web-01", "cores": 2, "sockets": 1,
              "memory": "4096", "ostype": "l26", "boot": "order=scsi0;net0", "agent": "1", "onboot": 1,
              "scsihw": "virtio-scsi-single", "scsi0": "local-lvm:vm-100-disk-0,iothread=1,size=32G",
              "net0": "virtio=BC:24:11:5E:2A:10,bridge=vmbr0,firewall=1", "tags": "prod;web"}}""";
    private static final String CTS = """
            {"data": [{"vmid": 200, "name": "dns-01", "type": "lxc", "status": "running", "cpus": 1, "cpu": 0.0021,
               "mem": 67108864, "maxmem": 536870912, "swap": 0, "maxswap": 536870912, "disk": 1073741824,
               "maxdisk": 8589934592, "uptime": 604800}]}""";
    private static final String CT_STATUS = """
            {"data": {"vmid": 200, "name": "dns-01", "type": "lxc", "status": "running", "cpus": 1, "cpu": 0.0021,
              "mem": 67108864, "maxmem": 536870912, "uptime": 604800, "pid": 3141, "ha": {"managed": 0}}}""";
    private static final String CT_CONFIG = """
            {"data": {"digest": "0f3c9a1e77d2b4c8a5e6f1d0c9b8a7e6d5c4b3a2", "hostname": "dns-01", "arch": "amd64",
              "cores": 1, "memory": 512, "swap": 512, "ostype": "debian", "onboot": 1, "unprivileged": 1,
              "rootfs": "local-lvm:vm-200-disk-0,size=8G",
              "net0": "name=eth0,bridge=vmbr0,hwaddr=BC:24:11:8A:31:02,ip=dhcp,type=veth"}}""";
    private static final String SNAPSHOTS = """
            {"data": [{"name": "pre-upgrade", "description": "before apt full-upgrade", "snaptime": 1763900000,
               "vmstate": 0},
              {"name": "current", "description": "You are here!", "parent": "pre-upgrade", "running": 1}]}""";
    private static final String STORAGE_DEFINITIONS = """
            {"data": [{"storage": "local", "type": "dir", "path": "/var/lib/vz", "content": "iso,vztmpl,backup",
               "digest": "7a1c5e0b9d3f2a4c6e8b0d1f3a5c7e9b1d3f5a7c"},
              {"storage": "local-lvm", "type": "lvmthin", "content": "rootdir,images",
               "digest": "7a1c5e0b9d3f2a4c6e8b0d1f3a5c7e9b1d3f5a7c"}]}""";
    private static final String NODE_STORAGE = """
            {"data": [{"storage": "local", "type": "dir", "content": "iso,vztmpl,backup", "active": 1, "enabled": 1,
               "shared": 0, "total": 100861726720, "used": 9663676416, "avail": 86049345536, "used_fraction": 0.0958},
              {"storage": "local-lvm", "type": "lvmthin", "content": "rootdir,images", "active": 1, "enabled": 1,
               "shared": 0, "total": 858993459200, "used": 21474836480, "avail": 837518622720,
               "used_fraction": 0.025}]}""";
    private static final String CONTENT = """
            {"data": [{"volid": "local:iso/debian-13.1.0-amd64-netinst.iso", "format": "iso", "size": 790626304,
               "content": "iso", "ctime": 1760000000},
              {"volid": "local:backup/vzdump-qemu-100-2026_11_23-02_00_03.vma.zst", "format": "vma.zst",
               "size": 2147483648, "content": "backup", "vmid": 100, "ctime": 1763863203, "notes": "web-01 nightly"}]}""";
    private static final String TASKS = """
            {"total": 2, "data": [{"upid": "%1$s", "node": "pve1", "pid": 237490, "pstart": 22537924,
               "starttime": 1763890336, "endtime": 1763890342, "type": "qmshutdown", "id": "100",
               "user": "root@pam!backplane", "status": "OK"},
              {"upid": "UPID:pve1:00039F11:0156A001:6922A3B3:vzdump::root@pam:", "node": "pve1", "pid": 237329,
               "pstart": 22454273, "starttime": 1763877811, "endtime": 1763878200, "type": "vzdump", "id": "",
               "user": "root@pam", "status": "OK"}]}""".formatted(UPID);
    private static final String TASK_STATUS = """
            {"data": {"upid": "%1$s", "node": "pve1", "pid": 237490, "pstart": 22537924, "starttime": 1763890336,
              "type": "qmshutdown", "id": "100", "user": "root@pam!backplane", "status": "stopped",
              "exitstatus": "OK"}}""".formatted(UPID);
    private static final String TASK_LOG = """
            {"total": 2, "data": [{"n": 1, "t": "shutdown VM 100: %1$s"}, {"n": 2, "t": "TASK OK"}]}"""
            .formatted(UPID);
    private static final String SYSLOG = """
            {"total": 2, "data": [{"n": 1, "t": "Nov 23 09:12:01 pve1 pveproxy[1234]: starting 3 worker(s)"},
              {"n": 2, "t": "Nov 23 09:12:02 pve1 pvedaemon[1301]: <root@pam> successful auth for user 'root@pam'"}]}""";
    private static final String TASK_STARTED = "{\"data\": \"" + UPID + "\"}";

    private static void answer(ReplayVendor.Exchange x) throws Exception {
        SpecContract contract = family.contract();
        if (x.header("Authorization").equals("PVEAPIToken=" + NO_QUORUM_TOKEN)) {
            x.reply(500, "{\"data\": null, \"message\": \"cluster not ready - no quorum?\\n\"}");
            return;
        }
        if (!x.header("Authorization").equals("PVEAPIToken=" + TOKEN)) {
            x.reply(401, "{\"data\": null}");
            return;
        }
        String route = x.route().replaceFirst(" /api2/json", " ");
        if (route.startsWith("GET /nodes/pve1/tasks/UPID:")) {
            String upid = x.path().substring("/api2/json/nodes/pve1/tasks/".length(), x.path().lastIndexOf('/'));
            assertThat(upid).as("the UPID arrives whole").isEqualTo(UPID);
            route = route.endsWith("/log") ? "GET task log" : "GET task status";
        }
        switch (route) {
            case "GET /version" -> x.reply(200, contract.response("GET", "/version", VERSION));
            case "GET /cluster/status" -> x.reply(200, contract.response("GET", "/cluster/status", CLUSTER_STATUS));
            case "GET /cluster/resources" -> {
                assertThat(x.query()).isEqualTo("type=vm");
                x.reply(200, contract.response("GET", "/cluster/resources", RESOURCES));
            }
            case "GET /nodes" -> x.reply(200, contract.response("GET", "/nodes", NODES));
            case "GET /nodes/pve1/status" -> x.reply(200, contract.response("GET", "/nodes/{node}/status", NODE_STATUS));
            case "GET /nodes/pve1/qemu" -> x.reply(200, contract.response("GET", "/nodes/{node}/qemu", VMS));
            case "GET /nodes/pve1/qemu/100/status/current" -> x.reply(200,
                    contract.response("GET", "/nodes/{node}/qemu/{vmid}/status/current", VM_STATUS));
            case "GET /nodes/pve1/qemu/100/config" -> x.reply(200,
                    contract.response("GET", "/nodes/{node}/qemu/{vmid}/config", VM_CONFIG));
            case "GET /nodes/pve1/qemu/999/status/current" -> x.reply(500, "{\"data\": null, \"message\": "
                    + "\"Configuration file 'nodes/pve1/qemu-server/999.conf' does not exist\\n\"}");
            case "GET /nodes/pve2/lxc" -> x.reply(200, contract.response("GET", "/nodes/{node}/lxc", CTS));
            case "GET /nodes/pve2/lxc/200/status/current" -> x.reply(200,
                    contract.response("GET", "/nodes/{node}/lxc/{vmid}/status/current", CT_STATUS));
            case "GET /nodes/pve2/lxc/200/config" -> x.reply(200,
                    contract.response("GET", "/nodes/{node}/lxc/{vmid}/config", CT_CONFIG));
            case "GET /nodes/pve1/qemu/100/snapshot" -> x.reply(200,
                    contract.response("GET", "/nodes/{node}/qemu/{vmid}/snapshot", SNAPSHOTS));
            case "GET /storage" -> x.reply(200, contract.response("GET", "/storage", STORAGE_DEFINITIONS));
            case "GET /nodes/pve1/storage" -> x.reply(200, contract.response("GET", "/nodes/{node}/storage", NODE_STORAGE));
            case "GET /nodes/pve1/storage/local/content" -> x.reply(200,
                    contract.response("GET", "/nodes/{node}/storage/{storage}/content", CONTENT));
            case "GET /nodes/pve1/tasks" -> x.reply(200, contract.response("GET", "/nodes/{node}/tasks", TASKS));
            case "GET task status" -> x.reply(200,
                    contract.response("GET", "/nodes/{node}/tasks/{upid}/status", TASK_STATUS));
            case "GET task log" -> x.reply(200, contract.response("GET", "/nodes/{node}/tasks/{upid}/log", TASK_LOG));
            case "GET /nodes/pve1/syslog" -> {
                assertThat(x.query()).contains("limit=2").contains("service=pveproxy");
                x.reply(200, contract.response("GET", "/nodes/{node}/syslog", SYSLOG));
            }
            case "POST /nodes/pve1/qemu/100/status/shutdown" -> {
                assertThat(x.header("Content-Type")).startsWith("application/x-www-form-urlencoded");
                family.forms().request("POST", "/nodes/{node}/qemu/{vmid}/status/shutdown", x.body());
                x.recordWrite("proxmox shutdown");
                x.reply(200, contract.response("POST", "/nodes/{node}/qemu/{vmid}/status/shutdown", TASK_STARTED));
            }
            default -> x.reply(501, "{\"data\": null}");
        }
    }

    // ---- the tests ----

    private static JsonNode read(String opId, Map<String, Object> params) throws Exception {
        return family.checks().read("lab1", opId, params);
    }

    @Test
    void theContractCheckCatchesAnAnswerOrAFormThatDriftsFromTheSpec() {
        assertThatThrownBy(() -> family.contract().response("GET", "/nodes/{node}/qemu", "{\"data\": [{\"vmid\": \"100\"}]}"))
                .isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> family.forms().request("POST", "/nodes/{node}/qemu/{vmid}/status/shutdown",
                "timeout=soon".getBytes())).isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> family.forms().request("POST", "/nodes/{node}/qemu/{vmid}/status/shutdown",
                "force=1".getBytes())).as("a field the schema does not name").isInstanceOf(AssertionError.class);
    }

    @Test
    void everyCuratedGroupReadsThroughTheKernel() throws Exception {
        ReplayKernel replay = family.replay();
        var groups = replay.kernel().get("/api/v1/connectors/" + family.checks().connectorId() + "/groups",
                replay.operator());
        assertThat(groups.body()).contains("Virtual machines").contains("Containers").contains("Snapshots")
                .contains("Tasks");

        assertThat(read("proxmox.version.get_version", Map.of()).toString()).contains("9.1.1");
        assertThat(read("proxmox.cluster.get_cluster_status", Map.of()).toString()).contains("homelab")
                .contains("\"quorate\":1");
        assertThat(read("proxmox.cluster.list_cluster_resources", Map.of("type", "vm")).toString())
                .contains("qemu/100").contains("lxc/200");
        assertThat(read("proxmox.node.list_nodes", Map.of()).toString()).contains("pve2");
        assertThat(read("proxmox.node.get_node_status", Map.of("node", "pve1")).toString())
                .contains("pve-manager/9.1.1");
        assertThat(read("proxmox.vm.list_vms", Map.of("node", "pve1")).toString()).contains("web-01").contains("db-01");
        assertThat(read("proxmox.vm.get_vm_status", Map.of("node", "pve1", "vmid", 100)).toString())
                .contains("pc-q35-9.2+pve1");
        assertThat(read("proxmox.vm.get_vm_config", Map.of("node", "pve1", "vmid", 100)).toString())
                .contains("local-lvm:vm-100-disk-0");
        assertThat(read("proxmox.ct.list_containers", Map.of("node", "pve2")).toString()).contains("dns-01");
        assertThat(read("proxmox.ct.get_container_status", Map.of("node", "pve2", "vmid", 200)).toString())
                .contains("\"pid\":3141");
        assertThat(read("proxmox.ct.get_container_config", Map.of("node", "pve2", "vmid", 200)).toString())
                .contains("hwaddr=BC:24:11:8A:31:02");
        assertThat(read("proxmox.snapshot.list_vm_snapshots", Map.of("node", "pve1", "vmid", 100)).toString())
                .contains("pre-upgrade");
        assertThat(read("proxmox.storage.list_storage_definitions", Map.of()).toString()).contains("/var/lib/vz");
        assertThat(read("proxmox.storage.list_node_storage", Map.of("node", "pve1")).toString())
                .contains("local-lvm");
        assertThat(read("proxmox.storage.list_storage_content", Map.of("node", "pve1", "storage", "local")).toString())
                .contains("debian-13.1.0-amd64-netinst.iso");
        assertThat(read("proxmox.task.list_node_tasks", Map.of("node", "pve1")).toString()).contains("vzdump");
        assertThat(read("proxmox.task.get_task_status", Map.of("node", "pve1", "upid", UPID)).toString())
                .contains("\"exitstatus\":\"OK\"");
        assertThat(read("proxmox.task.get_task_log", Map.of("node", "pve1", "upid", UPID)).toString())
                .contains("TASK OK");
        family.checks().probe("lab1", "proxmox", "9.1.1", "GET /api2/json/version");
    }

    @Test
    void aSelfSignedApplianceIsRefusedUnlessItsCertificateIsPinned() throws Exception {
        ReplayVendor vendor = family.vendor();
        family.replay().target("lab-unpinned", "proxmox", vendor, Map.of("api_token", TOKEN), Map.of());
        int served = vendor.served();
        JsonNode refused = family.call("lab-unpinned", "proxmox.version.get_version", Map.of());
        assertThat(errorCode(refused)).as(refused.toString()).isEqualTo("connector_tls_verify_failed");
        assertThat(vendor.served()).as("no request got past the handshake").isEqualTo(served);
    }

    @Test
    void aWrongTokenIsConnectorAuthFailedAndAMissingVmIsTheVendorsError() throws Exception {
        String wrong = "root@pam!backplane=" + UUID.randomUUID();
        family.pinnedTarget("lab-bad", "proxmox", Map.of("api_token", wrong));
        JsonNode rejected = family.call("lab-bad", "proxmox.node.list_nodes", Map.of());
        assertThat(errorCode(rejected)).as(rejected.toString()).isEqualTo("connector_auth_failed");
        assertThat(rejected.toString()).doesNotContain(wrong.substring(wrong.indexOf('=') + 1));

        JsonNode missing = family.checks().vendorError("lab1", "proxmox.vm.get_vm_status",
                Map.of("node", "pve1", "vmid", 999), 500);
        assertThat(missing.path("extras").path("vendor_body").asText()).contains("does not exist");

        JsonNode badVmid = family.call("lab1", "proxmox.vm.get_vm_status", Map.of("node", "pve1", "vmid", 42));
        assertThat(errorCode(badVmid)).as("guest ids start at 100").isEqualTo("invalid_params");
    }

    /** The appliance's log verbs read 1 to 5,000 lines (SPEC's bound): the node's system log and a task's log. */
    @Test
    void theLogVerbsReadOneTo5000Lines() throws Exception {
        assertThat(read("proxmox.node.get_node_syslog", Map.of("node", "pve1", "limit", 2, "service", "pveproxy"))
                .toString()).contains("starting 3 worker(s)");
        int served = family.vendor().served();
        for (int limit : new int[] {0, 5001}) {
            JsonNode syslog = family.call("lab1", "proxmox.node.get_node_syslog", Map.of("node", "pve1", "limit", limit));
            assertThat(errorCode(syslog)).as("syslog limit " + limit).isEqualTo("invalid_params");
            JsonNode task = family.call("lab1", "proxmox.task.get_task_log", Map.of("node", "pve1", "upid", UPID,
                    "limit", limit));
            assertThat(errorCode(task)).as("task log limit " + limit).isEqualTo("invalid_params");
        }
        assertThat(family.vendor().served()).as("refused before the appliance is asked").isEqualTo(served);
    }

    @Test
    void aCleanShutdownIsParkedUntilASecondAdminApprovesAndSendsAForm() throws Exception {
        JsonNode released = family.approvedWrite("lab1", "proxmox.vm.shutdown_vm",
                Map.of("node", "pve1", "vmid", 100, "body", Map.of("timeout", 120, "forceStop", true)),
                Map.of("node", "pve1", "vmid", 100, "body", Map.of("timeout", "soon")));
        assertThat(released.toString()).as("the task to follow").contains(UPID);
        assertThat(family.vendor().writes().getLast()).contains("timeout=120").contains("forceStop=true");
    }

    /**
     * Discovery as the shipped index declares it (GET /cluster/status, members of type node): the node answering
     * (local) is the seed, pve2 is importable with the seed's pinned trust, pve3's address is one the SSRF guard
     * refuses; the route's guard and audit row hold, the CLI's targets.yaml passes import --dry-run, and a cluster
     * answering an error or refusing the token is a clear code, never a 500.
     */
    @Test
    void discoveryListsTheClustersNodesAsAPlanImportTakes() throws Exception {
        ReplayKernel replay = family.replay();
        var r = replay.kernel().send("POST", "/api/v1/targets/discover", replay.operator(),
                "{\"product\": \"proxmox\", \"seed_target\": \"lab1\"}", Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).doesNotContain(TOKEN.substring(TOKEN.indexOf('=') + 1));
        JsonNode plan = r.json();
        assertThat(plan.path("connector_id").asText()).isEqualTo("proxmox-9.x");
        assertThat(plan.path("candidates")).hasSize(1);
        JsonNode pve2 = plan.path("candidates").get(0);
        assertThat(pve2.path("name").asText()).isEqualTo("pve2");
        assertThat(pve2.path("product").asText()).isEqualTo("proxmox");
        assertThat(pve2.path("host").asText()).isEqualTo("192.168.10.12");
        assertThat(pve2.has("port")).as("the product's default, 8006").isFalse();
        assertThat(pve2.path("tls_ca_pin").asText()).as("the seed's pin").isEqualTo(family.vendor().pem());
        assertThat(pve2.path("notes").asText()).isEqualTo("listed by GET /api2/json/cluster/status through lab1");
        assertThat(plan.path("skipped").findValuesAsText("reason")).containsExactly("seed_target", "ssrf_refused");
        assertThat(plan.path("skipped").get(0).path("candidate").path("name").asText()).isEqualTo("pve1");
        assertThat(plan.path("skipped").get(1).path("candidate").path("host").asText()).isEqualTo("192.168.10.13");

        assertThat(replay.kernel().send("POST", "/api/v1/targets/discover", replay.issuer().token("ro", replay.tenant(),
                "read_only"), "{\"product\": \"proxmox\", \"seed_target\": \"lab1\"}", Map.of()).status())
                .as("the route's guard").isEqualTo(403);
        assertThat(replay.auditOf("lab1")).contains("svc.targets.discover");
        assertThat(replay.kernel().jdbc().query("SELECT result_status || ' ' || op_class FROM audit_rows WHERE "
                + "tenant_id = ? AND op_id = 'svc.targets.discover' AND target = 'lab1'", rs -> rs.getString(1),
                replay.tenant()))
                .containsExactly("ok credential_read");

        var yaml = replay.kernel().cli(replay.operator()).run("targets", "discover", "proxmox", "--seed-target", "lab1");
        assertThat(yaml.exitCode()).as(yaml.toString()).isZero();
        assertThat(yaml.out()).contains("# seed target: lab1 (product proxmox, through connector proxmox-9.x)")
                .contains("# seed_target: this is the seed target lab1 itself").contains("# ssrf_refused: ");
        var dryRun = replay.cli().run("targets", "import", replay.cli().file("pve-plan.yaml", yaml.out()).toString(),
                "--dry-run");
        assertThat(dryRun.exitCode()).as(dryRun.toString()).isZero();
        assertThat(dryRun.out()).contains("would create 1 [pve2]");
        assertThat(replay.kernel().get("/api/v1/targets/pve2", replay.operator()).status()).isEqualTo(404);

        family.pinnedTarget("lab-noquorum", "proxmox", Map.of("api_token", NO_QUORUM_TOKEN));
        var broken = replay.kernel().send("POST", "/api/v1/targets/discover", replay.operator(),
                "{\"product\": \"proxmox\", \"seed_target\": \"lab-noquorum\"}", Map.of());
        assertThat(broken.status()).as(broken.body()).isEqualTo(502);
        assertThat(broken.json().path("error").asText()).isEqualTo("connector_error");
        assertThat(broken.json().path("message").asText()).contains("GET /api2/json/cluster/status answered HTTP 500");
        assertThat(broken.json().path("extras").path("vendor_body").asText()).contains("no quorum");

        family.pinnedTarget("lab-wrong", "proxmox", Map.of("api_token", "root@pam!backplane=" + UUID.randomUUID()));
        var refused = replay.kernel().send("POST", "/api/v1/targets/discover", replay.operator(),
                "{\"product\": \"proxmox\", \"seed_target\": \"lab-wrong\"}", Map.of());
        assertThat(refused.status()).isEqualTo(502);
        assertThat(refused.json().path("error").asText()).isEqualTo("connector_auth_failed");
    }

    @Test
    void theFamilyVerbsListTheNounsAndCallThroughTheCli() {
        family.checks().familyVerbs("proxmox", List.of("vm", "ct", "node", "snapshot", "storage", "task", "cluster"),
                List.of("vm", "list_vms", "--node", "pve1", "--target", "lab1", "--json"), "db-01");
    }
}
