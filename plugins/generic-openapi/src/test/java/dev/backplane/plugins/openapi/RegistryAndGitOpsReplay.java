package dev.backplane.plugins.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * Harbor and Argo CD as the replay tests of these two families meet them: both specs read in place from
 * {@code ../shared/specs} (the test class is skipped when they are not there), a loopback vendor around the
 * test's handler, a {@link ReplayKernel} with both ingested by catalog name, and the vendors' auth — Harbor's
 * HTTP Basic, Argo CD's session login and bearer token — answered the same way for every test.
 *
 * @param harbor Harbor's spec, for checking requests and answers against it
 * @param argo Argo CD's spec, likewise
 * @param vendor the loopback vendor
 * @param replay the kernel with both families ingested
 */
record RegistryAndGitOpsReplay(SpecContract harbor, SpecContract argo, ReplayVendor vendor, ReplayKernel replay)
        implements AutoCloseable {

    static final String HARBOR = "harbor-2.x";
    static final String ARGOCD = "argocd-3.x";

    /** {@code handler} may read the returned fixture's contracts: no request reaches it before a test runs. */
    static RegistryAndGitOpsReplay start(ReplayVendor.Handler handler) throws Exception {
        Path harborSpec = ReplayKernel.sharedSpec("harbor-v2.0-swagger.yaml");
        Path argoSpec = ReplayKernel.sharedSpec("argocd-swagger.json");
        Assumptions.assumeTrue(harborSpec != null && argoSpec != null, "../shared/specs is not beside the "
                + "repository; this test reads the vendor specs in place");
        SpecContract harbor = SpecContract.read(harborSpec);
        SpecContract argo = SpecContract.read(argoSpec);
        ReplayVendor vendor = ReplayVendor.http(handler);
        ReplayKernel replay = null;
        try {
            replay = ReplayKernel.start(List.of("harbor", "argocd"), Map.of("harbor", harborSpec, "argocd", argoSpec));
            replay.ingest("harbor/2.x");
            replay.ingest("argocd/3.x");
            return new RegistryAndGitOpsReplay(harbor, argo, vendor, replay);
        } catch (Exception | AssertionError e) {
            ReplayChecks.close(replay, vendor); // a half-started fixture leaves no kernel behind
            throw e;
        }
    }

    /** Refuses (401) a Harbor request without Basic for admin:{@code password}; true when it did. */
    static boolean refusedByHarbor(ReplayVendor.Exchange x, String password) throws Exception {
        if (x.basic("admin", password)) {
            return false;
        }
        x.reply(401, "{\"errors\": [{\"code\": \"UNAUTHORIZED\", \"message\": \"unauthorized\"}]}");
        return true;
    }

    /**
     * Answers Argo CD's session login (admin:{@code password} gets {@code token}) and refuses (401) any other
     * request without that bearer token; true when it answered.
     */
    boolean answeredByArgoSession(ReplayVendor.Exchange x, String password, String token) throws Exception {
        if (x.route().equals("POST /api/v1/session")) {
            argo.request("POST", "/api/v1/session", x.body());
            JsonNode login = x.json();
            boolean ok = login.path("username").asText().equals("admin") && login.path("password").asText().equals(password);
            x.reply(ok ? 200 : 401, ok ? argo.response("POST", "/api/v1/session", "{\"token\": \"" + token + "\"}")
                    : "{\"error\": \"Invalid username or password\", \"code\": 16}");
            return true;
        }
        if (!x.header("Authorization").equals("Bearer " + token)) {
            x.reply(401, "{\"error\": \"no session information\", \"code\": 16}");
            return true;
        }
        return false;
    }

    @Override
    public void close() {
        ReplayChecks.close(replay, vendor);
    }
}
