package dev.backplane.plugins.openapi;

import static dev.backplane.plugins.openapi.ReplayKernel.errorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dedicated-server hosting portal family (Hetzner Robot web service) as an ingested spec: our own
 * OpenAPI document shipped in {@code plugin-repo/specs/hetzner-robot} is ingested by catalog name
 * ({@code hetzner-robot/1.x}) with HTTP basic for a Robot web service user, and driven through a real
 * kernel against a loopback HTTPS server (Robot is HTTPS only; the target pins its certificate)
 * replaying hand-built answers checked against the document's response schemas; the form bodies of the
 * writes it receives are checked against its request schemas.
 */
class HetznerRobotReplayIT {

    private static final String USER = "#ws+Xk2pL9aB";
    private static final String PASSWORD = "robot-pw-" + UUID.randomUUID();
    private static ShippedSpecReplay family;

    @BeforeAll
    static void start() throws Exception {
        family = ShippedSpecReplay.start("hetzner-robot/1.x", "hetzner-robot/hetzner-robot-operator.yaml",
                HetznerRobotReplayIT::answer);
        target("robot1", PASSWORD);
    }

    @AfterAll
    static void stop() {
        if (family != null) {
            family.close();
        }
    }

    private static void target(String name, String password) {
        family.pinnedTarget(name, "hetzner-robot", Map.of("username", USER, "password", password));
    }

    // ---- the replay server: answers hand-built from the Robot web service documentation ----

