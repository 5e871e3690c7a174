package dev.backplane.plugins.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestPlannerTest {

    static final String USER_SCHEMA = """
            {"type":"object","required":["realm","id"],"properties":{
              "realm":{"type":"string","x-svc-in":"path"},
              "id":{"type":"string","x-svc-in":"path","x-svc-name":"user-id"},
              "first":{"type":"integer","x-svc-in":"query"},
              "brief":{"type":"boolean","x-svc-in":"query","x-svc-name":"briefRepresentation"},
              "tags":{"type":"array","items":{"type":"string"},"x-svc-in":"query","x-svc-name":"tag"},
              "request_id":{"type":"string","x-svc-in":"header","x-svc-name":"X-Request-Id"},
              "body":{"type":"object","x-svc-in":"body"}}}""";

    /** Params for every property of {@link #USER_SCHEMA} (the planner places them in the schema's order). */
    static Map<String, Object> userParams(String realm, String id, int first, boolean brief, List<String> tags,
                                          String requestId, Map<String, Object> body) {
        return Map.of("realm", realm, "id", id, "first", first, "brief", brief, "tags", tags, "request_id", requestId,
                "body", body);
    }

    private final RequestPlanner planner = new RequestPlanner("/admin/realms");

    private PlannedRequest plan(OperationDescriptor op, Map<String, Object> params) {
        return planner.plan(op.opId(), (OperationShape.Http) op.shape(), ParamPlan.of(op), params);
    }

    @Test
    void aVendorsAcceptHeaderIsSentByDefaultAndTheCallersValueWins() {
        OperationDescriptor op = Specs.op("acme.repo.get", "GET", "/repos/{id}", ResultKind.OBJECT, """
                {"type":"object","required":["id"],"properties":{
                  "id":{"type":"string","x-svc-in":"path"},
                  "Accept":{"type":"string","x-svc-in":"header","default":"application/vnd.acme.v3+json"},
                  "trace":{"type":"string","x-svc-in":"header","x-svc-name":"X-Trace","default":"on"}}}""");
        assertThat(plan(op, Map.of("id", "1")).headers())
                .as("the Accept default is sent; another header's default is the server's to assume")
                .containsExactly(Map.entry("Accept", "application/vnd.acme.v3+json"));
        assertThat(plan(op, Map.of("id", "1", "Accept", "application/vnd.acme.v4+json")).headers())
                .containsExactly(Map.entry("Accept", "application/vnd.acme.v4+json"));
    }

    @Test
    void pathQueryHeaderAndJsonBodyGoWhereTheSchemaSays() {
        OperationDescriptor op = Specs.op("acme.user.update", "PUT", "/{realm}/users/{user-id}", ResultKind.OBJECT,
                USER_SCHEMA);
        PlannedRequest r = plan(op, userParams("master realm/1", "ü-42", 10, true, List.of("a b", "c&d"), "req-7",
                Map.of("enabled", false)));

        assertThat(r.method()).isEqualTo("PUT");
        assertThat(r.path()).isEqualTo("/admin/realms/master%20realm%2F1/users/%C3%BC-42");
        assertThat(r.query()).containsExactly(Map.entry("first", List.of("10")),
                Map.entry("briefRepresentation", List.of("true")), Map.entry("tag", List.of("a b", "c&d")));
        assertThat(r.pathAndQuery()).endsWith("?first=10&briefRepresentation=true&tag=a%20b&tag=c%26d");
        assertThat(r.headers()).containsExactly(Map.entry("X-Request-Id", "req-7"));
        assertThat(r.body()).isPresent();
        assertThat(r.body().get().contentType()).isEqualTo("application/json");
        assertThat(new String(r.body().get().encode(), StandardCharsets.UTF_8)).isEqualTo("{\"enabled\":false}");
    }

    @Test
    void absentOptionalParamsAreLeftOut() {
        OperationDescriptor op = Specs.op("acme.user.get", "GET", "/{realm}/users/{user-id}", ResultKind.OBJECT,
                USER_SCHEMA);
        PlannedRequest r = plan(op, Map.of("realm", "master", "id", "u1"));
        assertThat(r.pathAndQuery()).isEqualTo("/admin/realms/master/users/u1");
        assertThat(r.headers()).isEmpty();
        assertThat(r.body()).isEmpty();
    }

    @Test
    void aMissingPathParamIsInvalidParams() {
        OperationDescriptor op = Specs.op("acme.user.get", "GET", "/{realm}/users/{user-id}", ResultKind.OBJECT,
                USER_SCHEMA);
        assertThatThrownBy(() -> plan(op, Map.of("realm", "master")))
                .isInstanceOfSatisfying(ConnectorException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PARAMS);
                    assertThat(e.getMessage()).contains("user-id");
                });
    }

    @Test
    void theRootTemplateIsTheBasePathItself() {
        OperationDescriptor op = Specs.op("acme.realm.list", "GET", "/", ResultKind.SET, Specs.NO_PARAMS);
        assertThat(plan(op, Map.of()).path()).isEqualTo("/admin/realms");
        assertThat(new RequestPlanner("").plan(op.opId(), (OperationShape.Http) op.shape(), ParamPlan.of(op), Map.of())
                .path()).isEqualTo("/");
    }

    @Test
    void aFormBodyIsFormEncoded() {
        OperationDescriptor op = Specs.op("acme.token.create", "POST", "/token", ResultKind.OBJECT, """
                {"type":"object","properties":{"form":{"type":"object","x-svc-in":"body",
                 "x-svc-content-type":"application/x-www-form-urlencoded"}}}""");
        Map<String, Object> form = new LinkedHashMap<>();
        form.put("grant_type", "password");
        form.put("scope", List.of("openid", "email"));
        form.put("note", "a b&c");
        PlannedRequest r = plan(op, Map.of("form", form));
        assertThat(r.body().get().contentType()).isEqualTo("application/x-www-form-urlencoded");
        assertThat(new String(r.body().get().encode(), StandardCharsets.UTF_8))
                .isEqualTo("grant_type=password&scope=openid&scope=email&note=a+b%26c");
    }

    @Test
    void aTextBodyIsSentVerbatim() {
        OperationDescriptor op = Specs.op("acme.policy.put", "PUT", "/policy", ResultKind.OBJECT, """
                {"type":"object","properties":{"policy":{"type":"string","x-svc-in":"body",
                 "x-svc-content-type":"text/plain"}}}""");
        PlannedRequest r = plan(op, Map.of("policy", "path \"x\" { capabilities = [\"read\"] }"));
        assertThat(new String(r.body().get().encode(), StandardCharsets.UTF_8))
                .isEqualTo("path \"x\" { capabilities = [\"read\"] }");
    }

    @Test
    void severalBodyPropertiesMakeOneObjectAndUndeclaredPlacesFollowTheTemplate() {
        OperationDescriptor op = Specs.op("acme.thing.create", "POST", "/things/{kind}", ResultKind.OBJECT, """
                {"type":"object","properties":{
                  "kind":{"type":"string"},
                  "limit":{"type":"number"},
                  "name":{"type":"string","x-svc-in":"body"},
                  "size":{"type":"integer","x-svc-in":"body","x-svc-name":"sizeGb"}}}""");
        PlannedRequest r = plan(op, Map.of("kind", "disk", "limit", 5.0, "name", "d1", "size", 20));
        assertThat(r.path()).isEqualTo("/admin/realms/things/disk");
        assertThat(r.query()).containsExactly(Map.entry("limit", List.of("5")));
        assertThat(r.body().get().value()).isEqualTo(Map.of("name", "d1", "sizeGb", 20));
    }

    @Test
    void anUnknownLocationIsAConnectorError() {
        OperationDescriptor op = Specs.op("acme.odd.get", "GET", "/odd", ResultKind.OBJECT,
                "{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\",\"x-svc-in\":\"matrix\"}}}");
        assertThatThrownBy(() -> ParamPlan.of(op)).isInstanceOfSatisfying(ConnectorException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_ERROR));
    }
}
