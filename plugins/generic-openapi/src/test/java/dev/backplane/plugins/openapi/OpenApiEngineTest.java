package dev.backplane.plugins.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.IngestedConnector;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SpecConnectorEngine;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pf4j.Extension;

class OpenApiEngineTest {

    @Test
    void isThePf4jExtensionNamedOpenapiAndListedInTheIndex() throws Exception {
        assertThat(new OpenApiEngine().engine()).isEqualTo("openapi");
        assertThat(OpenApiEngine.class.isAnnotationPresent(Extension.class)).isTrue();
        assertThat(SpecConnectorEngine.class).isAssignableFrom(OpenApiEngine.class);
        try (InputStream idx = OpenApiEngine.class.getClassLoader().getResourceAsStream("META-INF/extensions.idx")) {
            assertThat(idx).isNotNull();
            assertThat(new String(idx.readAllBytes(), StandardCharsets.UTF_8).lines())
                    .contains(OpenApiEngine.class.getName());
        }
    }

    @Test
    void theFactoryServesTheIngestedDescriptorAndCatalog() {
        IngestedConnector ingested = Specs.connector("/api", Specs.auth("none", Map.of()),
                Specs.op("acme.thing.list", "GET", "/things", ResultKind.SET, Specs.NO_PARAMS));
        ConnectorFactory f = new OpenApiEngine().connector(ingested);
        assertThat(f.descriptor()).isEqualTo(ingested.descriptor());
        assertThat(f.catalog()).isEqualTo(ingested.catalog());
    }

    @Test
    void unusableAuthSettingsAreRefusedWhenTheConnectorIsServed() {
        for (var auth : java.util.List.of(
                Specs.auth("session_login", Map.of()),
                Specs.auth("session_login", Map.of("login_path", "/login", "login_format", "xml")),
                Specs.auth("session_login_basic", Map.of("login_path", "login")),
                Specs.auth("oauth2_mint", Map.of()),
                Specs.auth("oauth2_mint", Map.of("token_url", "ftp://idp/token")),
                Specs.auth("static_header", Map.of("session_ttl_seconds", "soon")))) {
            assertThatThrownBy(() -> new OpenApiEngine().connector(Specs.connector("", auth,
                    Specs.op("acme.thing.list", "GET", "/things", ResultKind.SET, Specs.NO_PARAMS))))
                    .as(auth.toString())
                    .isInstanceOfSatisfying(ConnectorException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_ERROR));
        }
    }
}
