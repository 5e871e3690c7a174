package dev.backplane.plugins.openapi;

import static dev.backplane.plugins.openapi.ReplayKernel.errorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fleet-management family: VCF SDDC Manager ingested by catalog name from the spec shipped in
 * {@code plugin-repo/specs/sddc-manager/}, logging in with {@code POST /v1/tokens} and driven through a real
 * kernel against a loopback replay server whose answers and received writes are checked against the
 * vendor's own schemas ({@link SpecContract}). The reads that return stored passwords are credential reads:
 * {@code enable-reads} leaves them off, and enabled one by one they still park for approval.
 */
class FleetManagementReplayIT {

    private static final String SDDC = "sddc-manager-9.x";
    private static final String PASSWORD = "sddc-admin-pw-" + UUID.randomUUID();
    private static final String ACCESS = "sddc-access-" + UUID.randomUUID();
    private static final String DOMAIN_ID = "2f6b3c1d-8e4a-4b7c-9d0e-1f2a3b4c5d6e";
    private static final String BUNDLE_ID = "8c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f";
    private static final String EXPIRATION_ID = "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d";
    private static SpecContract spec;
    private static ReplayVendor vendor;
    private static ReplayKernel replay;
    private static ReplayChecks check;

    @BeforeAll
    static void start() throws Exception {
        spec = SpecContract.read(Path.of("../../plugin-repo/specs/sddc-manager/swagger.json"));
        vendor = ReplayVendor.http(FleetManagementReplayIT::answer);
        replay = ReplayKernel.start(List.of("sddc-manager"), Map.of());
        replay.ingest("sddc-manager/9.x");
        target("fleet1", PASSWORD);
        replay.enableReads(SDDC);
        check = new ReplayChecks(replay, vendor, SDDC);
    }

    @AfterAll
    static void stop() {
        ReplayChecks.close(replay, vendor);
    }

    // ---- the replay server ----

