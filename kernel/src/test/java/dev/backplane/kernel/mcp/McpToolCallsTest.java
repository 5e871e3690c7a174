package dev.backplane.kernel.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.catalog.CatalogErrors;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which tool errors are -32602 and which a tool result with isError, and the JSON-RPC error shape. */
class McpToolCallsTest {

    @Test
    void invalidCodesAndTheListedOnesAreArgumentErrors() {
        assertThat(McpToolCalls.isArgumentError(new DomainException(ErrorKind.INVALID, "invalid_limit", "x"))).isTrue();
        assertThat(McpToolCalls.isArgumentError(CatalogErrors.UNKNOWN_CONNECTOR.error("x"))).isTrue();
        assertThat(McpToolCalls.isArgumentError(CommonErrors.INSUFFICIENT_ROLE.error("x"))).isTrue();
        assertThat(McpToolCalls.isArgumentError(CommonErrors.NOT_FOUND.error("x"))).isFalse();
        assertThat(McpToolCalls.isArgumentError(new DomainException(ErrorKind.CONFLICT, "unknown_connector", "x")))
                .as("the code alone is not enough: the kind must match too").isFalse();
    }

    @Test
    void aRefusalIsAToolResultFlaggedAsAnError() {
        ObjectNode r = McpToolCalls.toolError(CommonErrors.NOT_FOUND.error("no such target", Map.of("target", "db1")));
        assertThat(r.path("isError").asBoolean()).isTrue();
        assertThat(r.path("structuredContent").toString())
                .isEqualTo("{\"error\":\"not_found\",\"message\":\"no such target\",\"extras\":{\"target\":\"db1\"}}");
        assertThat(r.path("content").path(0).path("type").asText()).isEqualTo("text");
        assertThat(r.path("content").path(0).path("text").asText()).isEqualTo(r.path("structuredContent").toString());
    }

    @Test
    void aJsonRpcErrorHasANullIdAMissingOneOrTheRequests() {
        assertThat(McpServer.errorMessage(null, -32700, "not JSON", Map.of()).toString())
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"not JSON\"}}");
        assertThat(McpServer.errorMessage(MissingNode.getInstance(), -32601, "no", Map.of()).has("id")).isFalse();
        assertThat(McpServer.errorMessage(JsonNodeFactory.instance.numberNode(7), -32602, "bad",
                Map.of("reason", "invalid_x")).toString())
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32602,\"message\":\"bad\","
                        + "\"data\":{\"reason\":\"invalid_x\"}}}");
    }
}
