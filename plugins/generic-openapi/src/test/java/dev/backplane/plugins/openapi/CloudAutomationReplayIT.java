package dev.backplane.plugins.openapi;

import static dev.backplane.plugins.openapi.ReplayKernel.errorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cloud-automation family: VCF Automation 9 (a VM Apps organisation, the Aria Automation APIs) ingested
 * by catalog name from the specs shipped in {@code plugin-repo/specs/vcfa/}, over HTTPS with a pinned
 * self-signed certificate, logging in the way VCF Automation 9 documents (the user's API token exchanged
 * at {@code /tm/oauth/tenant/<org>/token} for a bearer access token). The replay server's answers and the
 * catalog request it receives are checked against the vendor's own schemas ({@link SpecContract}).
 */
class CloudAutomationReplayIT {

    private static final String VCFA = "vcfa-9.x";
    private static final Path SPECS = Path.of("../../plugin-repo/specs/vcfa");
    private static final String ORG = "blue";
    private static final String API_TOKEN = "vcfa-api-token-" + UUID.randomUUID();
    private static final String ACCESS = "vcfa-access-" + UUID.randomUUID();
    private static final String PROJECT_ID = "6f1f2bb2-5a8c-4b1e-9a43-0c1b5d3e2a10";
    private static final String ITEM_ID = "1b4a6c3e-8d2f-4f0a-b7e5-9c3d2e1f0a44";
    private static final String DEPLOYMENT_ID = "a3c5e7f9-1b2d-4e6f-8a0b-c2d4e6f8a0b2";
    private static final String REQUEST_ID = "0e9d8c7b-6a5f-4e3d-2c1b-0a9f8e7d6c5b";

    @TempDir
    static Path dir;
    private static SpecContract iaas;
    private static SpecContract catalog;
    private static SpecContract blueprint;
    private static ReplayVendor vendor;
    private static ReplayKernel replay;
    private static ReplayChecks check;

    @BeforeAll
    static void start() throws Exception {
        iaas = SpecContract.read(SPECS.resolve("vra-iaas.json"));
        catalog = SpecContract.read(SPECS.resolve("vra-catalog-deployment.json"));
        blueprint = SpecContract.read(SPECS.resolve("vra-blueprint.json"));
        vendor = ReplayVendor.https(dir, CloudAutomationReplayIT::answer);
        replay = ReplayKernel.start(List.of("vcfa"), Map.of());
        replay.ingest("vcfa/9.x");
        target("auto1", API_TOKEN, Map.of("tls_ca_pin", vendor.pem(), "extras", Map.of("org", ORG)));
        replay.enableReads(VCFA);
        check = new ReplayChecks(replay, vendor, VCFA);
    }

    @AfterAll
    static void stop() {
        ReplayChecks.close(replay, vendor);
    }

    // ---- the replay server ----