    private static final String SERVER = """
            {"server_ip": "203.0.113.10", "server_ipv6_net": "2001:db8:1:2::", "server_number": 1234567,
             "server_name": "lab-host-1", "product": "AX52", "dc": "FSN1-DC14", "traffic": "unlimited",
             "status": "ready", "cancelled": false, "paid_until": "2026-12-31",
             "ip": ["203.0.113.10"], "subnet": [{"ip": "2001:db8:1:2::", "mask": "64"}], "linked_storagebox": 345678}""";
    private static final String SERVERS = """
            [{"server": %s},
             {"server": {"server_ip": "203.0.113.20", "server_ipv6_net": "2001:db8:1:3::", "server_number": 1234568,
               "server_name": "lab-host-2", "product": "EX44", "dc": "HEL1-DC7", "traffic": "unlimited",
               "status": "ready", "cancelled": true, "paid_until": "2026-11-30", "ip": ["203.0.113.20"],
               "subnet": null, "linked_storagebox": null}}]""".formatted(SERVER);
    private static final String SERVER_DETAIL = """
            {"server": %s}""".formatted(SERVER.replaceFirst("}$", """
            , "reset": true, "rescue": true, "vnc": true, "windows": false, "plesk": false, "cpanel": false,
             "wol": true, "hot_swap": false}"""));
    private static final String CANCELLATION = """
            {"cancellation": {"server_ip": "203.0.113.10", "server_ipv6_net": "2001:db8:1:2::",
              "server_number": 1234567, "server_name": "lab-host-1", "earliest_cancellation_date": "2026-12-31",
              "cancelled": false, "reservation_possible": true, "reserved": false, "cancellation_date": null,
              "cancellation_reason": ["Upgrade to a new server", "Dissatisfied with the hardware",
                "Not using the server anymore"]}}""";
    private static final String RESET_OPTIONS = """
            [{"reset": {"server_ip": "203.0.113.10", "server_ipv6_net": "2001:db8:1:2::", "server_number": 1234567,
               "type": ["sw", "hw", "man", "power", "power_long"], "operating_status": "running"}}]""";
    private static final String RESET_DONE = """
            {"reset": {"server_ip": "203.0.113.10", "server_ipv6_net": "2001:db8:1:2::", "server_number": 1234567,
              "type": "hw"}}""";
    private static final String RESCUE = """
            {"server_ip": "203.0.113.10", "server_ipv6_net": "2001:db8:1:2::", "server_number": 1234567,
             "os": ["linux", "vkvm"], "active": false, "password": null, "authorized_key": [], "host_key": [],
             "boot_time": null}""";
    private static final String KEY_1 = "56:29:99:a4:5d:ed:ac:95:c1:f5:88:82:90:5d:dd:10";
    private static final String KEY_2 = "15:28:b0:03:95:f0:77:b3:10:56:15:6b:77:22:a5:bb";
    private static final String RESCUE_ACTIVE = """
            {"rescue": {"server_ip": "203.0.113.10", "server_ipv6_net": "2001:db8:1:2::", "server_number": 1234567,
              "os": "linux", "active": true, "password": null, "boot_time": null, "host_key": [],
              "authorized_key": [{"key": {"name": "ops laptop", "fingerprint": "%s", "type": "ED25519", "size": 256}},
                {"key": {"name": "ops ci", "fingerprint": "%s", "type": "ED25519", "size": 256}}]}}"""
            .formatted(KEY_1, KEY_2);
    private static final String BOOT = """
            {"boot": {"rescue": %s, "linux": {"active": false}, "vnc": {"active": false}, "windows": null,
              "plesk": null, "cpanel": null}}""".formatted(RESCUE);
    private static final String IPS = """
            [{"ip": {"ip": "203.0.113.10", "server_ip": "203.0.113.10", "server_number": 1234567, "locked": false,
               "separate_mac": null, "traffic_warnings": false, "traffic_hourly": 50, "traffic_daily": 100,
               "traffic_monthly": 2}},
             {"ip": {"ip": "203.0.113.11", "server_ip": "203.0.113.10", "server_number": 1234567, "locked": false,
               "separate_mac": "00:50:56:00:8b:1c", "traffic_warnings": true, "traffic_hourly": 200,
               "traffic_daily": 2000, "traffic_monthly": 20}}]""";
    private static final String SUBNETS = """
            [{"subnet": {"ip": "2001:db8:1:2::", "mask": 64, "gateway": "fe80::1", "server_ip": "203.0.113.10",
               "server_number": 1234567, "failover": false, "locked": false, "traffic_warnings": false,
               "traffic_hourly": 100, "traffic_daily": 500, "traffic_monthly": 2}}]""";
    private static final String FAILOVERS = """
            [{"failover": {"ip": "198.51.100.7", "netmask": "255.255.255.255", "server_ip": "203.0.113.10",
               "server_ipv6_net": "2001:db8:1:2::", "server_number": 1234567, "active_server_ip": "203.0.113.10"}}]""";
    private static final String FIREWALL = """
            {"firewall": {"server_ip": "203.0.113.10", "server_number": 1234567, "status": "active",
              "filter_ipv6": false, "whitelist_hos": true, "port": "main",
              "rules": {"input": [
                {"ip_version": "ipv4", "name": "ssh from office", "dst_ip": null, "src_ip": "192.0.2.0/24",
                 "dst_port": "22", "src_port": null, "protocol": "tcp", "tcp_flags": null, "action": "accept"},
                {"ip_version": null, "name": "established", "dst_ip": null, "src_ip": null, "dst_port": "32768-65535",
                 "src_port": null, "protocol": "tcp", "tcp_flags": "ack", "action": "accept"}],
                "output": [{"ip_version": null, "name": "allow all", "dst_ip": null, "src_ip": null, "dst_port": null,
                 "src_port": null, "protocol": null, "tcp_flags": null, "action": "accept"}]}}}""";
    private static final String TEMPLATES = """
            [{"firewall_template": {"id": 4711, "name": "lab hosts", "filter_ipv6": false, "whitelist_hos": true,
               "is_default": true}}]""";
    private static final String STORAGE_BOXES = """
            [{"storagebox": {"id": 345678, "login": "u345678", "name": "lab backups", "product": "BX21",
               "cancelled": false, "locked": false, "location": "FSN1", "linked_server": 1234567,
               "paid_until": "2026-12-31"}}]""";
    private static final String VSWITCHES = """
            [{"id": 50123, "name": "lab-backplane", "vlan": 4010, "cancelled": false}]""";
    private static final String NOT_FOUND = """
            {"error": {"status": 404, "code": "SERVER_NOT_FOUND", "message": "Server with id 999 not found"}}""";