    private static final String PAGE = "\"pageMetadata\": {\"pageNumber\": 0, \"pageSize\": 50, \"totalElements\": %d, "
            + "\"totalPages\": 1}";
    private static final String MGMT = "{\"id\": \"%s\", \"name\": \"sfo-m01\", \"type\": \"MANAGEMENT\"}".formatted(DOMAIN_ID);
    private static final String DOMAINS = """
            {"elements": [{"id": "%s", "name": "sfo-m01", "orgName": "rainpole", "type": "MANAGEMENT",
              "status": "ACTIVE", "ssoName": "vsphere.local", "isManagementSsoDomain": true,
              "upgradeStatus": {"status": "AVAILABLE", "completedResources": 0, "totalResources": 4},
              "vcenters": [{"id": "b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e", "fqdn": "sfo-m01-vc01.rainpole.io"}],
              "clusters": [{"id": "c7d8e9f0-a1b2-4c3d-8e4f-5a6b7c8d9e0f"}]}], %s}""".formatted(DOMAIN_ID, PAGE.formatted(1));
    private static final String CLUSTERS = """
            {"elements": [{"id": "c7d8e9f0-a1b2-4c3d-8e4f-5a6b7c8d9e0f", "name": "sfo-m01-cl01", "status": "ACTIVE",
              "domain": %s, "primaryDatastoreName": "sfo-m01-cl01-ds-vsan01", "primaryDatastoreType": "VSAN",
              "isStretched": false, "isDefault": true, "isImageBased": true,
              "hosts": [{"id": "e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b", "fqdn": "sfo01-m01-esx01.rainpole.io"}]}], %s}"""
            .formatted(MGMT, PAGE.formatted(1));
    private static final String HOSTS = """
            {"elements": [{"id": "e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b", "fqdn": "sfo01-m01-esx01.rainpole.io",
              "esxiVersion": "9.0.1.0-24957456", "hardwareVendor": "Dell Inc.", "hardwareModel": "PowerEdge R760",
              "status": "ASSIGNED", "domain": %s, "ipAddresses": [{"ipAddress": "172.16.11.101", "type": "MANAGEMENT"}]}],
             %s}""".formatted(MGMT, PAGE.formatted(1));
    private static final String BUNDLES = """
            {"elements": [{"id": "%s", "type": "VMWARE_SOFTWARE", "description": "VMware Cloud Foundation 9.0.1.0 update",
              "version": "9.0.1.0-24962180", "severity": "CRITICAL", "vendor": "VMware", "releasedDate": "2026-10-14T00:00:00Z",
              "isCumulative": false, "sizeMB": 2048.5, "downloadStatus": "PENDING",
              "components": [{"type": "SDDC_MANAGER", "imageType": "PATCH", "description": "SDDC Manager", "toVersion": "9.0.1.0-24962180",
                "fromVersion": "9.0.0.0-24703748", "vendor": "VMware", "releasedDate": "2026-10-14T00:00:00Z"}]}], %s}"""
            .formatted(BUNDLE_ID, PAGE.formatted(1));
    private static final String UPGRADABLES = """
            {"elements": [{"bundleId": "%s", "bundleType": "VMWARE_SOFTWARE", "status": "AVAILABLE",
              "resource": {"resourceId": "d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f7a", "fqdn": "sfo-vcf01.rainpole.io",
                "type": "SDDC_MANAGER"}}], %s}""".formatted(BUNDLE_ID, PAGE.formatted(1));
    private static final String UPGRADES = """
            {"elements": [{"id": "f0e1d2c3-b4a5-4968-8776-655443322110", "bundleId": "%s", "resourceType": "DOMAIN",
              "resourceUpgradeSpecs": [{"resourceId": "%s", "upgradeNow": true}], "status": "COMPLETED_WITH_SUCCESS",
              "taskId": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"}], %s}""".formatted(BUNDLE_ID, DOMAIN_ID, PAGE.formatted(1));
    private static final String RELEASES = """
            {"elements": [{"product": "VCF", "version": "9.0.1.0", "description": "VMware Cloud Foundation 9.0.1",
              "releaseDate": "2026-10-14", "minCompatibleVcfVersion": "5.2.0.0", "isApplicable": true,
              "bom": [{"name": "SDDC_MANAGER_VCF", "publicName": "SDDC Manager", "version": "9.0.1.0-24962180"},
                      {"name": "ESX_HOST", "publicName": "VMware ESX", "version": "9.0.1.0-24957456"}]}], %s}"""
            .formatted(PAGE.formatted(1));
    private static final String TASK = """
            {"id": "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f", "name": "Bundle download", "type": "BUNDLE_DOWNLOAD",
             "status": "IN_PROGRESS", "creationTimestamp": "2026-11-24T04:10:00.000Z", "isCancellable": true,
             "isRetryable": false, "resources": [{"resourceId": "%s", "type": "BUNDLE"}]}""".formatted(BUNDLE_ID);
    private static final String TASKS = "{\"elements\": [" + TASK + "], " + PAGE.formatted(1) + "}";
    private static final String EXPIRATIONS = """
            {"id": "%s", "status": "COMPLETED", "creationTimestamp": "2026-11-24T04:00:00.000Z",
             "completionTimestamp": "2026-11-24T04:00:05.000Z",
             "elements": [{"id": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", "username": "root",
               "resource": {"resourceId": "e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b", "resourceName": "sfo01-m01-esx01.rainpole.io",
                 "resourceType": "ESXI", "domainNames": ["sfo-m01"]},
               "expiry": {"expiryDate": "2027-01-30T00:00:00.000Z", "lastCheckedDate": "2026-11-24T04:00:05.000Z",
                 "connectivityStatus": "ACTIVE", "status": "ACTIVE"}}]}""".formatted(EXPIRATION_ID);
    private static final String APPLIANCE = "{\"role\": \"SDDC_MANAGER\", \"version\": \"9.0.1.0-24962180\"}";
    private static final String MANAGERS = """
            {"elements": [{"id": "d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f7a", "fqdn": "sfo-vcf01.rainpole.io",
              "version": "9.0.1.0-24962180", "ipAddress": "172.16.11.59", "domain": %s,
              "basicAuthDetails": {"status": "DISABLED", "username": "admin@local"}}], %s}"""
            .formatted(MGMT, PAGE.formatted(1));
    private static final String NOT_FOUND = """
            {"errorCode": "DOMAIN_NOT_FOUND", "errorType": "ERROR", "message": "Domain with id ghost not found",
             "arguments": ["ghost"], "referenceToken": "K3QH2D"}""";