    private static final String LINKS = "\"_links\": {\"self\": {\"href\": \"/iaas/api/%s\"}}";
    private static final String ABOUT = """
            {"supportedApis": [{"apiVersion": "2021-07-15", "documentationLink": "/iaas/api/swagger/ui"},
              {"apiVersion": "2019-01-15", "documentationLink": "/iaas/api/swagger/ui?apiVersion=2019-01-15"}],
             "latestApiVersion": "2021-07-15"}""";
    private static final String PROJECTS = """
            {"content": [{"id": "%s", "name": "web-team", "description": "Web front ends",
              "orgId": "c9a1e3b5-7d2f-4e8a-9b1c-3d5e7f9a1b2c", "placementPolicy": "DEFAULT", "sharedResources": true,
              "operationTimeout": 0, "zones": [{"zoneId": "zone-rack-a", "priority": 1, "maxNumberInstances": 20}],
              %s}], "totalElements": 1, "numberOfElements": 1}""".formatted(PROJECT_ID, LINKS.formatted("projects/" + PROJECT_ID));
    private static final String CLOUD_ACCOUNTS = """
            {"content": [{"id": "ca-vcenter-01", "name": "vcenter-wld01", "cloudAccountType": "vsphere",
              "cloudAccountProperties": {"hostName": "vc-wld01.rainpole.io", "privateKeyId": "administrator@vsphere.local"},
              "healthy": true, "inMaintenanceMode": false,
              %s}], "totalElements": 1, "numberOfElements": 1}""".formatted(LINKS.formatted("cloud-accounts/ca-vcenter-01"));
    private static final String ZONES = """
            {"content": [{"id": "zone-rack-a", "name": "wld01 / cluster-a", "placementPolicy": "DEFAULT",
              "externalRegionId": "Datacenter:datacenter-3", "cloudAccountId": "ca-vcenter-01",
              "tagsToMatch": [{"key": "rack", "value": "a"}], %s}], "totalElements": 1, "numberOfElements": 1}"""
            .formatted(LINKS.formatted("zones/zone-rack-a"));
    private static final String MACHINES = """
            {"content": [{"id": "m-web-01", "name": "web-01", "powerState": "ON", "address": "10.20.30.41",
              "externalRegionId": "Datacenter:datacenter-3", "externalZoneId": "domain-c8", "projectId": "%s",
              "deploymentId": "%s", "tags": [{"key": "tier", "value": "web"}], %s}],
             "totalElements": 1, "numberOfElements": 1}""".formatted(PROJECT_ID, DEPLOYMENT_ID,
            LINKS.formatted("machines/m-web-01"));
    private static final String PAGE = """
            "first": true, "last": true, "empty": false, "number": 0, "size": 20, "numberOfElements": 1,
            "totalElements": 1, "totalPages": 1, "sort": {"sorted": false, "unsorted": true, "empty": true}""";
    private static final String DEPLOYMENTS = """
            {"content": [{"id": "%s", "name": "web-prod", "status": "CREATE_SUCCESSFUL", "projectId": "%s",
              "catalogItemId": "%s", "catalogItemVersion": "3", "ownedBy": "jane@rainpole.io",
              "createdAt": "2026-11-20T09:12:00.000Z", "createdBy": "jane@rainpole.io",
              "leaseExpireAt": "2027-02-20T09:12:00.000Z", "inputs": {"flavor": "small", "count": 2}}], %s}"""
            .formatted(DEPLOYMENT_ID, PROJECT_ID, ITEM_ID, PAGE);
    private static final String ITEMS = """
            {"content": [{"id": "%s", "name": "Ubuntu web server", "description": "A hardened Ubuntu 24.04 VM",
              "projectIds": ["%s"], "type": {"id": "com.vmw.blueprint", "name": "VMware Cloud Templates"},
              "sourceName": "web-team templates", "bulkRequestLimit": 5,
              "createdAt": "2026-10-02T12:00:00.000Z", "lastUpdatedAt": "2026-11-01T12:00:00.000Z"}], %s}"""
            .formatted(ITEM_ID, PROJECT_ID, PAGE);
    private static final String REQUEST = """
            {"id": "%s", "name": "Create", "deploymentId": "%s", "requestedBy": "jane@rainpole.io",
             "status": "SUCCESSFUL", "totalTasks": 4, "completedTasks": 4, "cancelable": false,
             "createdAt": "2026-11-20T09:12:00.000Z", "completedAt": "2026-11-20T09:19:30.000Z"}"""
            .formatted(REQUEST_ID, DEPLOYMENT_ID);
    private static final String ACTIONS = """
            [{"id": "Deployment.PowerOff", "name": "PowerOff", "displayName": "Power Off", "valid": true,
              "actionType": "RESOURCE_ACTION", "projectId": "%s"},
             {"id": "Deployment.ChangeLease", "name": "ChangeLease", "displayName": "Change Lease", "valid": true,
              "actionType": "RESOURCE_ACTION", "projectId": "%s"}]""".formatted(PROJECT_ID, PROJECT_ID);
    private static final String BLUEPRINTS = """
            {"content": [{"id": "bp-ubuntu-web", "name": "ubuntu-web", "projectId": "%s", "projectName": "web-team",
              "status": "RELEASED", "totalVersions": 3, "totalReleasedVersions": 1, "valid": true,
              "requestScopeOrg": false, "selfLink": "/blueprint/api/blueprints/bp-ubuntu-web",
              "updatedAt": "2026-11-01T12:00:00.000Z", "updatedBy": "jane@rainpole.io"}], %s}"""
            .formatted(PROJECT_ID, PAGE);
    private static final String NOT_FOUND = """
            {"message": "Machine with id 'm-gone' not found", "statusCode": 404, "errorCode": 20005}""";