    private static void answer(ReplayVendor.Exchange x) throws Exception {
        SpecContract contract = family.contract();
        if (!x.basic(USER, PASSWORD)) {
            x.reply(401, "{\"error\": {\"status\": 401, \"code\": \"UNAUTHORIZED\", \"message\": \"Unauthorized\"}}");
            return;
        }
        switch (x.route()) {
            case "GET /server" -> x.reply(200, contract.response("GET", "/server", SERVERS));
            case "GET /server/1234567" -> x.reply(200, contract.response("GET", "/server/{server_number}", SERVER_DETAIL));
            case "GET /server/1234567/cancellation" -> x.reply(200,
                    contract.response("GET", "/server/{server_number}/cancellation", CANCELLATION));
            case "GET /reset" -> x.reply(200, contract.response("GET", "/reset", RESET_OPTIONS));
            case "POST /reset/1234567" -> {
                assertThat(x.header("Content-Type")).startsWith("application/x-www-form-urlencoded");
                family.forms().request("POST", "/reset/{server_number}", x.body());
                x.recordWrite("robot reset");
                x.reply(200, contract.response("POST", "/reset/{server_number}", RESET_DONE));
            }
            case "GET /boot/1234567" -> x.reply(200, contract.response("GET", "/boot/{server_number}", BOOT));
            case "GET /boot/1234567/rescue" -> x.reply(200,
                    contract.response("GET", "/boot/{server_number}/rescue", "{\"rescue\": " + RESCUE + "}"));
            case "POST /boot/1234567/rescue" -> {
                family.forms().request("POST", "/boot/{server_number}/rescue", x.body());
                x.recordWrite("robot rescue");
                x.reply(200, contract.response("POST", "/boot/{server_number}/rescue", RESCUE_ACTIVE));
            }
            case "GET /ip" -> x.reply(200, contract.response("GET", "/ip", IPS));
            case "GET /subnet" -> x.reply(200, contract.response("GET", "/subnet", SUBNETS));
            case "GET /failover" -> x.reply(200, contract.response("GET", "/failover", FAILOVERS));
            case "GET /firewall/1234567" -> x.reply(200,
                    contract.response("GET", "/firewall/{server_number}", FIREWALL));
            case "GET /firewall/template" -> x.reply(200, contract.response("GET", "/firewall/template", TEMPLATES));
            case "GET /storagebox" -> x.reply(200, contract.response("GET", "/storagebox", STORAGE_BOXES));
            case "GET /vswitch" -> x.reply(200, contract.response("GET", "/vswitch", VSWITCHES));
            default -> x.reply(404, NOT_FOUND);
        }
    }

    // ---- the tests ----

    private static JsonNode read(String opId, Map<String, Object> params) throws Exception {
        return family.checks().read("robot1", opId, params);
    }

