package dev.backplane.plugins.openapi;

import dev.backplane.plugins.openapi.FakeVendor.Reply;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.ConnectorConformanceTest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The connector conformance kit against a hand-built ingested connector (a Keycloak-shaped admin API with a
 * form session login) served by a fake vendor on loopback.
 */
class GenericOpenApiConformanceTest extends ConnectorConformanceTest {

    private static final String LOGIN = "/realms/master/protocol/openid-connect/token";
    private static final String USER = "conformance-admin";
    private static final String PASSWORD = "conf-Pa55word-1";
    private static final String SESSION = "kc-session-7a6b5c4d";

    private static FakeVendor vendor;
    private static ConnectorFactory factory;

    @BeforeAll
    static void start() {
        vendor = FakeVendor.start()
                .on("POST", LOGIN, s -> s.body().contains("username=" + USER) && s.body().contains("password="
                        + URLDecoder.decode(PASSWORD, StandardCharsets.UTF_8))
                        ? Reply.json(200, "{\"access_token\":\"" + SESSION + "\",\"expires_in\":60}")
                        : Reply.json(401, "{\"error\":\"invalid_grant\"}"))
                .on("GET", "/admin/realms", s -> authorized(s, () -> Reply.json(200,
                        "[{\"realm\":\"master\",\"enabled\":true},{\"realm\":\"shop\",\"enabled\":false}]")
                        .withHeader("Server", "keycloak/26.1.0")))
                .on("GET", "/admin/realms/master", s -> authorized(s, () -> Reply.json(200,
                        "{\"realm\":\"master\",\"enabled\":true,\"createdBy\":\"" + USER + "\"}")))
                .on("POST", "/admin/realms", s -> authorized(s, () -> Reply.empty(201)
                        .withHeader("Location", "/admin/realms/new")));
        factory = new OpenApiEngine().connector(Specs.connector("/admin/realms",
                Specs.auth("session_login", Map.of("login_path", LOGIN, "login_format", "form",
                        "login_params", "grant_type=password&client_id=admin-cli")),
                Specs.op("acme.realm.list", "GET", "/", ResultKind.SET, """
                        {"type":"object","properties":{"briefRepresentation":{"type":"boolean","x-svc-in":"query"}}}"""),
                Specs.op("acme.realm.get", "GET", "/{realm}", ResultKind.OBJECT, """
                        {"type":"object","required":["realm"],"properties":{"realm":{"type":"string","x-svc-in":"path"}}}"""),
                Specs.op("acme.realm.create", "POST", "/", ResultKind.OBJECT, """
                        {"type":"object","required":["body"],"properties":{"body":{"type":"object","x-svc-in":"body"}}}""")));
    }

    private static Reply authorized(FakeVendor.Seen s, java.util.function.Supplier<Reply> reply) {
        return ("Bearer " + SESSION).equals(s.header("Authorization")) ? reply.get() : Reply.json(401, "{}");
    }

    @AfterAll
    static void stop() {
        vendor.close();
    }

    /** A user name is not a secret (user listings must show it); the session token is. */
    @Override
    protected Subject subject() {
        Credential good = new Credential(Map.of("username", USER, "password", PASSWORD));
        Credential rejected = new Credential(Map.of("username", USER, "password", "wrong-" + PASSWORD));
        Set<String> secrets = credentialValues(good, rejected);
        secrets.remove(USER);
        secrets.add(SESSION);
        return new Subject(factory, vendor.target(), good, rejected, List.of(
                Specs.call("acme.realm.list", Map.of("briefRepresentation", true)),
                Specs.call("acme.realm.get", Map.of("realm", "master")),
                Specs.call("acme.realm.create", Map.of("body", Map.of("realm", "new", "enabled", true,
                        "smtpServer", Map.of("password", "smtp-Secret-99"))))))
                .withSecretValues(secrets);
    }
}