    private static void answer(ReplayVendor.Exchange x) throws Exception {
        if (x.path().startsWith("/tm/oauth/tenant/")) {
            login(x);
            return;
        }
        if (!x.header("Authorization").equals("Bearer " + ACCESS)) {
            x.reply(401, "{\"message\": \"Unauthorized\", \"statusCode\": 401}");
            return;
        }
        switch (x.route()) {
            case "GET /iaas/api/about" -> x.reply(200, iaas.response("GET", "/iaas/api/about", ABOUT));
            case "GET /iaas/api/projects" -> x.reply(200, iaas.response("GET", "/iaas/api/projects", PROJECTS));
            case "GET /iaas/api/cloud-accounts" -> x.reply(200,
                    iaas.response("GET", "/iaas/api/cloud-accounts", CLOUD_ACCOUNTS));
            case "GET /iaas/api/zones" -> x.reply(200, iaas.response("GET", "/iaas/api/zones", ZONES));
            case "GET /iaas/api/machines" -> x.reply(200, iaas.response("GET", "/iaas/api/machines", MACHINES));
            case "GET /iaas/api/machines/m-gone" -> x.reply(404, NOT_FOUND);
            case "GET /iaas/api/zones/zone-down" -> x.reply(503, "{\"message\": \"Service Unavailable\", \"statusCode\": 503}");
            case "GET /deployment/api/deployments" -> x.reply(200,
                    catalog.response("GET", "/deployment/api/deployments", DEPLOYMENTS));
            case "GET /deployment/api/deployments/" + DEPLOYMENT_ID + "/actions" -> x.reply(200,
                    catalog.response("GET", "/deployment/api/deployments/{deploymentId}/actions", ACTIONS));
            case "GET /deployment/api/requests/" + REQUEST_ID -> x.reply(200,
                    catalog.response("GET", "/deployment/api/requests/{requestId}", REQUEST));
            case "GET /catalog/api/items" -> x.reply(200, catalog.response("GET", "/catalog/api/items", ITEMS));
            case "POST /catalog/api/items/" + ITEM_ID + "/request" -> {
                catalog.request("POST", "/catalog/api/items/{id}/request", x.body());
                x.recordWrite("vcfa");
                x.reply(200, catalog.response("POST", "/catalog/api/items/{id}/request",
                        "[{\"deploymentId\": \"" + UUID.randomUUID() + "\", \"deploymentName\": \"web-canary\"}]"));
            }
            case "GET /blueprint/api/blueprints" -> x.reply(200,
                    blueprint.response("GET", "/blueprint/api/blueprints", BLUEPRINTS));
            default -> x.reply(404, "{\"message\": \"no route " + x.route() + "\", \"statusCode\": 404}");
        }
    }

    /** VCF Automation 9's token endpoint: an OAuth refresh grant of the API token, per organisation. */
    private static void login(ReplayVendor.Exchange x) throws Exception {
        Map<String, String> form = new HashMap<>();
        for (String pair : x.bodyText().split("&")) {
            String[] kv = pair.split("=", 2);
            form.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                    kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
        }
        boolean ok = x.route().equals("POST /tm/oauth/tenant/" + ORG + "/token")
                && x.header("Content-Type").startsWith("application/x-www-form-urlencoded")
                && "refresh_token".equals(form.get("grant_type")) && API_TOKEN.equals(form.get("refresh_token"));
        x.reply(ok ? 200 : 400, ok ? "{\"access_token\": \"" + ACCESS + "\", \"token_type\": \"Bearer\", \"expires_in\": 1800}"
                : "{\"error\": \"invalid_grant\", \"error_description\": \"refresh token is invalid\"}");
    }

    // ---- the tests ----

    private static void target(String name, String apiToken, Map<String, Object> fields) {
        replay.target(name, "vcfa", vendor, Map.of("api_token", apiToken), fields);
    }

    private static JsonNode read(String opId, Map<String, Object> params) throws Exception {
        return check.read("auto1", opId, params);
    }

