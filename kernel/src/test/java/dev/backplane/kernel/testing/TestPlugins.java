package dev.backplane.kernel.testing;

import dev.backplane.plugin.api.ConnectorPlugin;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds small plugin jars during a test run: Java sources compiled against plugin-api and pf4j,
 * packed with a PF4J manifest and extension index, exactly as a real plugin build would.
 */
public final class TestPlugins {

    private TestPlugins() {
    }

    /** A plugin jar to build. */
    public static final class Spec {
        final String implId;
        final String version;
        final Map<String, String> manifest = new LinkedHashMap<>();
        final Map<String, String> sources = new LinkedHashMap<>();
        final List<String> extensions = new ArrayList<>();
        String product = "demo";
        List<String> ranges = List.of("*");
        int operations = 3;
        String extraBody = "";
        String descriptionExpression = "\"\"";
        List<String> nouns = List.of("item");
        boolean httpProbe;
        boolean typedOps;
        boolean discovery;
        String opPrefix;

        Spec(String implId, String version) {
            this.implId = implId;
            this.version = version;
            manifest.put("Plugin-Id", implId + "-" + version);
            manifest.put("Plugin-Version", "1.0.0");
            manifest.put("Plugin-Api-Version", "1.0");
            manifest.put("Connector-Impl-Id", implId);
            manifest.put("Connector-Version", version);
        }

        public Spec manifest(String name, String value) {
            manifest.compute(name, (n, old) -> value); // a null value removes the entry
            return this;
        }

        public Spec product(String token) {
            product = token;
            return this;
        }

        public Spec ranges(String... r) {
            ranges = List.of(r);
            return this;
        }

        public Spec operations(int n) {
            operations = n;
            return this;
        }

        /** Java statements run at the start of connectors() (e.g. to throw or hang). */
        public Spec onConnectors(String statements) {
            extraBody = statements;
            return this;
        }

        /** A Java expression appended to the first operation's description (observes the class loader). */
        public Spec describeWith(String expression) {
            descriptionExpression = expression;
            return this;
        }

        /** An extra class packed into the plugin jar (a third-party library it carries). */
        public Spec withClass(String className, String source) {
            sources.put(className, source);
            return this;
        }

        /** Nouns the generated operations cycle through (default just "item"). */
        public Spec nouns(String... n) {
            nouns = List.of(n);
            return this;
        }

        /** The connector really connects: probe is GET /version over the lent HTTP client with basic auth. */
        public Spec httpProbe(boolean withDiscovery) {
            httpProbe = true;
            discovery = withDiscovery;
            return this;
        }

        /**
         * Adds a typed and a composite operation (no single HTTP request, so no preview); the composite GETs
         * {@code /version} as a step audited under it, child op {@code <impl>.status.typed}.
         */
        public Spec typedAndComposite() {
            typedOps = true;
            return this;
        }

        /**
         * The first word of the generated op ids (default: the impl_id): two implementations of one product
         * given the same prefix offer the same operations, as two ingests of one vendor's API do.
         */
        public Spec opPrefix(String prefix) {
            opPrefix = prefix;
            return this;
        }

        String prefix() {
            return opPrefix != null ? opPrefix : implId.replace('-', '_');
        }

        public Spec withoutExtension() {
            extensions.add("-");
            return this;
        }
    }

    public static Spec connector(String implId, String version) {
        return new Spec(implId, version);
    }

