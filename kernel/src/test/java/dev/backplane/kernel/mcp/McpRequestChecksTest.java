package dev.backplane.kernel.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.catalog.CatalogErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import io.helidon.http.Status;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The checks in front of every /mcp message: Origin, scope, the token challenge and the handshake version header. */
class McpRequestChecksTest {

    private static McpRoutes.Settings settings(List<String> origins, Optional<String> scope) {
        return new McpRoutes.Settings("https://svc.example/mcp", "https://idp.example/realms/svc", scope, origins,
                () -> "https://svc.example//");
    }

    @Test
    void anOriginIsAllowedWhenListedStarredOrLoopback() {
        McpRoutes.Settings listed = settings(List.of("https://agent.example"), Optional.empty());
        assertThat(McpRequestChecks.originAllowed(listed, "https://agent.example")).isTrue();
        assertThat(McpRequestChecks.originAllowed(listed, "https://agent.example.evil")).isFalse();
        assertThat(McpRequestChecks.originAllowed(listed, "https://evil.example")).isFalse();
        for (String loopback : List.of("http://localhost:6274", "http://127.0.0.1", "http://[::1]:8080")) {
            assertThat(McpRequestChecks.originAllowed(listed, loopback)).as(loopback).isTrue();
        }
        assertThat(McpRequestChecks.originAllowed(listed, "http://localhost.evil.example")).isFalse();
        assertThat(McpRequestChecks.originAllowed(listed, "null")).as("no host").isFalse();
        assertThat(McpRequestChecks.originAllowed(listed, "http://bad host")).as("not a URI").isFalse();
        assertThat(McpRequestChecks.originAllowed(settings(List.of("*"), Optional.empty()), "https://evil.example"))
                .isTrue();
    }

    @Test
    void theScopeMustBeGrantedAsAWholeWord() {
        assertThat(McpRequestChecks.scopeGranted("svc:mcp", "openid svc:mcp profile")).isTrue();
        assertThat(McpRequestChecks.scopeGranted("svc:mcp", "svc:mcp")).isTrue();
        assertThat(McpRequestChecks.scopeGranted("svc:mcp", "openid svc:mcp:read")).isFalse();
        assertThat(McpRequestChecks.scopeGranted("svc:mcp", "")).isFalse();
        assertThat(McpRequestChecks.scopeGranted("svc:mcp", null)).isFalse();
    }

    @Test
    void aRefusedTokenIsChallengedWithTheMetadataUrl() {
        McpRoutes.Settings s = settings(List.of(), Optional.of("svc:mcp"));
        String metadata = "https://svc.example/.well-known/oauth-protected-resource/mcp";
        assertThat(McpRequestChecks.metadataUrl(s)).isEqualTo(metadata);
        assertThat(McpRequestChecks.challenge(s, new DomainException(ErrorKind.UNAUTHENTICATED, "unauthenticated",
                "no token"))).contains("Bearer resource_metadata=\"" + metadata + "\"");
        assertThat(McpRequestChecks.challenge(s, new DomainException(ErrorKind.UNAUTHENTICATED, "invalid_token",
                "expired"))).contains("Bearer resource_metadata=\"" + metadata + "\", error=\"invalid_token\"");
        assertThat(McpRequestChecks.challenge(s, McpErrors.INSUFFICIENT_SCOPE.error("lacks svc:mcp")))
                .contains("Bearer error=\"insufficient_scope\", scope=\"svc:mcp\", resource_metadata=\"" + metadata + "\"");
        assertThat(McpRequestChecks.challenge(s, CatalogErrors.UNKNOWN_CONNECTOR.error("x"))).isEmpty();
    }

    @Test
    void theMetadataNamesTheResourceIssuerAndScope() {
        assertThat(McpRequestChecks.metadata(settings(List.of(), Optional.of("svc:mcp"))))
                .containsEntry("resource", "https://svc.example/mcp")
                .containsEntry("authorization_servers", List.of("https://idp.example/realms/svc"))
                .containsEntry("scopes_supported", List.of("svc:mcp"))
                .containsEntry("bearer_methods_supported", List.of("header"));
        assertThat(McpRequestChecks.metadata(settings(List.of(), Optional.empty())))
                .containsEntry("scopes_supported", List.of());
    }

    @Test
    void theHandshakeVersionHeaderNamesAHandshakeVersionOrIsAbsent() {
        assertThat(McpRequestChecks.handshakeVersion(Optional.empty())).isEmpty();
        assertThat(McpRequestChecks.handshakeVersion(Optional.of(McpServer.V2025_06_18))).isEmpty();
        assertThat(McpRequestChecks.handshakeVersion(Optional.of(McpServer.V2025_11_25))).isEmpty();
        for (String refused : List.of("2025-03-26", "banana", "")) {
            StatelessRequests.Refusal r = McpRequestChecks.handshakeVersion(Optional.of(refused)).orElseThrow();
            assertThat(r.status()).isEqualTo(Status.BAD_REQUEST_400);
            assertThat(r.code()).isEqualTo(McpServer.UNSUPPORTED_PROTOCOL_VERSION);
            assertThat(r.data()).containsEntry("requested", refused)
                    .containsEntry("supported", List.of("2026-07-28", "2025-11-25", "2025-06-18"));
            assertThat(r.message()).startsWith("unsupported MCP-Protocol-Version " + refused
                    + ": initialize settles on 2025-11-25 or 2025-06-18");
        }
    }
}
