package dev.backplane.kernel.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.LogCapture;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.kernel.testing.ScriptedModel;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * A secret-canary sweep. One random value is staged as a target's credential (username/password fields,
 * and separately inside a k8s-style single {@code kubeconfig} field), as two event sources' secrets, and is
 * passed as a call param named {@code password}. Then every path that touches it runs: synchronous calls
 * (ok, and failing against targets that answer 401/500 with the Authorization header echoed in the body),
 * a dangerous op's preview, parked calls (one approved by a second admin, one rejected), async calls and
 * an async approval, probes (ok, wrong password, echoing targets), discover, event ingest (accepted and
 * refused), plugin errors whose messages carry the password (a RuntimeException, a Failure, the lent
 * logger), MCP {@code call_operation}/{@code preview_operation}/{@code result_query}, and the CLI's
 * {@code operation call|preview}, {@code approvals show}, {@code audit query}.
 *
 * <p>Every step checks its own answer (HTTP status and error code, a call's status, a run's end, a probe's
 * fingerprint, a CLI exit code and what it printed), so a route that is renamed or starts refusing fails here
 * instead of quietly leaving its path untested.
 *
 * <p>While the canary travels, the root and {@code dev.backplane} loggers are at ALL, so what a plugin or a library
 * logs at DEBUG/FINE/FINEST is produced and swept too. Afterwards it sweeps for the canary, for
 * base64("svc:" + canary) — the value inside a Basic header — and for the canary's base64 at each of the three
 * alignments it can have inside longer encoded text (any user's Basic pair, an encoded document), and expects
 * zero hits in: every text, varchar, char, json, jsonb, text[] and bytea column of
 * every base table of the kernel's database (enumerated through information_schema.columns); every HTTP
 * answer (status line, headers, body) the test received; every java.util.logging record written during
 * the test (formatted message, raw parameters, and thrown stack traces with causes); and the CLI's
 * stdout and stderr. The embedded kv store under the data dir is files, not the database, and is where
 * secrets legitimately live: it is not swept.
 *
 * <p>The canary also travels where only a plugin's declaration can hide it: as the value of {@code data.value}
 * of {@code vaultish.kv.write}, an operation that always parks and declares {@code data} secret
 * ({@code OperationDescriptor.secretParams}). Its approval is read by every role that can see it - a read_only
 * member included, over REST and the CLI - while pending and after. An agent run (a scripted model calling
 * {@code call_operation} with the canary in its arguments, against the echoing targets and the parking op,
 * approved mid-run; once as a plain run, once on the run-events SSE stream) and a runbook run (a step against an
 * echoing target, a step parked for approval) go through the same paths; their events, the stream and the runs
 * are swept like the rest. The governance audit trail is read through REST by an operator.
 *
 * <p>A second value is passed as a param named {@code note} (a name that does not look secret, so nothing
 * can redact it): the positive control. Params are hashed in audit rows and agent run events hold no
 * arguments, so it must not appear in any audit row, agent run event nor the log; it must appear in the
 * approval requests it was parked in (their {@code resolved} params, as every role reads them): the sweep
 * has to find it there, or it is not looking. The sweep also has lower bounds on the columns, answers, log
 * lines and CLI runs it covered.
 */
@KernelTest
class SecretCanaryIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CANARY = "canary" + UUID.randomUUID().toString().replace("-", "");
    private static final String WRONG = "wrong" + CANARY;
    private static final String BASIC = "Basic " + b64("svc:" + CANARY);
    private static final String CANARY_B64 = b64("svc:" + CANARY);
    /**
     * What the canary looks like inside any longer base64 text (a Basic header of any user, a Bearer or kubeconfig
     * document encoded whole): its encoding at each of the three alignments of its first byte to a 3-byte group,
     * cut to whole groups, in the standard and the URL-safe alphabet.
     */
    private static final List<String> CANARY_B64_ALIGNED = aligned(CANARY);
    /** Everything swept for: the canary raw (as a password, a Bearer token, a static header), and as base64. */
    private static final List<String> NEEDLES = needles();
    private static final Logger ROOT_LOGGER = Logger.getLogger("");
    private static final Logger KERNEL_LOGGER = Logger.getLogger("dev.backplane");
    private static final String NOTE = "canarynote" + UUID.randomUUID().toString().replace("-", "");
    private static final String KUBECONFIG = """
            apiVersion: v1
            kind: Config
            clusters:
            - name: c
              cluster:
                server: https://127.0.0.1:6443
            users:
            - name: svc
              user:
                token: %s
            contexts:
            - name: c
              context:
                cluster: c
                user: svc
            current-context: c
            """;
    private static final UUID TENANT = UUID.randomUUID();

    private static final List<String> ANSWERS = new CopyOnWriteArrayList<>();
    private static final List<String> CLI = new CopyOnWriteArrayList<>();
    private static LogCapture logs;

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final List<HttpServer> SERVERS = new ArrayList<>();
    private static TestIssuer issuer;
    private static TestKernel kernel;
    private static Path work;

    private final String admin = issuer.token("canary-admin", TENANT, "tenant_admin");
    private final String admin2 = issuer.token("canary-admin2", TENANT, "tenant_admin");
    private final String operator = issuer.token("canary-op", TENANT, "operator");
    private final String readOnly = issuer.token("canary-ro", TENANT, "read_only");

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> aligned(String value) {
        List<String> out = new ArrayList<>();
        for (int skip = 0; skip < 3; skip++) {
            byte[] bytes = value.substring(skip).getBytes(StandardCharsets.UTF_8);
            byte[] whole = java.util.Arrays.copyOf(bytes, bytes.length / 3 * 3);
            for (Base64.Encoder e : List.of(Base64.getEncoder(), Base64.getUrlEncoder())) {
                String encoded = e.encodeToString(whole);
                if (!out.contains(encoded)) {
                    out.add(encoded);
                }
            }
        }
        return List.copyOf(out);
    }

    private static List<String> needles() {
        List<String> out = new ArrayList<>(List.of(CANARY, CANARY_B64));
        out.addAll(CANARY_B64_ALIGNED);
        return List.copyOf(out);
    }

    /** The needles find the canary in every form it could be encoded in, wherever it starts in the encoded text. */
    private static void assertTheNeedlesFindEveryEncoding() {
        for (String prefix : List.of("", "x", "xy", "svc:", "other:", "token: ", "{\"password\":\"")) {
            for (String suffix : List.of("", "z", "\n", "\"}")) {
                String plain = prefix + CANARY + suffix;
                for (String encoded : List.of(plain, b64(plain), Base64.getUrlEncoder().withoutPadding()
                        .encodeToString(plain.getBytes(StandardCharsets.UTF_8)))) {
                    List<String> hits = new ArrayList<>();
                    check("control", "Authorization: Basic " + encoded, hits);
                    assertThat(hits).as("the sweep finds %s encoded as %s", mask(plain), encoded).isNotEmpty();
                }
            }
        }
    }

    // ---------------------------------------------------------------- fixtures

    /** How a loopback target answers. Every refusal echoes the Authorization header (and its decoding). */
    private enum Mode {
        /** Basic svc:CANARY is right: /version, /items, /items/{name}, /members; anything else 401 + echo. */
        NORMAL,
        /** Always 500 with the echo (the canary fixture connector returns a 500 body as data). */
        ECHO_500,
        /** Always 502 + X-Svc-Egress with the echo (the fixture connector throws with the body as message). */
        ECHO_EGRESS,
        /** Bearer CANARY is right (kubeconfig token): /version, /api/pods/{name}; /api/pods/fail 403 + echo. */
        BEARER
    }

    private static String echo(HttpExchange x) {
        String auth = x.getRequestHeaders().getFirst("Authorization");
        String decoded = "";
        if (auth != null && auth.startsWith("Basic ")) {
            decoded = " (decoded: " + new String(Base64.getDecoder().decode(auth.substring(6)), StandardCharsets.UTF_8)
                    + ")";
        }
        return "request " + x.getRequestMethod() + " " + x.getRequestURI() + " refused; you sent Authorization: "
                + auth + decoded;
    }

    private static HttpServer target(Mode mode) {
        HttpServer s = LoopbackHttp.start(x -> {
            String auth = x.getRequestHeaders().getFirst("Authorization");
            String path = x.getRequestURI().getPath();
            int status = 200;
            String body;
            switch (mode) {
                case NORMAL -> {
                    if (!BASIC.equals(auth)) {
                        status = 401;
                        body = echo(x);
                    } else if (path.equals("/version")) {
                        body = "3.2.1";
                    } else if (path.equals("/members")) {
                        body = "node-a,node-b";
                    } else if (path.equals("/items")) {
                        body = LoopbackHttp.items(x);
                    } else {
                        body = "details";
                    }
                }
                case ECHO_500 -> {
                    status = 500;
                    body = echo(x);
                }
                case ECHO_EGRESS -> {
                    status = 502;
                    x.getResponseHeaders().add("X-Svc-Egress", "refused");
                    body = echo(x);
                }
                case BEARER -> {
                    if (!("Bearer " + CANARY).equals(auth)) {
                        status = 401;
                        body = echo(x);
                    } else if (path.equals("/version")) {
                        body = "1.29.0";
                    } else if (path.equals("/api/pods/fail")) {
                        status = 403;
                        body = echo(x);
                    } else {
                        body = "{\"phase\":\"Running\"}";
                    }
                }
                default -> throw new IllegalStateException();
            }
            LoopbackHttp.answer(x, status, body);
        });
        SERVERS.add(s);
        return s;
    }

    /**
     * A k8s-style connector (one secret field, {@code kubeconfig}; it sends the document's user token as a
     * Bearer header). Like many HTTP clients it puts the API server's error body in its exception message,
     * and kubex.config.check fails with the token in a RuntimeException's message.
     */
    private static final String KUBE_FACTORY = """
            package fixture.kubexcustom;

            import dev.backplane.plugin.api.*;
            import java.util.*;

            public class KubeFactory implements ConnectorFactory {
                public ConnectorDescriptor descriptor() {
                    return new ConnectorDescriptor("kubex", "1.x", List.of(new ConnectorDescriptor.Product("kubex", 6443)),
                        List.of("*"), List.of("kubeconfig"));
                }
                public Catalog catalog() {
                    return new Catalog(List.of(new OperationGroup("pods", "Pods", "Look at pods")), List.of(
                        new OperationDescriptor("kubex.pod.get", "pods", "Show one pod by name", SafetyLevel.SAFE, false,
                            OpClass.READ, "{\\"type\\":\\"object\\",\\"properties\\":{\\"name\\":{\\"type\\":\\"string\\"}}}",
                            new OperationShape.Http("GET", "/api/pods/{name}"), ResultKind.OBJECT),
                        new OperationDescriptor("kubex.config.check", "pods", "Check the kubeconfig against the cluster",
                            SafetyLevel.SAFE, false, OpClass.READ, "{\\"type\\":\\"object\\"}", new OperationShape.Typed(),
                            ResultKind.OBJECT)));
                }
                public Connector open(ConnectorContext c, TargetSpec t, Credential cred) {
                    String kubeconfig = cred.field("kubeconfig");
                    String found = null;
                    for (String line : kubeconfig.split("\\n")) {
                        if (line.strip().startsWith("token:")) {
                            found = line.strip().substring(6).strip();
                        }
                    }
                    if (found == null) {
                        throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the kubeconfig names no user token");
                    }
                    String token = found;
                    String base = "http://" + t.host() + ":" + t.port();
                    return new Connector() {
                        String get(String path) {
                            try {
                                java.net.http.HttpResponse<String> r = c.httpClient().send(java.net.http.HttpRequest
                                    .newBuilder(java.net.URI.create(base + path)).header("Authorization", "Bearer " + token)
                                    .GET().build(), java.net.http.HttpResponse.BodyHandlers.ofString());
                                if (r.statusCode() >= 400) {
                                    throw new ConnectorException(r.statusCode() == 401 ? ErrorCode.CONNECTOR_AUTH_FAILED
                                        : ErrorCode.CONNECTOR_ERROR, "the API server answered HTTP " + r.statusCode() + ": "
                                        + r.body());
                                }
                                return r.body();
                            } catch (java.io.IOException e) {
                                throw new ConnectorException(ErrorCode.CONNECTOR_UNREACHABLE, "cannot reach " + base);
                            } catch (InterruptedException e) {
                                throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "interrupted");
                            }
                        }
                        public Fingerprint probe() {
                            return new Fingerprint(Optional.of("fixture"), Optional.of("kubex"),
                                Optional.of(get("/version").trim()), true, c.clock().instant(), "GET /version");
                        }
                        public OperationResult invoke(OperationRequest r) {
                            if (r.opId().equals("kubex.pod.get")) {
                                return new OperationResult.Document(Map.of("pod",
                                    get("/api/pods/" + r.params().getOrDefault("name", ""))));
                            }
                            if (r.opId().equals("kubex.config.check")) {
                                throw new IllegalStateException("kubeconfig user svc with token " + token
                                    + " is not valid for " + base);
                            }
                            return new OperationResult.Failure(ErrorCode.UNKNOWN_OPERATION, "no operation " + r.opId(),
                                Map.of());
                        }
                        public Optional<HttpPreview> preview(OperationRequest r) {
                            if (!r.opId().equals("kubex.pod.get")) {
                                return Optional.empty();
                            }
                            return Optional.of(new HttpPreview("GET", "/api/pods/" + r.params().getOrDefault("name", ""),
                                Map.of(), Optional.empty()));
                        }
                        public void close() {
                        }
                    };
                }
            }
            """;

    /**
     * A username/password connector with bugs: its login throws a RuntimeException whose message (and
     * cause) carry the password and the Basic header; its vendor error comes back as a Failure quoting
     * them; it logs them through the kernel's lent logger; its probe throws with the password.
     */
    private static final String CRASHY_FACTORY = """
            package fixture.crashycustom;

            import dev.backplane.plugin.api.*;
            import java.util.*;

            public class CrashyFactory implements ConnectorFactory {
                public ConnectorDescriptor descriptor() {
                    return new ConnectorDescriptor("crashy", "1.x", List.of(new ConnectorDescriptor.Product("crashy", 443)),
                        List.of("*"), List.of("username", "password"));
                }
                static OperationDescriptor op(String id, String description) {
                    return new OperationDescriptor(id, "session", description, SafetyLevel.SAFE, false, OpClass.READ,
                        "{\\"type\\":\\"object\\"}", new OperationShape.Typed(), ResultKind.OBJECT);
                }
                public Catalog catalog() {
                    return new Catalog(List.of(new OperationGroup("session", "Session", "Log in to the appliance")),
                        List.of(op("crashy.session.open", "Open a session by logging in"),
                            op("crashy.session.fail", "Log in and report the vendor's refusal"),
                            op("crashy.session.log", "Log in with verbose logging")));
                }
                public Connector open(ConnectorContext c, TargetSpec t, Credential cred) {
                    String user = cred.field("username");
                    String password = cred.field("password");
                    String basic = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    return new Connector() {
                        public Fingerprint probe() {
                            throw new IllegalStateException("probe login failed for " + user + "/" + password
                                + " with header Authorization: " + basic);
                        }
                        public OperationResult invoke(OperationRequest r) {
                            switch (r.opId()) {
                                case "crashy.session.open":
                                    throw new IllegalStateException("login failed for " + user + ":" + password
                                        + " (sent Authorization: " + basic + ")",
                                        new java.io.IOException("server said: " + basic + " rejected for " + password));
                                case "crashy.session.fail":
                                    return new OperationResult.Failure(ErrorCode.CONNECTOR_AUTH_FAILED, "vendor refused "
                                        + "password " + password + " (Authorization: " + basic + ")",
                                        Map.of("vendor_detail", "Authorization: " + basic, "password_echo", password));
                                case "crashy.session.log":
                                    c.logger().log(System.Logger.Level.WARNING, "retrying login as " + user
                                        + " with password " + password + " and header Authorization: " + basic);
                                    c.logger().log(System.Logger.Level.DEBUG, "verbose login as " + user
                                        + " with password " + password + " and header Authorization: " + basic);
                                    c.logger().log(System.Logger.Level.ERROR, "login trace",
                                        new RuntimeException("header " + basic + " / " + password));
                                    return new OperationResult.Document(Map.of("logged", true));
                                default:
                                    return new OperationResult.Failure(ErrorCode.UNKNOWN_OPERATION, "no operation "
                                        + r.opId(), Map.of());
                            }
                        }
                        public void close() {
                        }
                    };
                }
            }
            """;

    /**
     * A secret-store-like connector: {@code vaultish.kv.write} always parks for approval and declares its
     * {@code data} param secret, a name the key-name heuristic does not catch, so only the declaration hides it.
     */
    private static final String VAULTISH_FACTORY = """
            package fixture.vaultishcustom;

            import dev.backplane.plugin.api.*;
            import java.util.*;

            public class VaultishFactory implements ConnectorFactory {
                public ConnectorDescriptor descriptor() {
                    return new ConnectorDescriptor("vaultish", "1.x", List.of(new ConnectorDescriptor.Product("vaultish",
                        8200)), List.of("*"), List.of("username", "password"));
                }
                public Catalog catalog() {
                    return new Catalog(List.of(new OperationGroup("kv", "Key/value", "Write secrets")), List.of(
                        new OperationDescriptor("vaultish.kv.write", "kv", "Writes a secret; its values are secret",
                            SafetyLevel.CAUTION, true, OpClass.WRITE, "{\\"type\\":\\"object\\",\\"required\\":"
                            + "[\\"path\\",\\"data\\"],\\"properties\\":{\\"path\\":{\\"type\\":\\"string\\"},"
                            + "\\"data\\":{\\"type\\":\\"object\\"},\\"note\\":{\\"type\\":\\"string\\"}}}",
                            new OperationShape.Typed(), ResultKind.OBJECT).withSecretParams("data")));
                }
                public Connector open(ConnectorContext c, TargetSpec t, Credential cred) {
                    return new Connector() {
                        public Fingerprint probe() {
                            return new Fingerprint(Optional.of("fixture"), Optional.of("vaultish"), Optional.of("1.0"), true,
                                c.clock().instant(), "none");
                        }
                        public OperationResult invoke(OperationRequest r) {
                            Object data = r.params().get("data");
                            return new OperationResult.Document(Map.of("written", String.valueOf(r.params().get("path")),
                                "fields", data instanceof Map<?, ?> m ? m.size() : 0));
                        }
                        public void close() {
                        }
                    };
                }
            }
            """;

    private static ScriptedModel model;

    @BeforeKernel
    static void start(KernelSetup setup) {
        logs = LogCapture.onRootLogger(setup);
        model = ScriptedModel.forKernel(setup);
        setup.closeAfter(() -> SERVERS.forEach(s -> s.stop(0)));
        work = setup.work();
        setup.plugin(TestPlugins.connector("canary", "1.x").product("canary").ranges("*").operations(6)
                .httpProbe(true).typedAndComposite());
        setup.plugin(TestPlugins.connector("kubex", "1.x").product("kubex")
                .withClass("fixture.kubexcustom.KubeFactory", KUBE_FACTORY)
                .onConnectors("if (true) { return java.util.List.of(new fixture.kubexcustom.KubeFactory()); }"));
        setup.plugin(TestPlugins.connector("crashy", "1.x").product("crashy")
                .withClass("fixture.crashycustom.CrashyFactory", CRASHY_FACTORY)
                .onConnectors("if (true) { return java.util.List.of(new fixture.crashycustom.CrashyFactory()); }"));
        setup.plugin(TestPlugins.connector("vaultish", "1.x").product("vaultish")
                .withClass("fixture.vaultishcustom.VaultishFactory", VAULTISH_FACTORY)
                .onConnectors("if (true) { return java.util.List.of(new fixture.vaultishcustom.VaultishFactory()); }"));
    }

    // ---------------------------------------------------------------- recorded I/O

    private static String record(String label, int status, Map<String, List<String>> headers, String body) {
        ANSWERS.add(label + " -> HTTP " + status + "\n" + headers + "\n" + body);
        return body;
    }

    private TestKernel.Response send(String method, String path, String token, Object body) {
        String json;
        try {
            json = body == null ? null : body instanceof String s ? s : JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        TestKernel.Response r = kernel.send(method, path, token, json, Map.of());
        record(method + " " + path, r.status(), r.headers(), r.body());
        return r;
    }

    private HttpResponse<String> raw(String path, String body, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(kernel.url() + path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        record("POST " + path, r.statusCode(), r.headers().map(), r.body());
        return r;
    }

    private CliRunner.Result cli(CliRunner runner, String... args) {
        return cli(runner, Map.of(), "", args);
    }

    private CliRunner.Result cli(CliRunner runner, Map<String, String> env, String stdin, String... args) {
        CliRunner.Result r = runner.run(env, stdin, args);
        // the command line is the test's input (it carries the canary in --params); only the output is swept
        CLI.add("svc " + mask(String.join(" ", args)) + " -> exit " + r.exitCode() + "\nstdout: " + r.out()
                + "\nstderr: " + r.err());
        return r;
    }

    private CliRunner runner(String token) throws IOException {
        return kernel.cli(Files.createTempDirectory(work, "cli"), token);
    }

    // ---------------------------------------------------------------- helpers

    private void registerTarget(String name, String product, HttpServer server, Map<String, String> secret) {
        var r = send("POST", "/api/v1/targets", admin, Map.of("name", name, "product", product, "host", "127.0.0.1",
                "port", server.getAddress().getPort(), "extras", Map.of("scheme", "http")));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        var staged = send("PUT", "/api/v1/targets/" + name + "/secret", admin, Map.of("fields", secret));
        assertThat(staged.status()).as(staged.body()).isEqualTo(200);
    }

    private void enable(String connectorId) {
        assertThat(send("POST", "/api/v1/connectors/" + connectorId + "/enable-reads", admin, null).status())
                .isEqualTo(200);
        assertThat(send("POST", "/api/v1/connectors/" + connectorId + "/enable", admin, null).status()).isEqualTo(200);
    }

    private static Map<String, Object> secretParams(Map<String, Object> base) {
        Map<String, Object> p = new LinkedHashMap<>(base);
        p.put("password", CANARY);
        p.put("note", NOTE);
        return p;
    }

    private JsonNode call(String token, String connector, String op, String target, Map<String, Object> params,
                          Map<String, Object> extra) {
        Map<String, Object> body = new LinkedHashMap<>(Map.of("connector_id", connector, "op_id", op, "target", target,
                "params", params));
        body.putAll(extra);
        var r = send("POST", "/api/v1/operations/call", token, body);
        assertThat(r.status()).as(r.body()).isEqualTo(Boolean.TRUE.equals(extra.get("async")) ? 202 : 200);
        return r.json();
    }

    /** A call's envelope has this status and error code ("" for none). */
    private static void outcome(JsonNode envelope, String status, String errorCode) {
        assertThat(envelope.path("status").asText()).as(envelope.toString()).isEqualTo(status);
        assertThat(envelope.path("extras").path("error_code").asText()).as(envelope.toString()).isEqualTo(errorCode);
    }

    /** An answer has this status and error code ("" for no check of the code). */
    private static void expect(TestKernel.Response r, int status, String errorCode) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        if (!errorCode.isEmpty()) {
            assertThat(r.json().path("error").asText()).as(r.body()).isEqualTo(errorCode);
        }
    }

    /** A CLI run ended with this exit code, and its output says {@code says}. */
    private static void exit(CliRunner.Result r, int code, String says) {
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(code);
        assertThat(r.out() + r.err()).contains(says);
    }

    /** An approval as {@code token} reads it over REST. */
    private JsonNode approval(String token, String id) {
        var r = send("GET", "/api/v1/approvals/" + id, token, null);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private JsonNode awaitRun(String token, String handle) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            var r = send("GET", "/api/v1/operations/runs/" + handle, token, null);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            if (!r.json().path("status").asText().equals("running")) {
                return r.json();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("run " + handle + " did not finish");
    }

    private JsonNode mcp(String token, String tool, Map<String, Object> args) throws Exception {
        String body = JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", "r-" + UUID.randomUUID(),
                "method", "tools/call", "params", Map.of("name", tool, "arguments", args, "_meta", Map.of(
                        "io.modelcontextprotocol/protocolVersion", "2026-07-28",
                        "io.modelcontextprotocol/clientCapabilities", Map.of()))));
        var r = raw("/mcp", body, Map.of("Authorization", "Bearer " + token, "Accept",
                "application/json, text/event-stream", "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
                "Mcp-Name", tool));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private HttpResponse<String> ingest(String slug, String body, Map<String, String> headers) throws Exception {
        return raw("/api/v1/events/ingest/" + slug, body, headers);
    }

    // ---------------------------------------------------------------- the sweep

    /**
     * Every level is logged while the canary travels: a plugin or a library that logs it at DEBUG/FINE/FINEST (which an
     * operator may turn on) is produced, captured and swept like the rest. The levels are put back before the sweep
     * (whose own queries carry the needles).
     */
    @Test
    void theCanaryAppearsNowhereButTheKvStore() throws Exception {
        assertTheNeedlesFindEveryEncoding();
        long t0 = System.nanoTime();
        Level rootWas = ROOT_LOGGER.getLevel();
        Level kernelWas = KERNEL_LOGGER.getLevel();
        ROOT_LOGGER.setLevel(Level.ALL);
        KERNEL_LOGGER.setLevel(Level.ALL);
        try {
            exercise();
        } finally {
            ROOT_LOGGER.setLevel(rootWas);
            KERNEL_LOGGER.setLevel(kernelWas);
        }
        sweep(t0, System.nanoTime());
    }

    /** Every path that touches the canary, each step checked to have reached the code it is there for. */
    private void exercise() throws Exception {
        HttpServer normal = target(Mode.NORMAL);
        HttpServer echo500 = target(Mode.ECHO_500);
        HttpServer egress = target(Mode.ECHO_EGRESS);
        HttpServer bearer = target(Mode.BEARER);
        Map<String, String> userpass = Map.of("username", "svc", "password", CANARY);
        registerTarget("t-ok", "canary", normal, userpass);
        registerTarget("t-wrong", "canary", normal, Map.of("username", "svc", "password", WRONG));
        registerTarget("t-500", "canary", echo500, userpass);
        registerTarget("t-egress", "canary", egress, userpass);
        registerTarget("t-kube", "kubex", bearer, Map.of("kubeconfig", KUBECONFIG.formatted(CANARY)));
        registerTarget("t-kube-wrong", "kubex", bearer, Map.of("kubeconfig", KUBECONFIG.formatted(WRONG)));
        registerTarget("t-crashy", "crashy", normal, userpass);
        // the k8s-style single field staged where the connector wants username/password
        registerTarget("t-single", "canary", normal, Map.of("kubeconfig", KUBECONFIG.formatted(CANARY)));
        // a staging body an operator got wrong: the value unquoted, and the value where an object belongs
        expect(send("PUT", "/api/v1/targets/t-single/secret", admin, "{\"fields\": {\"password\": " + CANARY + "}}"),
                400, "invalid_json");
        expect(send("PUT", "/api/v1/targets/t-single/secret", admin, "{\"fields\": [\"" + CANARY + "\"]}"), 400,
                "invalid_json");
        expect(send("PUT", "/api/v1/targets/t-single/secret", admin, "{\"fields\": {\"pass word\": \"" + CANARY
                + "\"}}"), 422, "invalid_secret");
        enable("canary-1.x");
        enable("kubex-1.x");
        enable("crashy-1.x");
        assertThat(send("PATCH", "/api/v1/connectors/canary-1.x/operations/canary.item2.delete", admin,
                Map.of("is_enabled", true)).status()).isEqualTo(200);
        assertThat(send("PATCH", "/api/v1/connectors/canary-1.x/operations/canary.item5.delete", admin,
                Map.of("is_enabled", true, "safety_level", "caution", "requires_approval", true)).status())
                .isEqualTo(200);

        // synchronous calls: ok (with the canary as a param), reduced, and failing
        JsonNode ok = call(operator, "canary-1.x", "canary.item0.list", "t-ok", secretParams(Map.of("count", 3)),
                Map.of("work_ref", "CHG-CANARY"));
        assertThat(ok.path("status").asText()).as(ok.toString()).isEqualTo("ok");
        JsonNode big = call(operator, "canary-1.x", "canary.item0.list", "t-ok", secretParams(Map.of("count", 60)),
                Map.of());
        String handle = big.path("extras").path("fetch_more").path("drill_in").path("handle_id").asText();
        assertThat(handle).as(big.toString()).isNotEmpty();
        var page = send("POST", "/api/v1/operations/result-query", operator, Map.of("handle_id", handle, "offset", 40));
        assertThat(page.status()).as(page.body()).isEqualTo(200);
        assertThat(page.json().path("rows").size()).as(page.body()).isEqualTo(20);
        assertThat(call(operator, "canary-1.x", "canary.item1.get", "t-ok", secretParams(Map.of("name", "a")),
                Map.of()).path("status").asText()).isEqualTo("ok");
        outcome(call(operator, "canary-1.x", "canary.status.typed", "t-ok", secretParams(Map.of()), Map.of()), "ok", "");
        outcome(call(operator, "canary-1.x", "canary.item1.get", "t-wrong", Map.of("name", "a"), Map.of()), "error",
                "connector_auth_failed");
        // the echoing 500 comes back as data (the fixture connector's way), the egress refusal as an error
        outcome(call(operator, "canary-1.x", "canary.item1.get", "t-500", secretParams(Map.of("name", "a")), Map.of()),
                "ok", "");
        outcome(call(operator, "canary-1.x", "canary.item0.list", "t-500", Map.of("count", 2), Map.of()), "ok", "");
        outcome(call(operator, "canary-1.x", "canary.item1.get", "t-egress", Map.of("name", "a"), Map.of()), "error",
                "connector_unreachable");
        outcome(call(operator, "canary-1.x", "canary.item1.get", "t-single", Map.of("name", "a"), Map.of()), "error",
                "connector_error");
        outcome(call(operator, "kubex-1.x", "kubex.pod.get", "t-kube", Map.of("name", "web"), Map.of()), "ok", "");
        outcome(call(operator, "kubex-1.x", "kubex.pod.get", "t-kube", Map.of("name", "fail"), Map.of()), "error",
                "connector_error");
        outcome(call(operator, "kubex-1.x", "kubex.pod.get", "t-kube-wrong", Map.of("name", "web"), Map.of()), "error",
                "connector_auth_failed");
        // plugin errors carrying the password
        outcome(call(operator, "kubex-1.x", "kubex.config.check", "t-kube", Map.of(), Map.of()), "error",
                "connector_error");
        outcome(call(operator, "crashy-1.x", "crashy.session.open", "t-crashy", Map.of(), Map.of()), "error",
                "connector_error");
        outcome(call(operator, "crashy-1.x", "crashy.session.fail", "t-crashy", Map.of(), Map.of()), "error",
                "connector_auth_failed");
        outcome(call(operator, "crashy-1.x", "crashy.session.log", "t-crashy", Map.of(), Map.of()), "ok", "");

        // a dangerous op: preview, then parked for approval with its preview hash; approved by a second admin
        Map<String, Object> deleteParams = secretParams(Map.of("name", "victim"));
        var preview = send("POST", "/api/v1/operations/preview", operator, Map.of("connector_id", "canary-1.x",
                "op_id", "canary.item2.delete", "target", "t-ok", "params", deleteParams));
        String hash = preview.json().path("result").path("preview_hash").asText();
        assertThat(hash).as(preview.body()).startsWith("sha256:");
        JsonNode parked = call(operator, "canary-1.x", "canary.item2.delete", "t-ok", deleteParams,
                Map.of("preview_hash", hash, "work_ref", "CHG-CANARY"));
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        String approved = parked.path("extras").path("approval_request_id").asText();
        expect(send("GET", "/api/v1/approvals/" + approved, admin2, null), 200, "");
        expect(send("GET", "/api/v1/approvals?status=pending", admin2, null), 200, "");
        var decided = send("POST", "/api/v1/approvals/" + approved + "/approve", admin2, Map.of("reason", "checked"));
        assertThat(decided.status()).as(decided.body()).isEqualTo(200);
        // one rejected
        String rejected = call(operator, "canary-1.x", "canary.item5.delete", "t-ok", secretParams(Map.of("name", "keep")),
                Map.of()).path("extras").path("approval_request_id").asText();
        assertThat(send("POST", "/api/v1/approvals/" + rejected + "/reject", admin2, Map.of("reason", "no")).status())
                .isEqualTo(200);
        assertThat(approval(operator, rejected).path("status").asText()).isEqualTo("rejected");
        // one approved asynchronously, against the echoing target
        String asyncApproval = call(operator, "canary-1.x", "canary.item5.delete", "t-500",
                secretParams(Map.of("name", "later")), Map.of()).path("extras").path("approval_request_id").asText();
        var asyncDecided = send("POST", "/api/v1/approvals/" + asyncApproval + "/approve", admin2, Map.of("async", true));
        assertThat(asyncDecided.status()).as(asyncDecided.body()).isEqualTo(202);
        assertThat(awaitRun(admin2, asyncDecided.json().path("result").path("handle").asText()).path("status").asText())
                .isEqualTo("succeeded");

        // async calls: the echoing 500 is data, the egress refusal and the plugin's exception fail the run
        Map<String, String> runEnds = Map.of("t-ok", "succeeded", "t-500", "succeeded", "t-egress", "failed");
        for (String t : List.of("t-ok", "t-500", "t-egress")) {
            JsonNode started = call(operator, "canary-1.x", "canary.item1.get", t, secretParams(Map.of("name", "b")),
                    Map.of("async", true));
            assertThat(awaitRun(operator, started.path("handle").asText()).path("status").asText()).as(t)
                    .isEqualTo(runEnds.get(t));
        }
        JsonNode startedCrash = call(operator, "crashy-1.x", "crashy.session.open", "t-crashy", Map.of(),
                Map.of("async", true));
        assertThat(awaitRun(operator, startedCrash.path("handle").asText()).path("status").asText()).isEqualTo("failed");

        // probes (a failed contact is a fingerprint with its error code, answered 200) and discovery
        Map<String, String> probeErrors = new LinkedHashMap<>();
        probeErrors.put("t-ok", "");
        probeErrors.put("t-wrong", "connector_auth_failed");
        probeErrors.put("t-500", ""); // the echo is read as the version
        probeErrors.put("t-egress", "connector_unreachable");
        probeErrors.put("t-kube", "");
        probeErrors.put("t-kube-wrong", "connector_auth_failed");
        probeErrors.put("t-crashy", "connector_error");
        probeErrors.put("t-single", "connector_error"); // the staged fields are not the ones the connector reads
        probeErrors.forEach((t, error) -> {
            var probed = send("POST", "/api/v1/targets/" + t + "/probe", operator, null);
            assertThat(probed.status()).as(probed.body()).isEqualTo(200);
            JsonNode fingerprint = probed.json().path("fingerprint");
            assertThat(fingerprint.path("probed_at").asText()).as(probed.body()).isNotEmpty();
            assertThat(fingerprint.path("error_code").asText()).as(probed.body()).isEqualTo(error);
            if (error.isEmpty()) {
                assertThat(fingerprint.path("reachable").asBoolean()).as(probed.body()).isTrue();
                assertThat(fingerprint.path("version").asText()).as(probed.body()).isNotEmpty();
            }
            var shown = send("GET", "/api/v1/targets/" + t, operator, null);
            assertThat(shown.status()).as(shown.body()).isEqualTo(200);
            assertThat(shown.json().path("fingerprint").path("probed_at").asText()).as(shown.body())
                    .isEqualTo(fingerprint.path("probed_at").asText());
        });
        var listed = send("GET", "/api/v1/targets", operator, null);
        assertThat(listed.status()).as(listed.body()).isEqualTo(200);
        assertThat(listed.json().path("targets").size()).isEqualTo(8);
        var discovered = send("POST", "/api/v1/targets/discover", operator, Map.of("product", "canary", "seed_target",
                "t-ok"));
        assertThat(discovered.status()).as(discovered.body()).isEqualTo(200);
        assertThat(discovered.json().path("candidates").findValuesAsText("name")).containsExactly("node-a", "node-b");
        var discoveredEcho = send("POST", "/api/v1/targets/discover", operator, Map.of("product", "canary",
                "seed_target", "t-500"));
        assertThat(discoveredEcho.status()).as(discoveredEcho.body()).isEqualTo(200); // the echo read as a member
        assertThat(discoveredEcho.json().path("candidates").size()).as(discoveredEcho.body()).isEqualTo(1);
        expect(send("POST", "/api/v1/targets/discover", operator, Map.of("product", "canary", "seed_target", "t-egress")),
                502, "connector_unreachable");

        // event ingest: the canary as a static-header secret and as a basic password; accepted and refused
        var staticSource = send("POST", "/api/v1/event-sources", admin, Map.of("name", "canary-static", "kind",
                "alertrouter", "auth_strategy", "static-header", "secret", CANARY, "extras",
                Map.of("secret_header", "X-Am-Token")));
        assertThat(staticSource.status()).as(staticSource.body()).isEqualTo(201);
        String staticSlug = staticSource.json().path("slug").asText();
        assertThat(ingest(staticSlug, "{\"status\":\"firing\",\"labels\":{\"severity\":\"critical\"}}",
                Map.of("X-Am-Token", CANARY)).statusCode()).isEqualTo(200);
        assertThat(ingest(staticSlug, "{\"status\":\"firing\"}", Map.of("X-Am-Token", WRONG)).statusCode())
                .isEqualTo(401);
        assertThat(ingest(staticSlug, "{\"status\":\"firing\"}", Map.of("X-Am-Token", CANARY + "-x")).statusCode())
                .isEqualTo(401);
        assertThat(ingest(staticSlug, "{\"status\":\"firing\"}", Map.of("X-Svc-Token", CANARY)).statusCode())
                .isEqualTo(401);
        var basicSource = send("POST", "/api/v1/event-sources", admin, Map.of("name", "canary-basic", "kind",
                "generic-json", "auth_strategy", "basic", "secret", CANARY));
        assertThat(basicSource.status()).as(basicSource.body()).isEqualTo(201);
        String basicSlug = basicSource.json().path("slug").asText();
        assertThat(ingest(basicSlug, "{\"a\":1}", Map.of("Authorization", BASIC)).statusCode()).isEqualTo(200);
        assertThat(ingest(basicSlug, "{\"a\":2}", Map.of("Authorization", "Basic " + b64("other:" + CANARY)))
                .statusCode()).isEqualTo(401);
        assertThat(ingest(basicSlug, "not json", Map.of("Authorization", BASIC)).statusCode()).isEqualTo(400);
        var rotated = send("PATCH", "/api/v1/event-sources/" + basicSlug, admin, Map.of("secret", CANARY + "rotated",
                "overlap_seconds", 60));
        assertThat(rotated.status()).as(rotated.body()).isEqualTo(200);
        assertThat(rotated.json().path("secret_version").asInt()).as(rotated.body()).isEqualTo(2);
        var source = send("GET", "/api/v1/event-sources/" + staticSlug, admin, null);
        assertThat(source.status()).as(source.body()).isEqualTo(200);
        assertThat(source.json().path("slug").asText()).isEqualTo(staticSlug);
        var sources = send("GET", "/api/v1/event-sources", operator, null);
        assertThat(sources.status()).as(sources.body()).isEqualTo(200);
        assertThat(sources.body()).contains(staticSlug).contains(basicSlug);
        for (String slug : List.of(staticSlug, basicSlug)) {
            var events = send("GET", "/api/v1/events?source=" + slug, operator, null);
            assertThat(events.status()).as(events.body()).isEqualTo(200);
            assertThat(events.json().path("events").size()).as("the one accepted delivery of " + slug).isEqualTo(1);
        }

        // MCP: call_operation (ok, failing, parked), preview_operation, result_query
        String agentToken = issuer.mcpToken("canary-agent", TENANT, "operator");
        JsonNode mcpBig = mcp(agentToken, "call_operation", Map.of("connector_id", "canary-1.x", "op_id",
                "canary.item0.list", "target", "t-ok", "params", secretParams(Map.of("count", 70))));
        String mcpHandle = mcpBig.path("result").path("structuredContent").path("extras").path("fetch_more")
                .path("drill_in").path("handle_id").asText();
        assertThat(mcpHandle).as(mcpBig.toString()).isNotEmpty();
        JsonNode rows = mcp(agentToken, "result_query", Map.of("handle_id", mcpHandle, "offset", 60));
        assertThat(rows.path("result").path("structuredContent").path("rows").size()).as(rows.toString()).isEqualTo(10);
        outcome(mcp(agentToken, "call_operation", Map.of("connector_id", "canary-1.x", "op_id", "canary.item1.get",
                "target", "t-500", "params", secretParams(Map.of("name", "c")))).path("result").path("structuredContent"),
                "ok", "");
        outcome(mcp(agentToken, "call_operation", Map.of("connector_id", "canary-1.x", "op_id", "canary.item1.get",
                "target", "t-egress", "params", Map.of("name", "c"))).path("result").path("structuredContent"), "error",
                "connector_unreachable");
        outcome(mcp(agentToken, "call_operation", Map.of("connector_id", "crashy-1.x", "op_id", "crashy.session.open",
                "target", "t-crashy", "params", Map.of())).path("result").path("structuredContent"), "error",
                "connector_error");
        outcome(mcp(agentToken, "call_operation", Map.of("connector_id", "kubex-1.x", "op_id", "kubex.pod.get", "target",
                "t-kube", "params", Map.of("name", "fail"))).path("result").path("structuredContent"), "error",
                "connector_error");
        JsonNode mcpPreview = mcp(agentToken, "preview_operation", Map.of("connector_id", "canary-1.x", "op_id",
                "canary.item2.delete", "target", "t-ok", "params", secretParams(Map.of("name", "m"))))
                .path("result").path("structuredContent");
        outcome(mcpPreview, "ok", "");
        assertThat(mcpPreview.path("result").path("preview_hash").asText()).as(mcpPreview.toString()).startsWith("sha256:");
        outcome(mcp(agentToken, "call_operation", Map.of("connector_id", "canary-1.x", "op_id", "canary.item5.delete",
                "target", "t-ok", "params", secretParams(Map.of("name", "m")))).path("result").path("structuredContent"),
                "awaiting_approval", "awaiting_approval");
        JsonNode mcpTargets = mcp(agentToken, "list_targets", Map.of());
        assertThat(mcpTargets.path("result").path("structuredContent").path("targets").size()).as(mcpTargets.toString())
                .isEqualTo(8);

        // the CLI
        CliRunner op = runner(operator);
        String params = JSON.writeValueAsString(secretParams(Map.of("count", 3)));
        // exit codes: 0 ok, 1 failed (the call ran and its target or plugin failed), 2 usage
        exit(cli(op, "operation", "call", "canary-1.x", "canary.item0.list", "--target", "t-ok", "--params", params), 0,
                "item-0");
        exit(cli(op, "operation", "call", "canary-1.x", "canary.item0.list", "--target", "t-ok", "--params",
                JSON.writeValueAsString(secretParams(Map.of("count", 75)))), 0, "item-0");
        Map<String, Integer> cliEnds = Map.of("t-500", 0, "t-egress", 1, "t-wrong", 1);
        Map<String, String> cliSays = Map.of("t-500", "refused; you sent", "t-egress", "connector_unreachable",
                "t-wrong", "connector_auth_failed");
        for (String t : List.of("t-500", "t-egress", "t-wrong")) {
            exit(cli(op, "operation", "call", "canary-1.x", "canary.item1.get", "--target", t, "--params",
                    JSON.writeValueAsString(secretParams(Map.of("name", "d")))), cliEnds.get(t), cliSays.get(t));
        }
        exit(cli(op, "operation", "call", "crashy-1.x", "crashy.session.open", "--target", "t-crashy", "--params", "{}"),
                1, "connector_error");
        exit(cli(op, "operation", "call", "crashy-1.x", "crashy.session.fail", "--target", "t-crashy", "--params", "{}"),
                1, "connector_auth_failed");
        exit(cli(op, "operation", "call", "kubex-1.x", "kubex.pod.get", "--target", "t-kube", "--params",
                "{\"name\":\"fail\"}"), 1, "HTTP 403");
        exit(cli(op, "operation", "call", "kubex-1.x", "kubex.config.check", "--target", "t-kube", "--params", "{}"), 1,
                "IllegalStateException");
        exit(cli(op, "operation", "preview", "canary-1.x", "canary.item2.delete", "--target", "t-ok", "--params",
                JSON.writeValueAsString(secretParams(Map.of("name", "e")))), 0, "preview_hash sha256:");
        CliRunner adm = runner(admin2);
        Map<String, String> decisions = Map.of(approved, "APPROVED", rejected, "REJECTED", asyncApproval, "APPROVED");
        for (String id : List.of(approved, rejected, asyncApproval)) {
            exit(cli(adm, "approvals", "show", id), 0, decisions.get(id));
        }
        String pendingCli = call(operator, "canary-1.x", "canary.item5.delete", "t-egress",
                secretParams(Map.of("name", "f")), Map.of()).path("extras").path("approval_request_id").asText();
        exit(cli(adm, "approvals", "show", pendingCli), 0, "PENDING");
        exit(cli(adm, "approvals", "list", "--status", "pending"), 0, pendingCli);
        // approved, and then its execution fails against the echoing egress target: exit 1, the approval shown approved
        exit(cli(adm, "approvals", "approve", pendingCli, "--reason", "ok"), 1, "APPROVED");
        assertThat(approval(operator, pendingCli).path("status").asText()).isEqualTo("approved");
        for (String t : List.of("t-ok", "t-500", "t-egress", "t-crashy", "t-kube")) {
            exit(cli(op, "audit", "query", "--target", t, "--since", "1h"), 0, " " + t + " ");
        }
        exit(cli(op, "targets", "probe", "t-egress"), 0, "NOT reachable (connector_unreachable");
        exit(cli(op, "targets", "probe", "t-kube-wrong"), 0, "connector_auth_failed");
        CliRunner evAdmin = runner(admin);
        // a secret on the command line is refused as a usage error (it would sit in the shell's history)
        exit(cli(evAdmin, Map.of(), "", "event-source", "add", "canary-cli-source-0123456789", "--name", "canary-cli",
                "--kind", "alertrouter", "--auth-strategy", "basic", "--secret", CANARY), 2, "");
        exit(cli(evAdmin, Map.of(), CANARY, "event-source", "add", "canary-cli-source-0123456789", "--name", "canary-cli",
                "--kind", "alertrouter", "--auth-strategy", "basic", "--secret-stdin"), 0, "created event source");
        exit(cli(evAdmin, "event-source", "describe", "canary-cli-source-0123456789", "--json"), 0,
                "\"secret_version\" : 1");
        assertThat(ingest("canary-cli-source-0123456789", "{\"status\":\"firing\"}", Map.of("Authorization", BASIC))
                .statusCode()).isEqualTo(200);

        secretDeclaredByThePlugin(normal, userpass);
        agentRuns();
        runbookRun();

        // the audit log as REST shows it, the governance trail included
        assertThat(send("GET", "/api/v1/audit?since=1h&limit=1000", operator, null).status()).isEqualTo(200);
        assertThat(send("GET", "/api/v1/audit/mine", operator, null).status()).isEqualTo(200);
        var trail = send("GET", "/api/v1/audit?op_id=svc.governance.*&limit=1000", operator, null);
        assertThat(trail.status()).isEqualTo(200);
        assertThat(trail.json().path("rows").size()).as("the governance trail was swept").isGreaterThan(30);
    }

    private void sweep(long t0, long exercised) throws Exception {
        List<String> hits = new ArrayList<>();
        List<String> noteSeen = new ArrayList<>();
        DbSweep db = sweepDatabase(kernel.kernel().database().dataSource(), hits, noteSeen);
        for (String a : ANSWERS) {
            check("HTTP answer", a, hits);
            if (a.contains(NOTE)) {
                noteSeen.add("HTTP answer " + firstLine(a));
            }
        }
        List<String> logLines = List.copyOf(logs.lines());
        for (String line : logLines) {
            check("log", line, hits);
            if (line.contains(NOTE)) {
                hits.add("note param in log: " + excerpt(line, NOTE));
            }
        }
        for (String c : CLI) {
            check("CLI", c, hits);
            if (c.contains(NOTE)) {
                noteSeen.add("CLI " + firstLine(c));
            }
        }
        long swept = System.nanoTime();
        System.out.println("SecretCanaryIT: " + db.tables() + " tables/" + db.columns() + " columns swept, "
                + ANSWERS.size() + " HTTP answers, " + logLines.size() + " log lines, canary hits = " + hits.size());
        System.out.println("SecretCanaryIT: also " + CLI.size() + " CLI runs' stdout/stderr swept; exercise "
                + (exercised - t0) / 1_000_000 + " ms, sweep " + (swept - exercised) / 1_000_000 + " ms");
        System.out.println("SecretCanaryIT: the kv store under " + work.resolve("data").resolve("kv")
                + " (files, where secrets legitimately live) is not swept");
        noteSeen.forEach(n -> System.out.println("SecretCanaryIT: note param (not secret-looking) seen in " + n));
        hits.forEach(h -> System.out.println("SecretCanaryIT HIT: " + h));
        assertThat(hits).as("canary hits outside the kv store").isEmpty();
        // positive controls: the sweep finds a value where it must be, and covered what it claims to
        assertThat(noteSeen).as("the note param is in the approvals it was parked in")
                .anyMatch(n -> n.startsWith("database public.governance_approvals.resolved"))
                .anyMatch(n -> n.startsWith("HTTP answer GET /api/v1/approvals/"))
                .anyMatch(n -> n.startsWith("CLI svc approvals show"));
        assertThat(db.tables()).isGreaterThanOrEqualTo(50);
        assertThat(db.columns()).isGreaterThan(250);
        assertThat(ANSWERS).hasSizeGreaterThan(140);
        assertThat(CLI).hasSizeGreaterThan(25);
        assertThat(logLines).as("the plugin's log record reached the sweep (with its secret scrubbed)")
                .anyMatch(l -> l.contains("retrying login as svc"));
        assertThat(logLines).as("records below INFO were produced and swept: the plugin's DEBUG line")
                .anyMatch(l -> l.startsWith("FINE ") && l.contains("verbose login as svc"));
    }

    // ---------------------------------------------------------------- secrets only a plugin knows

    private static Map<String, Object> vaultParams(String path) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("path", path);
        p.put("data", Map.of("value", CANARY));
        p.put("note", NOTE);
        return p;
    }

    /** The resolved params of an approval as {@code token} reads it, over REST. */
    private JsonNode approvalAs(String token, String id) {
        var r = send("GET", "/api/v1/approvals/" + id, token, null);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json().path("resolved").path("params");
    }

    /**
     * vaultish.kv.write parks and declares {@code data} secret: every role that can see the approval (a read_only
     * member too, over REST and the CLI, pending and decided) sees {@code data} hidden and {@code note} as sent.
     */
    private void secretDeclaredByThePlugin(HttpServer normal, Map<String, String> userpass) throws IOException {
        registerTarget("t-vault", "vaultish", normal, userpass);
        assertThat(send("POST", "/api/v1/connectors/vaultish-1.x/enable", admin, null).status()).isEqualTo(200);
        assertThat(send("PATCH", "/api/v1/connectors/vaultish-1.x/operations/vaultish.kv.write", admin,
                Map.of("is_enabled", true)).status()).isEqualTo(200);
        JsonNode pending = call(operator, "vaultish-1.x", "vaultish.kv.write", "t-vault", vaultParams("app"), Map.of());
        assertThat(pending.path("status").asText()).as(pending.toString()).isEqualTo("awaiting_approval");
        String pendingId = pending.path("extras").path("approval_request_id").asText();
        String decidedId = call(operator, "vaultish-1.x", "vaultish.kv.write", "t-vault", vaultParams("db"), Map.of())
                .path("extras").path("approval_request_id").asText();
        for (String token : List.of(readOnly, operator, admin2)) {
            JsonNode params = approvalAs(token, pendingId);
            assertThat(params.path("data").asText()).as(params.toString()).isEqualTo("***REDACTED***");
            assertThat(params.path("note").asText()).isEqualTo(NOTE);
            var list = send("GET", "/api/v1/approvals?status=pending", token, null);
            assertThat(list.status()).isEqualTo(200);
            assertThat(list.body()).contains(pendingId).contains(NOTE);
        }
        CliRunner ro = runner(readOnly);
        assertThat(cli(ro, "approvals", "show", pendingId).exitCode()).isZero();
        assertThat(cli(ro, "approvals", "list", "--status", "pending").exitCode()).isZero();
        var decided = send("POST", "/api/v1/approvals/" + decidedId + "/approve", admin2, Map.of("reason", "ok"));
        assertThat(decided.status()).as(decided.body()).isEqualTo(200);
        assertThat(decided.json().path("result").path("status").asText()).as(decided.body()).isEqualTo("ok");
        assertThat(approvalAs(readOnly, decidedId).path("data").asText()).isEqualTo("***REDACTED***");
        assertThat(send("GET", "/api/v1/approvals?status=approved", readOnly, null).status()).isEqualTo(200);
        // pendingId stays pending through the sweep: only the row's params column (what it runs with) may hold it
    }

    // ---------------------------------------------------------------- an agent run and a runbook run

    private JsonNode awaitAgentRun(String handle, String... statuses) throws InterruptedException {
        JsonNode run = null;
        for (int i = 0; i < 300; i++) {
            run = send("GET", "/api/v1/agent-runs/" + handle, operator, null).json();
            if (List.of(statuses).contains(run.path("status").asText())) {
                return run;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("agent run " + handle + " never reached " + List.of(statuses) + ": " + run);
    }

    private static Map<String, Object> toolArgs(String connector, String op, String target, Map<String, Object> params) {
        return Map.of("connector_id", connector, "op_id", op, "target", target, "params", params);
    }

    /**
     * A scripted model sends the canary in call_operation's arguments (a list that answers item names, an echoing
     * target, a write that parks and is approved mid-run), once as a run and once on the run-events stream. The
     * events keep what was acted on and the params hash of the audit row, never arguments or results.
     */
    private void agentRuns() throws Exception {
        assertThat(send("POST", "/api/v1/agent-principals", admin, Map.of("name", "canary-bot")).status()).isEqualTo(201);
        var def = send("POST", "/api/v1/agents", admin, Map.of("name", "canary-agent", "identity_ref", "canary-bot",
                "system_prompt", "You look after items.", "toolset", Map.of("call_operation", true)));
        assertThat(def.status()).as(def.body()).isEqualTo(201);
        model.then(
                ScriptedModel.toolCall("call_operation", toolArgs("canary-1.x", "canary.item0.list", "t-ok",
                        secretParams(Map.of("count", 3)))),
                ScriptedModel.toolCall("call_operation", toolArgs("canary-1.x", "canary.item1.get", "t-500",
                        secretParams(Map.of("name", "r")))),
                ScriptedModel.toolCall("call_operation", toolArgs("vaultish-1.x", "vaultish.kv.write", "t-vault",
                        vaultParams("agent"))),
                ScriptedModel.text("all done"));
        var started = send("POST", "/api/v1/agents/canary-agent/runs", operator, Map.of("input", "tidy up " + NOTE,
                "async", true));
        assertThat(started.status()).as(started.body()).isEqualTo(202);
        String handle = started.json().path("handle").asText();
        String approval = awaitAgentRun(handle, "awaiting_approval").path("approval_request_id").asText();
        JsonNode shown = approvalAs(readOnly, approval);
        assertThat(shown.path("data").asText()).as(shown.toString()).isEqualTo("***REDACTED***");
        var approved = send("POST", "/api/v1/approvals/" + approval + "/approve", admin2, Map.of("reason", "ok"));
        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        assertThat(awaitAgentRun(handle, "succeeded", "failed").path("status").asText()).isEqualTo("succeeded");
        var events = send("GET", "/api/v1/agent-runs/" + handle + "/events", operator, null);
        assertThat(events.status()).isEqualTo(200);
        List<String> kinds = new ArrayList<>();
        List<String> hashes = new ArrayList<>();
        events.json().path("events").forEach(e -> {
            kinds.add(e.path("kind").asText());
            if (e.path("kind").asText().equals("tool_call")) {
                assertThat(e.path("payload").path("op_id").asText()).as(e.toString()).isNotEmpty();
                hashes.add(e.path("payload").path("params_hash").asText());
            }
        });
        assertThat(kinds).contains("tool_call", "tool_result", "approval_parked", "approval_decided", "final_output");
        assertThat(events.body()).as("no arguments and no result text in the events")
                .doesNotContain(NOTE).doesNotContain("item-0").doesNotContain("\"arguments\"")
                .doesNotContain("\"summary\"");
        String listHash = kernel.jdbc().queryOne("SELECT params_hash FROM audit_rows WHERE session_id = ? AND op_id = "
                + "'canary.item0.list'", rs -> rs.getString(1), UUID.fromString(handle)).orElseThrow();
        assertThat(hashes).as("a call's event carries its audit row's params hash").contains(listHash);
        assertThat(send("GET", "/api/v1/agent-runs/" + handle, operator, null).status()).isEqualTo(200);
        assertThat(send("GET", "/api/v1/agent-runs?agent_name=canary-agent", operator, null).status()).isEqualTo(200);

        model.then(
                ScriptedModel.toolCall("call_operation", toolArgs("canary-1.x", "canary.item0.list", "t-ok",
                        secretParams(Map.of("count", 2)))),
                ScriptedModel.toolCall("call_operation", toolArgs("canary-1.x", "canary.item1.get", "t-egress",
                        secretParams(Map.of("name", "s")))),
                ScriptedModel.text("streamed"));
        var stream = send("POST", "/api/v1/agents/canary-agent/run-events", operator, Map.of("input", "stream " + NOTE));
        assertThat(stream.status()).as(stream.body()).isEqualTo(200);
        assertThat(stream.body()).contains("event: tool_call").contains("event: tool_result").contains("run_finished")
                .doesNotContain(NOTE).doesNotContain("item-0");
    }

    /** A runbook run: a step against the echoing target, then a write parked for approval, approved, completed. */
    private void runbookRun() {
        String yaml = """
                title: Canary runbook
                description: Touches the canary's paths.
                target_kind: canary
                inputs:
                  - name: item
                    description: the item
                steps:
                  - name: look
                    instruction: Look at {{input.item}}.
                    operation:
                      connector_id: canary-1.x
                      op_id: canary.item1.get
                      params: {name: "{{input.item}}"}
                    verify: Did it answer?
                  - name: remove
                    instruction: Delete {{input.item}}.
                    operation:
                      connector_id: canary-1.x
                      op_id: canary.item5.delete
                      params: {name: "{{input.item}}"}
                    verify: Deleted?
                """;
        assertThat(send("POST", "/api/v1/runbooks/templates", admin, Map.of("slug", "canary-rb", "yaml", yaml)).status())
                .isEqualTo(201);
        assertThat(send("POST", "/api/v1/runbooks/templates/canary-rb/publish", admin, null).status()).isEqualTo(200);
        var run = send("POST", "/api/v1/runbooks/runs", operator, Map.of("slug", "canary-rb", "target", "t-500",
                "inputs", Map.of("item", "rb-item"), "work_ref", "CHG-CANARY"));
        assertThat(run.status()).as(run.body()).isEqualTo(201);
        String id = run.json().path("id").asText();
        String path = "/api/v1/runbooks/runs/" + id;
        var first = send("POST", path + "/next", operator, Map.of());
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(first.json().path("current_step").path("phase").asText()).isEqualTo("executed");
        assertThat(send("POST", path + "/next", operator, Map.of("verify_response", "yes", "step", 1)).status())
                .isEqualTo(200);
        var parked = send("POST", path + "/next", operator, Map.of());
        assertThat(parked.json().path("status").asText()).as(parked.body()).isEqualTo("awaiting_approval");
        String approval = parked.json().path("current_step").path("approval_request_id").asText();
        assertThat(approvalAs(readOnly, approval).path("name").asText()).isEqualTo("rb-item");
        assertThat(send("POST", "/api/v1/approvals/" + approval + "/approve", admin2, Map.of("reason", "ok")).status())
                .isEqualTo(200);
        var resumed = send("POST", path + "/next", operator, Map.of());
        assertThat(resumed.json().path("current_step").path("phase").asText()).as(resumed.body()).isEqualTo("executed");
        expect(send("GET", path, readOnly, null), 403, "insufficient_role"); // runbook runs are read by operators
        assertThat(send("GET", path, operator, null).status()).isEqualTo(200);
        var done = send("POST", path + "/next", operator, Map.of("verify_response", "yes"));
        assertThat(done.json().path("status").asText()).as(done.body()).isEqualTo("completed");
    }

    // ---------------------------------------------------------------- sweeping

    private static String mask(String s) {
        String out = s.replace(CANARY_B64, "<CANARY-B64>");
        for (String aligned : CANARY_B64_ALIGNED) {
            out = out.replace(aligned, "<CANARY-B64-ALIGNED>");
        }
        return out.replace(CANARY, "<CANARY>").replace(NOTE, "<NOTE>");
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return mask(nl < 0 ? s : s.substring(0, nl));
    }

    private static String excerpt(String text, String needle) {
        int at = text.indexOf(needle);
        int from = Math.max(0, at - 140);
        int to = Math.min(text.length(), at + needle.length() + 60);
        return mask(text.substring(from, to).replace('\n', ' '));
    }

    private static void check(String where, String text, List<String> hits) {
        for (String needle : NEEDLES) {
            if (text.contains(needle)) {
                hits.add(where + " [" + firstLine(text) + "]: " + excerpt(text, needle));
            }
        }
    }

    private record DbSweep(int tables, int columns) {
    }

    /** Tables that must not hold the note param at all. */
    private static final List<String> NOTE_FREE = List.of("audit_rows", "agent_run_events", "agent_runs");

    private static DbSweep sweepDatabase(DataSource ds, List<String> hits, List<String> noteSeen) throws SQLException {
        Map<String, List<String[]>> byTable = new LinkedHashMap<>();
        try (Connection c = ds.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT t.table_schema, t.table_name, col.column_name, col.data_type
                      FROM information_schema.tables t
                      LEFT JOIN information_schema.columns col
                        ON col.table_schema = t.table_schema AND col.table_name = t.table_name
                       AND col.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY',
                                             'bytea', 'tsvector', 'xml')
                     WHERE t.table_type = 'BASE TABLE'
                       AND t.table_schema NOT IN ('pg_catalog', 'information_schema')
                       AND t.table_schema NOT LIKE 'pg_toast%'
                     ORDER BY t.table_schema, t.table_name, col.ordinal_position""");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<String[]> cols = byTable.computeIfAbsent(quote(rs.getString(1)) + "." + quote(rs.getString(2)),
                            k -> new ArrayList<>());
                    if (rs.getString(3) != null) {
                        cols.add(new String[] {rs.getString(3), rs.getString(4)});
                    }
                }
            }
            int columns = 0;
            for (Map.Entry<String, List<String[]>> table : byTable.entrySet()) {
                // params are hashed on audit rows, and agent runs keep neither prompts nor tool arguments
                boolean noteForbidden = NOTE_FREE.stream().anyMatch(t -> table.getKey().endsWith("\"" + t + "\""));
                for (String[] col : table.getValue()) {
                    columns++;
                    String expr = col[1].equals("bytea") ? "encode(" + quote(col[0]) + ", 'escape')"
                            : quote(col[0]) + "::text";
                    // a call parked for approval must keep its real params until it is decided (it runs with
                    // them); the row clears them when approved, rejected, expired or withdrawn — so only a
                    // still-pending request may hold them, and nothing else anywhere
                    String pendingParams = table.getKey().endsWith("\"governance_approvals\"") && col[0].equals("params")
                            ? " AND status <> 'pending'" : "";
                    for (String needle : java.util.stream.Stream.concat(NEEDLES.stream(), java.util.stream.Stream.of(NOTE))
                            .toList()) {
                        try (PreparedStatement ps = c.prepareStatement("SELECT count(*), min(substring(" + expr
                                + " from greatest(strpos(" + expr + ", ?) - 120, 1) for 240)) FROM " + table.getKey()
                                + " WHERE strpos(" + expr + ", ?) > 0" + pendingParams)) {
                            ps.setString(1, needle);
                            ps.setString(2, needle);
                            try (ResultSet rs = ps.executeQuery()) {
                                rs.next();
                                long n = rs.getLong(1);
                                if (n == 0) {
                                    continue;
                                }
                                String where = table.getKey().replace("\"", "") + "." + col[0] + " (" + n + " row(s)): "
                                        + mask(rs.getString(2)).replace('\n', ' ');
                                if (!needle.equals(NOTE)) {
                                    hits.add("database " + where);
                                } else if (noteForbidden) {
                                    hits.add("note param where params must not be: database " + where);
                                } else {
                                    noteSeen.add("database " + where);
                                }
                            }
                        }
                    }
                }
            }
            return new DbSweep(byTable.size(), columns);
        }
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