    /** Builds the jar into {@code dir} and returns its path. */
    public static Path build(Path dir, Spec spec) {
        String pkg = "fixture." + spec.implId.replace('-', '_') + "_" + spec.version.replaceAll("\\W", "_");
        String cls = pkg + ".FixturePlugin";
        Map<String, String> sources = new LinkedHashMap<>(spec.sources);
        sources.put(cls, pluginSource(pkg, spec));
        Path jar = dir.resolve(spec.implId + "-" + spec.version + ".jar");
        try {
            Path classes = TempDirs.create("plugin-classes");
            compile(sources, classes);
            Manifest m = new Manifest();
            m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            spec.manifest.forEach((k, v) -> m.getMainAttributes().putValue(k, v));
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
                if (!spec.extensions.contains("-")) {
                    out.putNextEntry(new JarEntry("META-INF/extensions.idx"));
                    out.write((cls + "\n").getBytes(StandardCharsets.UTF_8));
                    out.closeEntry();
                }
                try (Stream<Path> files = Files.walk(classes)) {
                    for (Path f : files.filter(Files::isRegularFile).toList()) {
                        out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                        out.write(Files.readAllBytes(f));
                        out.closeEntry();
                    }
                }
            }
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes a file that is not a jar at all. */
    public static Path garbage(Path dir, String name) {
        try (OutputStream out = Files.newOutputStream(dir.resolve(name))) {
            out.write("this is not a zip file".getBytes(StandardCharsets.UTF_8));
            return dir.resolve(name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String pluginSource(String pkg, Spec s) {
        String ranges = String.join(", ", s.ranges.stream().map(r -> "\"" + r + "\"").toList());
        return """
                package %s;

                import dev.backplane.plugin.api.*;
                import java.util.*;

                @org.pf4j.Extension
                public class FixturePlugin implements ConnectorPlugin {
                    static final String[] NOUNS = {%s};

                    @Override
                    public List<ConnectorFactory> connectors() {
                        %s
                        return List.of(new ConnectorFactory() {
                            public ConnectorDescriptor descriptor() {
                                return new ConnectorDescriptor("%s", "%s",
                                    List.of(new ConnectorDescriptor.Product("%s", 443)), List.of(%s),
                                    List.of("username", "password"));
                            }
                            public Catalog catalog() {
                                List<OperationDescriptor> ops = new ArrayList<>();
                                for (int i = 0; i < %d; i++) {
                                    String verb = i %% 3 == 0 ? "list" : i %% 3 == 1 ? "get" : "delete";
                                    String noun = NOUNS[i %% NOUNS.length];
                                    String text = verb.equals("list") ? "List every" : verb.equals("get") ? "Show one" : "Delete one";
                                    String description = text + " " + noun + " number " + i
                                        + (verb.equals("delete") ? " permanently" : "") + (i == 0 ? %s : "");
                                    ops.add(new OperationDescriptor("%s." + noun + i + "." + verb, i %% 2 == 0 ? "items" : "admin",
                                        description, verb.equals("delete") ? SafetyLevel.DANGEROUS : SafetyLevel.SAFE,
                                        verb.equals("delete"), verb.equals("delete") ? OpClass.WRITE : OpClass.READ,
                                        "{\\"type\\":\\"object\\",\\"properties\\":{\\"name\\":{\\"type\\":\\"string\\"}}}",
                                        new OperationShape.Http(verb.equals("delete") ? "DELETE" : "GET", "/" + noun + "s/{name}"),
                                        verb.equals("list") ? ResultKind.SET : ResultKind.OBJECT));
                                }
                                if (%s) {
                                    ops.add(new OperationDescriptor("%s.status.typed", "admin", "Status through a typed client",
                                        SafetyLevel.SAFE, false, OpClass.READ, "{\\"type\\":\\"object\\"}",
                                        new OperationShape.Typed(), ResultKind.OBJECT));
                                    ops.add(new OperationDescriptor("%s.sync.composite", "admin", "Several calls at once",
                                        SafetyLevel.CAUTION, false, OpClass.WRITE, "{\\"type\\":\\"object\\"}",
                                        new OperationShape.Composite(), ResultKind.OBJECT));
                                }
                                return new Catalog(List.of(
                                    new OperationGroup("items", "Items", "Look at or change items"),
                                    new OperationGroup("admin", "Administration", "Manage the appliance")), ops);
                            }
                            public Connector open(ConnectorContext c, TargetSpec t, Credential cred) {
                                %s
                            }
                        });
                    }
                }
                """.formatted(pkg, String.join(", ", s.nouns.stream().map(n -> "\"" + n + "\"").toList()), s.extraBody,
                s.implId, s.version, s.product, ranges, s.operations, s.descriptionExpression, s.prefix(),
                s.typedOps, s.prefix(), s.prefix(),
                s.httpProbe ? HTTP_SESSION.replace("/*DISCOVERY*/", s.discovery ? DISCOVERY : "")
                        .replace("/*IMPLEMENTS*/", s.discovery ? ", Discovery" : "")
                        : "throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, \"fixture connectors do not connect\");");
    }

    private static final String HTTP_SESSION = """
            String auth = "Basic " + java.util.Base64.getEncoder().encodeToString((cred.field("username") + ":"
                + cred.field("password")).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            String base = String.valueOf(t.extras().getOrDefault("scheme", "https")) + "://" + t.host() + ":" + t.port();
            class Session implements Connector /*IMPLEMENTS*/ {
                String get(String path) {
                    return send("GET", path);
                }
                String send(String method, String path) {
                    try {
                        java.net.http.HttpResponse<String> r = c.httpClient().send(java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create(base + path)).header("Authorization", auth)
                            .method(method, java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() == 401) {
                            throw new ConnectorException(ErrorCode.CONNECTOR_AUTH_FAILED, "the target rejected the credential");
                        }
                        if (r.headers().firstValue("X-Svc-Egress").isPresent()) {
                            throw new ConnectorException(ErrorCode.CONNECTOR_UNREACHABLE, r.body());
                        }
                        return r.body();
                    } catch (javax.net.ssl.SSLException e) {
                        throw new ConnectorException(ErrorCode.CONNECTOR_TLS_VERIFY_FAILED, "TLS with " + base + " failed",
                            Map.of("exception_message", String.valueOf(e.getMessage())), e);
                    } catch (java.io.IOException e) {
                        throw new ConnectorException(ErrorCode.CONNECTOR_UNREACHABLE, "cannot reach " + base + ": " + e);
                    } catch (InterruptedException e) {
                        throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "interrupted");
                    }
                }
                public Fingerprint probe() {
                    String version = get("/version").trim();
                    return new Fingerprint(Optional.of("fixture"), Optional.of(t.product() + "-edition"), Optional.of(version),
                        true, c.clock().instant(), "GET /version");
                }
                public OperationResult invoke(OperationRequest r) {
                    String name = String.valueOf(r.params().getOrDefault("name", ""));
                    if (name.equals("preview-breaks")) { // a plugin whose preview code has a bug
                        throw new IllegalStateException("preview bug for " + name);
                    }
                    if (r.opId().endsWith(".list")) {
                        List<Map<String, Object>> rows = new ArrayList<>();
                        int i = 0;
                        for (String line : get("/items?count=" + r.params().getOrDefault("count", 3)).split("\\n")) {
                            if (!line.isBlank()) {
                                rows.add(Map.of("name", line.trim(), "index", i++, "even", i % 2 == 1));
                            }
                        }
                        return new OperationResult.Rows(rows);
                    }
                    if (r.opId().endsWith(".get")) {
                        return new OperationResult.Document(Map.of("name", name, "body", get("/items/" + name)));
                    }
                    if (r.opId().endsWith(".delete")) {
                        send("DELETE", "/items/" + name);
                        return new OperationResult.Document(Map.of("deleted", name));
                    }
                    if (r.opId().endsWith(".composite")) {
                        // its one child request is audited under it (plugin-api 1.6): no row, no request
                        try (CompositeStep step = c.beginStep(r.opId().replace(".sync.composite", ".status.typed"))) {
                            String version = get("/version").trim();
                            step.succeeded();
                            return new OperationResult.Document(Map.of("version", version));
                        }
                    }
                    if (r.opId().endsWith(".typed")) {
                        return new OperationResult.Document(Map.of("version", get("/version").trim()));
                    }
                    return new OperationResult.Failure(ErrorCode.UNKNOWN_OPERATION, "no operation " + r.opId(), Map.of());
                }
                public Optional<HttpPreview> preview(OperationRequest r) {
                    if (r.opId().endsWith(".typed") || r.opId().endsWith(".composite")) {
                        return Optional.empty();
                    }
                    String name = String.valueOf(r.params().getOrDefault("name", ""));
                    if (name.equals("preview-breaks")) { // a plugin whose preview code has a bug
                        throw new IllegalStateException("preview bug for " + name);
                    }
                    if (r.opId().endsWith(".list")) {
                        return Optional.of(new HttpPreview("GET", "/items", Map.of("count",
                            List.of(String.valueOf(r.params().getOrDefault("count", 3)))), Optional.empty()));
                    }
                    return Optional.of(new HttpPreview(r.opId().endsWith(".delete") ? "DELETE" : "GET", "/items/" + name,
                        Map.of(), Optional.empty()));
                }
                /*DISCOVERY*/
                public void close() {
                }
            }
            return new Session();
            """;

    private static final String DISCOVERY = """
            public List<Map<String, Object>> discover(String product) {
                String body = get("/members").trim();
                List<Map<String, Object>> out = new ArrayList<>();
                for (String m : body.split(",")) { // members on the seed's host, ports 7001, 7002, ...
                    out.add(Map.of("name", m, "product", product, "host", t.host(), "port", 7001 + out.size()));
                }
                return out;
            }
            """;

    private static void compile(Map<String, String> sources, Path out) throws IOException {
        Path src = TempDirs.create("plugin-src");
        List<String> files = new ArrayList<>();
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path f = src.resolve(e.getKey().replace('.', '/') + ".java");
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
            files.add(f.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("-proc:none", "--release", "21", "-d", out.toString(),
                "-cp", location(ConnectorPlugin.class) + java.io.File.pathSeparator + location(org.pf4j.Extension.class)));
        args.addAll(files);
        java.io.ByteArrayOutputStream errors = new java.io.ByteArrayOutputStream();
        if (javac.run(null, errors, errors, args.toArray(String[]::new)) != 0) {
            throw new IllegalStateException("fixture plugin did not compile:\n" + errors);
        }
    }

    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
