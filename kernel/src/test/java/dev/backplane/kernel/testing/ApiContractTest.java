package dev.backplane.kernel.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.backplane.kernel.testing.ApiContract.Exchange;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The contract checker itself: conforming exchanges pass, drift of every kind is named. */
class ApiContractTest {

    private static final String DOC = """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /api/v1/things:
                post:
                  requestBody:
                    required: true
                    content: {application/json: {schema: {$ref: "#/components/schemas/ThingInput"}}}
                  responses:
                    "201": {description: made, content: {application/json: {schema: {$ref: "#/components/schemas/Thing"}}}}
                    "422": {$ref: "#/components/responses/Error"}
              /api/v1/things/{id}:
                get:
                  responses:
                    "200": {description: one, content: {application/json: {schema: {$ref: "#/components/schemas/Thing"}}}}
              /api/v1/things/stream:
                get:
                  responses:
                    "200": {description: events, content: {text/event-stream: {schema: {type: string}}}}
            components:
              responses:
                Error: {description: error, content: {application/json: {schema: {$ref: "#/components/schemas/ErrorEnvelope"}}}}
              schemas:
                ThingInput:
                  type: object
                  required: [name]
                  properties: {name: {type: string, maxLength: 10}}
                Thing:
                  type: object
                  required: [id, name, note]
                  properties:
                    id: {type: string}
                    name: {type: string}
                    note: {type: string, nullable: true}
                    owner: {$ref: "#/components/schemas/ThingInput", nullable: true}
                ErrorEnvelope:
                  type: object
                  required: [error, message, extras]
                  properties: {error: {type: string}, message: {type: string}, extras: {type: object}}
            """;

    private final ApiContract contract;

    ApiContractTest() throws Exception {
        contract = ApiContract.of(new YAMLMapper().readTree(DOC));
    }

    private static Exchange json(String method, String path, String request, int status, String response) {
        return new Exchange(method, path, request, status, "application/json", response);
    }

    @Test
    void aConformingExchangePasses() {
        assertThat(contract.violations(json("GET", "/api/v1/things/7?verbose=true", null, 200,
                "{\"id\":\"7\",\"name\":\"a\",\"note\":null,\"owner\":null,\"extra\":1}"))).isEmpty();
        assertThat(contract.violations(json("POST", "/api/v1/things", "{\"name\":\"a\"}", 201,
                "{\"id\":\"7\",\"name\":\"a\",\"note\":\"n\",\"owner\":{\"name\":\"b\"}}"))).isEmpty();
        assertThat(contract.violations(new Exchange("GET", "/api/v1/things/stream", null, 200,
                "text/event-stream;charset=UTF-8", "data: {}\n\n"))).as("a literal segment wins").isEmpty();
    }

    @Test
    void aDriftingResponseBodyIsCaught() {
        assertThat(contract.violations(json("GET", "/api/v1/things/7", null, 200, "{\"id\":7,\"name\":\"a\"}")))
                .anySatisfy(v -> assertThat(v).startsWith("response /id"))
                .anySatisfy(v -> assertThat(v).contains("note"));
        assertThat(contract.violations(json("POST", "/api/v1/things", "{\"name\":\"a\"}", 201,
                "{\"id\":\"7\",\"name\":\"a\",\"note\":null,\"owner\":{\"name\":5}}")))
                .anySatisfy(v -> assertThat(v).startsWith("response /owner/name: integer found"));
        assertThat(contract.violations(new Exchange("GET", "/api/v1/things/stream", null, 200, "application/json", "{}")))
                .singleElement().asString().contains("content type 'application/json' is not among [text/event-stream]");
    }

    @Test
    void anErrorIsHeldToTheEnvelopeAndAnUndocumentedStatusIsCaught() {
        assertThat(contract.violations(json("POST", "/api/v1/things", "{\"name\":5}", 422,
                "{\"error\":\"invalid\",\"message\":\"m\",\"extras\":{}}"))).as("a refused request is not checked").isEmpty();
        assertThat(contract.violations(json("POST", "/api/v1/things", "{}", 422, "{\"error\":\"invalid\"}")))
                .anySatisfy(v -> assertThat(v).contains("message"));
        assertThat(contract.violations(json("GET", "/api/v1/things/7", null, 403, "{\"error\":\"e\",\"message\":\"m\",\"extras\":{}}")))
                .containsExactly("status 403 is not documented for GET /api/v1/things/{id}");
    }

    @Test
    void anAcceptedRequestIsHeldToTheRequestSchemaUnlessTheTestOptsOut() throws Exception {
        Exchange tooLong = json("POST", "/api/v1/things", "{\"name\":\"far too long a name\"}", 201,
                "{\"id\":\"7\",\"name\":\"a\",\"note\":null}");
        assertThat(contract.violations(tooLong)).singleElement().asString().startsWith("request /name");
        assertThat(contract.violations(json("POST", "/api/v1/things", null, 201, "{\"id\":\"7\",\"name\":\"a\",\"note\":null}")))
                .containsExactly("accepted no request body where the document requires one");
        try (var ignored = ApiContract.acceptingInvalidRequests()) {
            assertThat(contract.violations(tooLong)).isEmpty();
        }
        assertThat(contract.violations(tooLong)).isNotEmpty();
    }

    @Test
    void anUndocumentedRouteOrMethodIsCaught() {
        assertThat(contract.violations(json("GET", "/api/v1/widgets", null, 200, "{}")))
                .containsExactly("route not in the OpenAPI document");
        assertThat(contract.violations(json("DELETE", "/api/v1/things/7", null, 204, null)))
                .containsExactly("DELETE is not documented for /api/v1/things/{id}");
        assertThat(contract.violations(json("GET", "/api/v1/widgets", null, 404,
                "{\"error\":\"not_found\",\"message\":\"m\",\"extras\":{}}"))).as("nobody serves it").isEmpty();
        assertThat(contract.violations(new Exchange("GET", "/ui/kb", null, 200, "text/html", "<html>")))
                .as("the console is outside the document").isEmpty();
        assertThatThrownBy(() -> contract.check(json("GET", "/api/v1/widgets", null, 200, "{}")))
                .hasMessage("OpenAPI contract: GET /api/v1/widgets -> 200: route not in the OpenAPI document");
    }

    @Test
    void theServedDocumentHasNoStrayKeys() throws Exception {
        // an unquoted comma in a flow-style description ends it and makes the rest a key without a value
        JsonNode doc;
        try (var in = getClass().getClassLoader().getResourceAsStream("openapi/svc-openapi.yaml")) {
            doc = new YAMLMapper().readTree(in);
        }
        List<String> stray = new ArrayList<>();
        collectNulls(doc, "", stray);
        assertThat(stray).as("keys without a value in svc-openapi.yaml").isEmpty();
    }

    private static void collectNulls(JsonNode node, String at, List<String> out) {
        node.properties().forEach(e -> {
            if (e.getValue().isNull()) {
                out.add(at + "/" + e.getKey());
            }
            collectNulls(e.getValue(), at + "/" + e.getKey(), out);
        });
        node.forEach(child -> {
            if (node.isArray()) {
                collectNulls(child, at + "[]", out);
            }
        });
    }

    @Test
    void theServedDocumentLoads() {
        assertThat(ApiContract.served().violations(json("GET", "/api/v1/info?x=1", null, 500, "{}")))
                .containsExactly("status 500 is not documented for GET /api/v1/info");
    }
}
