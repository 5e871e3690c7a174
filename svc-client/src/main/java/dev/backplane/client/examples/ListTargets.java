package dev.backplane.client.examples;

import dev.backplane.client.ApiClient;
import dev.backplane.client.ApiException;
import dev.backplane.client.api.OperationsApi;
import dev.backplane.client.api.TargetsApi;
import dev.backplane.client.model.CallRequest;
import dev.backplane.client.model.ResultEnvelope;
import dev.backplane.client.model.Target;
import dev.backplane.client.model.TargetPage;
import dev.backplane.client.support.SvcClients;
import java.net.URI;
import java.util.Map;

/**
 * The generated client in a few lines (docs/guide/client.md walks through it): lists the tenant's targets, calls an
 * operation on the first one, and shows SPEC's error code of a refused request.
 *
 * <pre>
 * java -cp svc-client.jar:... dev.backplane.client.examples.ListTargets https://svc.example.com "$SVC_TOKEN"
 * </pre>
 */
public final class ListTargets {

    private ListTargets() {
    }

    public static void main(String[] args) throws ApiException {
        // the backplane's base URL and a bearer token from its OIDC issuer (`svc login --print-token URL` prints one)
        ApiClient client = SvcClients.create(URI.create(args[0]), args[1]);
        TargetsApi targets = new TargetsApi(client);

        // list targets, a page at a time (named parameters through the request builder)
        TargetPage page = targets.getTargets(TargetsApi.APIGetTargetsRequest.newBuilder().limit(50).build());
        for (Target t : page.getTargets()) {
            System.out.printf("%-24s %-12s %s:%d%n", t.getName(), t.getProduct(), t.getHost(), t.getPort());
        }
        if (page.getTargets().isEmpty()) {
            return;
        }

        // call an operation through the one pipeline; a parked call answers status awaiting_approval
        ResultEnvelope result = new OperationsApi(client).postOperationsCall(new CallRequest()
                .connectorId("k8s-1.x").opId("k8s.pod.list").target(page.getTargets().getFirst().getName())
                .params(Map.of("namespace", "default")).workRef("CHG-1"), null);
        System.out.println(result.getStatus() + " in " + result.getDurationMs() + " ms");

        // an error answer is an ApiException carrying the ErrorEnvelope: branch on SPEC's code, not the message
        try {
            targets.getTargetsByName("no-such-target", null);
        } catch (ApiException e) {
            String code = SvcClients.errorCode(e);
            if ("target_not_found".equals(code)) {
                System.out.println("HTTP " + e.getCode() + ": " + code);
            } else {
                throw e;
            }
        }
    }
}
