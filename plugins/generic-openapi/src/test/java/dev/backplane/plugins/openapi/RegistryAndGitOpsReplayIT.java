package dev.backplane.plugins.openapi;

import static dev.backplane.plugins.openapi.ReplayKernel.errorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The container-registry (Harbor v2) and GitOps-controller (Argo CD) families as ingested vendor
 * specs: both specs from {@code ../shared/specs/} (read in place) are ingested by catalog name with
 * the auth scheme the shipped catalog index gives them, and driven through a real kernel against a
 * loopback server replaying hand-built vendor answers, each checked against the vendor spec's own
 * schemas ({@link SpecContract}) so the fixtures cannot drift from the real API.
 */
class RegistryAndGitOpsReplayIT {

    private static final String HARBOR = RegistryAndGitOpsReplay.HARBOR;
    private static final String ARGOCD = RegistryAndGitOpsReplay.ARGOCD;
    private static final String PASSWORD = "vendor-pw-" + UUID.randomUUID();
    private static final String ARGO_TOKEN = "argo-session-" + UUID.randomUUID();
    private static RegistryAndGitOpsReplay fixture;
    private static SpecContract harbor;
    private static SpecContract argo;
    private static ReplayVendor vendor;
    private static ReplayKernel replay;

    @BeforeAll
    static void start() throws Exception {
        fixture = RegistryAndGitOpsReplay.start(RegistryAndGitOpsReplayIT::answer);
        harbor = fixture.harbor();
        argo = fixture.argo();
        vendor = fixture.vendor();
        replay = fixture.replay();
    }

    @AfterAll
    static void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    // ---- the replay server ----

    private static final String PROJECTS = """
            [{"project_id": 1, "name": "library", "owner_name": "admin", "repo_count": 2,
              "creation_time": "2026-11-01T10:00:00.000Z", "update_time": "2026-11-02T10:00:00.000Z",
              "metadata": {"public": "true", "auto_scan": "true"}}]""";
    private static final String REPOSITORIES = """
            [{"id": 7, "project_id": 1, "name": "library/nginx", "artifact_count": 3, "pull_count": 42,
              "creation_time": "2026-11-01T10:00:00.000Z", "update_time": "2026-11-20T08:00:00.000Z"}]""";
    private static final String SYSTEMINFO = """
            {"harbor_version": "v2.13.1-1234abcd", "auth_mode": "db_auth", "primary_auth_mode": false,
             "self_registration": false, "has_ca_root": false, "read_only": false}""";
    private static final String APPLICATIONS = """
            {"metadata": {"resourceVersion": "123"}, "items": [{"metadata": {"name": "guestbook", "namespace": "argocd"},
              "spec": {"project": "default", "source": {"repoURL": "https://github.com/argoproj/argocd-example-apps",
                "path": "guestbook", "targetRevision": "HEAD"},
                "destination": {"server": "https://kubernetes.default.svc", "namespace": "default"}},
              "status": {"sync": {"status": "OutOfSync", "revision": "4f7a2c1"}, "health": {"status": "Healthy"}}}]}""";
    private static final String VERSION = """
            {"Version": "v3.1.8+becb020", "BuildDate": "2026-10-01T00:00:00Z", "GoVersion": "go1.24.6"}""";

    private static void answer(ReplayVendor.Exchange x) throws Exception {
        if (x.path().startsWith("/api/v2.0/")) {
            if (RegistryAndGitOpsReplay.refusedByHarbor(x, PASSWORD)) {
                return;
            }
            switch (x.route()) {
                case "GET /api/v2.0/projects" -> x.reply(200, harbor.response("GET", "/projects", PROJECTS));
                case "GET /api/v2.0/projects/library/repositories" -> x.reply(200,
                        harbor.response("GET", "/projects/{project_name}/repositories", REPOSITORIES));
                case "GET /api/v2.0/systeminfo" -> x.reply(200, harbor.response("GET", "/systeminfo", SYSTEMINFO));
                case "POST /api/v2.0/projects" -> {
                    harbor.request("POST", "/projects", x.body());
                    x.recordWrite("harbor");
                    x.reply(201, "", Map.of("Location", "/api/v2.0/projects/2"));
                }
                default -> x.reply(404, "{\"errors\": [{\"code\": \"NOT_FOUND\", \"message\": \"no route\"}]}");
            }
            return;
        }
        if (fixture.answeredByArgoSession(x, PASSWORD, ARGO_TOKEN)) {
            return;
        }
        switch (x.route()) {
            case "GET /api/v1/applications" -> x.reply(200, argo.response("GET", "/api/v1/applications", APPLICATIONS));
            case "GET /api/version" -> x.reply(200, argo.response("GET", "/api/version", VERSION));
            case "POST /api/v1/applications/guestbook/sync" -> {
                argo.request("POST", "/api/v1/applications/{name}/sync", x.body());
                x.recordWrite("argocd");
                String app = new com.fasterxml.jackson.databind.ObjectMapper().readTree(APPLICATIONS).path("items").get(0)
                        .toString();
                x.reply(200, argo.response("POST", "/api/v1/applications/{name}/sync", app));
            }
            default -> x.reply(404, "{\"error\": \"not found\", \"code\": 5}");
        }
    }

