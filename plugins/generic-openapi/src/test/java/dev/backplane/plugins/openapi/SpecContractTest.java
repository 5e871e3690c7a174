package dev.backplane.plugins.openapi;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replay contract check on an OpenAPI 3.0 document: components refs, nullable, request bodies. */
class SpecContractTest {

    private static final String SPEC = """
            openapi: 3.0.3
            info: {title: acme, version: "1"}
            paths:
              /vms/{id}:
                get:
                  responses:
                    '200': {$ref: '#/components/responses/Vm'}
              /vms:
                post:
                  requestBody:
                    content:
                      application/json:
                        schema: {$ref: '#/components/schemas/NewVm'}
                  responses:
                    '201':
                      content:
                        application/json:
                          schema: {$ref: '#/components/schemas/Vm'}
            components:
              responses:
                Vm:
                  description: a vm
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Vm'}
              schemas:
                Vm:
                  type: object
                  required: [id, power]
                  properties:
                    id: {type: string}
                    power: {type: string, enum: [running, stopped]}
                    note: {type: string, nullable: true}
                NewVm:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
            """;

    @Test
    void answersAndBodiesAreCheckedAgainstTheOpenApi3Schemas(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("acme.yaml"), SPEC);
        SpecContract contract = SpecContract.read(file);

        assertThatCode(() -> contract.response("GET", "/vms/{id}", "{\"id\": \"vm-1\", \"power\": \"running\", \"note\": null}"))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> contract.response("GET", "/vms/{id}", "{\"id\": \"vm-1\", \"power\": \"SLEEPING\"}"))
                .isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> contract.response("GET", "/vms/{id}", "{\"power\": \"running\"}"))
                .isInstanceOf(AssertionError.class);
        assertThatCode(() -> contract.response("POST", "/vms", "{\"id\": \"vm-2\", \"power\": \"stopped\"}"))
                .doesNotThrowAnyException();
        assertThatCode(() -> contract.request("POST", "/vms", "{\"name\": \"web\"}".getBytes(StandardCharsets.UTF_8)))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> contract.request("POST", "/vms", "{\"name\": 7}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> contract.response("DELETE", "/vms", "{}")).isInstanceOf(AssertionError.class)
                .hasMessageContaining("not in the spec");
    }
}