    private static void answer(ReplayVendor.Exchange x) throws Exception {
        if (x.route().equals("POST /v1/tokens")) {
            spec.request("POST", "/v1/tokens", x.body());
            JsonNode login = x.json();
            boolean ok = login.path("username").asText().equals("administrator@vsphere.local")
                    && login.path("password").asText().equals(PASSWORD);
            x.reply(ok ? 201 : 401, ok ? spec.response("POST", "/v1/tokens", "{\"accessToken\": \"" + ACCESS
                    + "\", \"refreshToken\": {\"id\": \"" + UUID.randomUUID() + "\"}}")
                    : "{\"errorCode\": \"TOKEN_CREATION_FAILED\", \"message\": \"Authentication failed\"}");
            return;
        }
        if (!x.header("Authorization").equals("Bearer " + ACCESS)) {
            x.reply(401, "{\"errorCode\": \"UNAUTHORIZED\", \"message\": \"Invalid token\"}");
            return;
        }
        switch (x.route()) {
            case "GET /v1/domains" -> x.reply(200, spec.response("GET", "/v1/domains", DOMAINS));
            case "GET /v1/domains/ghost" -> x.reply(404, NOT_FOUND);
            case "GET /v1/clusters" -> x.reply(200, spec.response("GET", "/v1/clusters", CLUSTERS));
            case "GET /v1/hosts" -> x.reply(200, spec.response("GET", "/v1/hosts", HOSTS));
            case "GET /v1/bundles" -> x.reply(200, spec.response("GET", "/v1/bundles", BUNDLES));
            case "GET /v1/system/upgradables" -> x.reply(200, spec.response("GET", "/v1/system/upgradables", UPGRADABLES));
            case "GET /v1/upgrades" -> x.reply(200, spec.response("GET", "/v1/upgrades", UPGRADES));
            case "GET /v1/releases" -> x.reply(200, spec.response("GET", "/v1/releases", RELEASES));
            case "GET /v1/tasks" -> x.reply(200, spec.response("GET", "/v1/tasks", TASKS));
            case "GET /v1/tasks/broken" -> x.reply(500, "{\"errorCode\": \"INTERNAL_SERVER_ERROR\", "
                    + "\"message\": \"Unexpected error\", \"referenceToken\": \"Q7ZP1M\"}");
            case "GET /v1/credentials/expirations/" + EXPIRATION_ID -> x.reply(200,
                    spec.response("GET", "/v1/credentials/expirations/{id}", EXPIRATIONS));
            case "GET /v1/system/appliance-info" -> x.reply(200, spec.response("GET", "/v1/system/appliance-info", APPLIANCE));
            case "GET /v1/sddc-managers" -> x.reply(200, spec.response("GET", "/v1/sddc-managers", MANAGERS));
            case "PATCH /v1/bundles/" + BUNDLE_ID -> {
                spec.request("PATCH", "/v1/bundles/{id}", x.body());
                x.recordWrite("sddc-manager");
                x.reply(202, spec.response("PATCH", "/v1/bundles/{id}", TASK));
            }
            case "GET /v1/credentials" -> throw new AssertionError("a credential read reached the vendor");
            default -> x.reply(404, "{\"errorCode\": \"NOT_FOUND\", \"message\": \"no route " + x.route() + "\"}");
        }
    }

    // ---- the tests ----

    private static void target(String name, String password) {
        replay.target(name, "sddc-manager", vendor, Map.of("username", "administrator@vsphere.local",
                "password", password), Map.of());
    }

    private static JsonNode read(String opId, Map<String, Object> params) throws Exception {
        return check.read("fleet1", opId, params);
    }