    // ---- the tests ----

    /**
     * Registers {@code good} with the vendor's password and {@code bad} with a wrong one, and enables the
     * connector's reads; the operator's token.
     */
    private static String targets(String product, String connectorId, String good, String bad) {
        replay.target(good, product, vendor, Map.of("username", "admin", "password", PASSWORD), Map.of());
        replay.target(bad, product, vendor, Map.of("username", "admin", "password", "not-the-password-42"), Map.of());
        replay.enableReads(connectorId);
        return replay.operator();
    }

    @Test
    void theContractCheckCatchesAFixtureThatDriftsFromTheSpec() {
        assertThatThrownBy(() -> harbor.response("GET", "/systeminfo", "{\"primary_auth_mode\": \"yes\"}"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("boolean");
        assertThatThrownBy(() -> argo.response("GET", "/api/v1/applications", "{\"items\": {\"not\": \"a list\"}}"))
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void harborReadsCreateAProjectOnApprovalAndRejectABadPassword() throws Exception {
        String operator = targets("harbor", HARBOR, "reg1", "reg-bad");

        var groups = replay.kernel().get("/api/v1/connectors/" + HARBOR + "/groups", operator);
        assertThat(groups.body()).as("the index's curated groups replace the tag names").contains("Projects")
                .contains("Images and other artifacts");
        JsonNode projects = replay.call(operator, HARBOR, "harbor.project.list_projects", "reg1", Map.of());
        assertThat(projects.path("status").asText()).as(projects.toString()).isEqualTo("ok");
        assertThat(projects.toString()).contains("library");
        JsonNode repos = replay.call(operator, HARBOR, "harbor.repository.list_repositories", "reg1",
                Map.of("project_name", "library"));
        assertThat(repos.toString()).as(repos.toString()).contains("library/nginx");
        JsonNode info = replay.call(operator, HARBOR, "harbor.systeminfo.get_system_info", "reg1", Map.of());
        assertThat(info.toString()).contains("v2.13.1");

        // svc harbor project list: the family verb's short name reaches harbor.project.list_projects
        new ReplayChecks(replay, vendor, HARBOR).familyVerbs("harbor", java.util.List.of("project", "repository",
                "systeminfo"), java.util.List.of("project", "list", "--target", "reg1"), "library");

        JsonNode rejected = replay.call(operator, HARBOR, "harbor.project.list_projects", "reg-bad", Map.of());
        assertThat(errorCode(rejected)).isEqualTo("connector_auth_failed");

        new ReplayChecks(replay, vendor, HARBOR).approvedWrite("reg1", "harbor.project.create_project",
                Map.of("body", Map.of("project_name", "team-a", "metadata", Map.of("public", "false"))));
        assertThat(vendor.writes()).anyMatch(w -> w.startsWith("harbor ") && w.contains("\"project_name\":\"team-a\""));
        JsonNode badBody = replay.call(operator, HARBOR, "harbor.project.create_project", "reg1",
                Map.of("body", Map.of("project_name", 42)));
        assertThat(errorCode(badBody)).isEqualTo("invalid_params");
    }

    @Test
    void argoCdLogsInListsApplicationsAndSyncsOnApproval() throws Exception {
        String operator = targets("argocd", ARGOCD, "gitops1", "gitops-bad");

        JsonNode apps = replay.call(operator, ARGOCD, "argocd.applicationservice.application_service_list", "gitops1",
                Map.of());
        assertThat(apps.path("status").asText()).as(apps.toString()).isEqualTo("ok");
        assertThat(apps.toString()).contains("guestbook").contains("OutOfSync");
        JsonNode version = replay.call(operator, ARGOCD, "argocd.versionservice.version_service_version", "gitops1",
                Map.of());
        assertThat(version.toString()).contains("v3.1.8");

        // svc argocd application list, and the operationId spelling it had before
        ReplayChecks checks = new ReplayChecks(replay, vendor, ARGOCD);
        checks.familyVerbs("argocd", java.util.List.of("application", "applicationservice", "repository"),
                java.util.List.of("application", "list", "--target", "gitops1"), "guestbook");
        checks.familyVerbs("argocd", java.util.List.of("application"), java.util.List.of("applicationservice",
                "application_service_list", "--target", "gitops1"), "guestbook");

        JsonNode rejected = replay.call(operator, ARGOCD, "argocd.versionservice.version_service_version", "gitops-bad",
                Map.of());
        assertThat(errorCode(rejected)).as(rejected.toString()).isEqualTo("connector_auth_failed");

        new ReplayChecks(replay, vendor, ARGOCD).approvedWrite("gitops1",
                "argocd.applicationservice.application_service_sync",
                Map.of("name", "guestbook", "body", Map.of("revision", "HEAD", "prune", true)));
        assertThat(vendor.writes()).anyMatch(w -> w.startsWith("argocd ") && w.contains("\"prune\":true"));

        assertThat(replay.auditOf("gitops1")).contains("application_service_sync").contains("CHG-9")
                .doesNotContain(ARGO_TOKEN);
    }
}