    @Test
    void theContractCheckCatchesAnAnswerOrAFormThatDriftsFromTheSpec() {
        assertThatThrownBy(() -> family.contract().response("GET", "/server", "[{\"server\": {\"server_number\": \"1\"}}]"))
                .isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> family.forms().request("POST", "/reset/{server_number}", "type=reboot".getBytes()))
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void everyCuratedGroupReadsThroughTheKernel() throws Exception {
        ReplayKernel replay = family.replay();
        var groups = replay.kernel().get("/api/v1/connectors/" + family.checks().connectorId() + "/groups",
                replay.operator());
        assertThat(groups.body()).contains("Servers").contains("Failover IPs").contains("Boot configuration")
                .contains("IPs and subnets");

        assertThat(read("hetzner-robot.server.list_servers", Map.of()).toString()).contains("lab-host-1")
                .contains("lab-host-2");
        assertThat(read("hetzner-robot.server.get_server", Map.of("server_number", 1234567)).toString())
                .contains("FSN1-DC14").contains("\"hot_swap\":false");
        assertThat(read("hetzner-robot.server.get_server_cancellation", Map.of("server_number", 1234567)).toString())
                .contains("\"earliest_cancellation_date\":\"2026-12-31\"");
        assertThat(read("hetzner-robot.reset.list_reset_options", Map.of()).toString()).contains("power_long");
        // the boot configuration carries the rescue system's root password: credential reads (review 3, S11)
        assertThat(family.checks().approvedCredentialRead("robot1", "hetzner-robot.boot.get_boot_configuration",
                Map.of("server_number", 1234567)).toString()).contains("vkvm");
        assertThat(family.checks().approvedCredentialRead("robot1", "hetzner-robot.boot.get_rescue",
                Map.of("server_number", 1234567)).toString()).contains("\"active\":false");
        assertThat(read("hetzner-robot.ip.list_ips", Map.of()).toString()).contains("203.0.113.11");
        assertThat(read("hetzner-robot.ip.list_subnets", Map.of()).toString()).contains("fe80::1");
        assertThat(read("hetzner-robot.failover.list_failover_ips", Map.of()).toString()).contains("198.51.100.7");
        assertThat(read("hetzner-robot.firewall.get_server_firewall", Map.of("server_number", 1234567)).toString())
                .contains("ssh from office");
        assertThat(read("hetzner-robot.firewall.list_firewall_templates", Map.of()).toString()).contains("lab hosts");
        assertThat(read("hetzner-robot.storagebox.list_storage_boxes", Map.of()).toString()).contains("u345678");
        assertThat(read("hetzner-robot.vswitch.list_vswitches", Map.of()).toString()).contains("lab-backplane");
    }

    @Test
    void aWrongPasswordIsConnectorAuthFailedAndAnUnknownServerIsTheVendors404() throws Exception {
        target("robot-bad", "not-the-robot-password-42");
        JsonNode rejected = family.call("robot-bad", "hetzner-robot.server.list_servers", Map.of());
        assertThat(errorCode(rejected)).as(rejected.toString()).isEqualTo("connector_auth_failed");

        JsonNode missing = family.checks().vendorError("robot1", "hetzner-robot.server.get_server",
                Map.of("server_number", 999), 404);
        assertThat(missing.path("extras").path("vendor_body").asText()).contains("SERVER_NOT_FOUND");
    }

    @Test
    void aHardwareResetIsParkedUntilASecondAdminApprovesAndSendsAForm() throws Exception {
        JsonNode released = family.approvedWrite("robot1", "hetzner-robot.reset.reset_server",
                Map.of("server_number", 1234567, "body", Map.of("type", "hw")),
                Map.of("server_number", 1234567, "body", Map.of("type", "reboot")));
        assertThat(released.toString()).contains("\"type\":\"hw\"");
        assertThat(family.vendor().writes().getLast()).isEqualTo("robot reset type=hw");
    }

    @Test
    void rescueWithTwoKeysIsParkedThenSentAsRobotsRepeatedBracketField() throws Exception {
        JsonNode released = family.approvedWrite("robot1", "hetzner-robot.boot.activate_rescue",
                Map.of("server_number", 1234567, "body", Map.of("os", "linux", "authorized_key[]", List.of(KEY_1, KEY_2))),
                Map.of("server_number", 1234567, "body", Map.of("os", "windows")));
        assertThat(released.toString()).contains("\"active\":true").contains("ops ci");
        String field = URLEncoder.encode("authorized_key[]", StandardCharsets.UTF_8) + "=";
        assertThat(family.vendor().writes().getLast()).startsWith("robot rescue ").contains("os=linux")
                .contains(field + URLEncoder.encode(KEY_1, StandardCharsets.UTF_8))
                .contains(field + URLEncoder.encode(KEY_2, StandardCharsets.UTF_8));
    }

    @Test
    void theFamilyVerbsListTheNounsAndCallThroughTheCli() {
        family.checks().familyVerbs("hetzner-robot", List.of("server", "reset", "boot", "failover", "firewall",
                "storagebox", "vswitch"), List.of("server", "get_server", "--server-number", "1234567", "--target",
                "robot1", "--json"), "lab-host-1");
    }
}