    @Test
    void theContractCatchesABundleOrLoginThatDriftsFromTheSpec() {
        assertThatThrownBy(() -> spec.response("GET", "/v1/bundles",
                "{\"elements\": [{\"id\": \"b\", \"type\": \"VMWARE_SOFTWARE\"}]}"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("downloadStatus");
        assertThatThrownBy(() -> spec.request("POST", "/v1/tokens", "{\"username\": 42}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void everyCuratedGroupReadsThroughTheKernel() throws Exception {
        var groups = replay.kernel().get("/api/v1/connectors/" + SDDC + "/groups", replay.operator());
        assertThat(groups.body()).contains("Workload domains").contains("Upgradables").contains("Credential metadata");

        assertThat(read("sddc-manager.domains.get_domains", Map.of()).toString()).contains("sfo-m01").contains("MANAGEMENT");
        assertThat(read("sddc-manager.clusters.get_clusters", Map.of()).toString()).contains("sfo-m01-cl01");
        assertThat(read("sddc-manager.hosts.get_hosts", Map.of()).toString()).contains("sfo01-m01-esx01.rainpole.io");
        assertThat(read("sddc-manager.bundles.get_bundles", Map.of()).toString()).contains("9.0.1.0-24962180");
        assertThat(read("sddc-manager.upgradables.get_upgradables", Map.of()).toString()).contains("AVAILABLE");
        assertThat(read("sddc-manager.upgrades.get_upgrades", Map.of()).toString()).contains("COMPLETED_WITH_SUCCESS");
        assertThat(read("sddc-manager.releases.get_releases", Map.of()).toString()).contains("VMware Cloud Foundation 9.0.1");
        assertThat(read("sddc-manager.tasks.get_tasks", Map.of()).toString()).contains("Bundle download");
        assertThat(read("sddc-manager.credentials.get_password_expiration_by_task_id", Map.of("id", EXPIRATION_ID))
                .toString()).contains("2027-01-30");
        assertThat(read("sddc-manager.system.get_appliance_info", Map.of()).toString()).contains("SDDC_MANAGER");
        assertThat(read("sddc-manager.sddcmanagers.get_sddc_managers", Map.of()).toString()).contains("sfo-vcf01.rainpole.io");
        assertThat(replay.auditOf("fleet1")).contains("get_domains").doesNotContain(ACCESS);
        check.probe("fleet1", "sddc-manager", "9.0.1.0-24962180", "GET /v1/sddc-managers");
    }

    @Test
    void readsThatReturnPasswordsStayOffAndParkWhenEnabled() throws Exception {
        String op = "sddc-manager.credentials.get_credentials";
        JsonNode denied = replay.call(replay.operator(), SDDC, op, "fleet1", Map.of());
        assertThat(denied.path("status").asText()).as("enable-reads leaves a credential read off").isEqualTo("denied");

        var enabled = replay.kernel().send("PATCH", "/api/v1/connectors/" + SDDC + "/operations/" + op, replay.admin(),
                "{\"is_enabled\": true}", Map.of());
        assertThat(enabled.status()).as(enabled.body()).isEqualTo(200);
        assertThat(enabled.json().path("op_class").asText()).isEqualTo("credential_read");
        assertThat(enabled.json().path("requires_approval").asBoolean()).isTrue();
        JsonNode parked = replay.call(replay.operator(), SDDC, op, "fleet1", Map.of());
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
    }

    @Test
    void downloadingABundleParksUntilASecondAdminApproves() throws Exception {
        String op = "sddc-manager.bundles.start_bundle_download_by_id";
        Map<String, Object> params = Map.of("id", BUNDLE_ID, "body", Map.of("bundleDownloadSpec",
                Map.of("downloadNow", true)));
        assertThat(check.approvedWrite("fleet1", op, params).toString()).contains("BUNDLE_DOWNLOAD");
        assertThat(vendor.writes()).anyMatch(w -> w.startsWith("sddc-manager ") && w.contains("\"downloadNow\":true"));
    }

    @Test
    void aWrongPasswordIsAuthFailedAndVendorErrorsKeepTheirStatus() throws Exception {
        String wrong = "not-the-sddc-password-42";
        target("fleet-bad", wrong);
        JsonNode rejected = replay.call(replay.operator(), SDDC, "sddc-manager.domains.get_domains", "fleet-bad", Map.of());
        assertThat(errorCode(rejected)).as(rejected.toString()).isEqualTo("connector_auth_failed");
        assertThat(rejected.toString()).doesNotContain(wrong);

        assertThat(check.vendorError("fleet1", "sddc-manager.domains.get_domain", Map.of("id", "ghost"), 404).toString())
                .contains("DOMAIN_NOT_FOUND");
        check.vendorError("fleet1", "sddc-manager.tasks.get_task", Map.of("id", "broken"), 500);
    }

    @Test
    void theFamilyVerbsListTheNounsAndCallThroughTheCli() {
        check.familyVerbs("sddc-manager", List.of("domains", "clusters", "bundles", "upgrades", "releases",
                "credentials"), List.of("domains", "get_domains", "--target", "fleet1"), "sfo-m01");
    }
}