    @Test
    void theContractCatchesAMachineOrCatalogItemThatDriftsFromTheSpec() {
        assertThatThrownBy(() -> iaas.response("GET", "/iaas/api/machines", """
                {"content": [{"id": "m-1", "externalRegionId": "r", "powerState": "RUNNING", "_links": {}}]}"""))
                .isInstanceOf(AssertionError.class).hasMessageContaining("powerState");
        assertThatThrownBy(() -> catalog.response("GET", "/catalog/api/items", "{\"content\": [{\"name\": \"no id\"}]}"))
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void everyCuratedGroupReadsThroughTheKernel() throws Exception {
        var groups = replay.kernel().get("/api/v1/connectors/" + VCFA + "/groups", replay.operator());
        assertThat(groups.body()).contains("Cloud zones and regions").contains("Blueprints (cloud templates)")
                .contains("Day-2 actions");

        assertThat(read("vcfa.about.get_about_page", Map.of()).toString()).contains("2021-07-15");
        assertThat(read("vcfa.project.get_projects", Map.of()).toString()).contains("web-team");
        assertThat(read("vcfa.cloud_account.get_cloud_accounts", Map.of()).toString()).contains("vc-wld01.rainpole.io");
        assertThat(read("vcfa.location.get_zones", Map.of()).toString()).contains("wld01 / cluster-a");
        assertThat(read("vcfa.compute.get_machines", Map.of("top", 20)).toString()).contains("web-01")
                .contains("10.20.30.41");
        assertThat(read("vcfa.deployments.get_deployments_v3_using_get", Map.of()).toString()).contains("web-prod")
                .contains("CREATE_SUCCESSFUL");
        assertThat(read("vcfa.deployment_actions.get_deployment_actions_using_get_2",
                Map.of("deploymentId", DEPLOYMENT_ID)).toString()).contains("Deployment.PowerOff");
        assertThat(read("vcfa.catalog_items.get_catalog_items_using_get_5", Map.of()).toString())
                .contains("Ubuntu web server");
        assertThat(read("vcfa.requests.get_request_using_get_2", Map.of("requestId", REQUEST_ID)).toString())
                .contains("SUCCESSFUL");
        assertThat(read("vcfa.blueprint.list_blueprints_using_get_1", Map.of()).toString()).contains("ubuntu-web");
        assertThat(replay.auditOf("auto1")).contains("get_machines").doesNotContain(ACCESS);
    }

    @Test
    void requestingACatalogItemParksUntilASecondAdminApproves() throws Exception {
        String op = "vcfa.catalog_items.request_catalog_item_instances_using_post_1";
        Map<String, Object> params = Map.of("id", ITEM_ID, "body", Map.of("deploymentName", "web-canary",
                "projectId", PROJECT_ID, "version", "3", "reason", "CHG-9 canary", "inputs", Map.of("flavor", "small")));
        assertThat(check.approvedWrite("auto1", op, params).toString()).contains("web-canary");
        assertThat(vendor.writes()).anyMatch(w -> w.startsWith("vcfa ") && w.contains("\"deploymentName\":\"web-canary\"")
                && w.contains("\"projectId\":\"" + PROJECT_ID + "\""));
    }

    @Test
    void aRevokedApiTokenIsAuthFailedAndNeverEchoed() throws Exception {
        String revoked = "vcfa-revoked-token-" + UUID.randomUUID();
        target("auto-revoked", revoked, Map.of("tls_ca_pin", vendor.pem(), "extras", Map.of("org", ORG)));
        JsonNode r = replay.call(replay.operator(), VCFA, "vcfa.about.get_about_page", "auto-revoked", Map.of());
        assertThat(errorCode(r)).as(r.toString()).isEqualTo("connector_auth_failed");
        assertThat(r.toString()).doesNotContain(revoked);
        assertThat(replay.auditOf("auto-revoked")).doesNotContain(revoked);
    }

    @Test
    void vendorErrorsMapToConnectorErrorWithTheVendorStatus() throws Exception {
        assertThat(check.vendorError("auto1", "vcfa.compute.get_machine", Map.of("id", "m-gone"), 404).toString())
                .contains("not found");
        check.vendorError("auto1", "vcfa.location.get_zone", Map.of("id", "zone-down"), 503);
    }

    @Test
    void anUnpinnedCertificateIsRefusedAndATargetWithoutItsOrganisationIsToldWhatIsMissing() throws Exception {
        target("auto-unpinned", API_TOKEN, Map.of("extras", Map.of("org", ORG)));
        int served = vendor.served();
        JsonNode refused = replay.call(replay.operator(), VCFA, "vcfa.about.get_about_page", "auto-unpinned", Map.of());
        assertThat(errorCode(refused)).as(refused.toString()).isEqualTo("connector_tls_verify_failed");
        assertThat(vendor.served()).as("no request got past the handshake").isEqualTo(served);

        target("auto-no-org", API_TOKEN, Map.of("tls_ca_pin", vendor.pem()));
        JsonNode noOrg = replay.call(replay.operator(), VCFA, "vcfa.about.get_about_page", "auto-no-org", Map.of());
        assertThat(errorCode(noOrg)).as(noOrg.toString()).isEqualTo("connector_error");
        assertThat(noOrg.toString()).contains("extras.org");
    }

    @Test
    void theFamilyVerbsListTheNounsAndCallThroughTheCli() {
        check.familyVerbs("vcfa", List.of("compute", "deployments", "catalog_items", "blueprint", "location"),
                List.of("compute", "get_machines", "--target", "auto1", "--work-ref", "CHG-9"), "web-01");
    }
}
