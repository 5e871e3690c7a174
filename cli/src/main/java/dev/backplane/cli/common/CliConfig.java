package dev.backplane.cli.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The CLI's config file: named contexts (a backplane, the identity whose tokens are used there, a tenant and an output
 * default), the current one, and per backplane how to reach its identity provider. Holds no secrets (tokens live in
 * the token store, under each context's identity key).
 *
 * <p>A file written before contexts existed holds only the latest backplane and the backplanes logged in to: it is
 * read as one context per backplane, named after its host, the latest one current, each using the tokens already
 * stored for its URL, so nothing has to be logged in again.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class CliConfig {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** What a login recorded about one backplane. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Backplane(@JsonProperty("issuer") String issuer,
                            @JsonProperty("client_id") String clientId,
                            @JsonProperty("token_endpoint") String tokenEndpoint,
                            @JsonProperty("resolve") List<String> resolve,
                            @JsonProperty("insecure_allow_http") boolean insecureAllowHttp) {
        public Backplane {
            resolve = resolve == null ? List.of() : List.copyOf(resolve);
        }
    }

    /**
     * A named way to reach a backplane: its URL, the key its tokens are stored under (the URL itself for the context
     * a plain login makes, URL#name for a context named at login so two principals can log in to one backplane), and
     * the tenant and output a command uses when it names none.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Context(@JsonProperty("backplane") String backplane,
                          @JsonProperty("identity") String identity,
                          @JsonProperty("tenant") String tenant,
                          @JsonProperty("output") String output) {

        public Context withTenant(String t) {
            return new Context(backplane, identity, t, output);
        }

        public Context withOutput(String o) {
            return new Context(backplane, identity, tenant, o);
        }
    }

    /** Kept for CLIs older than contexts: the current context's backplane. */
    @JsonProperty("backplane")
    private String latest;

    @JsonProperty("current_context")
    private String current;

    @JsonProperty("contexts")
    private Map<String, Context> contexts = new LinkedHashMap<>();

    @JsonProperty("backplanes")
    private Map<String, Backplane> backplanes = new LinkedHashMap<>();

    public static CliConfig load(Path file) {
        if (!Files.isRegularFile(file)) {
            return new CliConfig();
        }
        try {
            com.fasterxml.jackson.databind.JsonNode tree = JSON.readTree(file.toFile());
            CliConfig c = tree == null || tree.isNull() || tree.isMissingNode() ? null
                    : JSON.treeToValue(tree, CliConfig.class);
            if (c == null) {
                throw CliException.failed("cannot read CLI config " + file + ": it holds no settings object");
            }
            if (c.backplanes == null) {
                c.backplanes = new LinkedHashMap<>();
            }
            if (c.contexts == null) {
                c.contexts = new LinkedHashMap<>();
            }
            if (!tree.has("contexts")) {
                c.migrate(); // only a file from before contexts: one whose last context was deleted stays empty
            }
            return c;
        } catch (IOException e) {
            throw CliException.failed("cannot read CLI config " + file + ": " + e.getMessage());
        }
    }

    public void save(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), ".config", ".tmp");
            JSON.writeValue(tmp.toFile(), this);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw CliException.failed("cannot write CLI config " + file + ": " + e.getMessage());
        }
    }

    /** A file from before contexts: a context per backplane, with the tokens stored under its URL. */
    private void migrate() {
        for (String url : backplanes.keySet()) {
            contexts.put(nameFor(url), new Context(url, url, null, null));
        }
        if (latest != null) {
            contexts.entrySet().stream().filter(e -> e.getValue().backplane().equals(latest)).findFirst()
                    .ifPresent(e -> current = e.getKey());
        }
    }

    /** The backplane of the current context. */
    public Optional<String> latest() {
        return currentContext().map(Context::backplane).or(() -> Optional.ofNullable(latest));
    }

    public Optional<String> currentName() {
        return Optional.ofNullable(current).filter(contexts::containsKey);
    }

    public Optional<Context> currentContext() {
        return currentName().map(contexts::get);
    }

    public Optional<Context> context(String name) {
        return Optional.ofNullable(contexts.get(name));
    }

    /** The contexts by name, in the order they were made. */
    public Map<String, Context> contexts() {
        return java.util.Collections.unmodifiableMap(contexts);
    }

    /** Adds or replaces {@code name}. */
    public void putContext(String name, Context context) {
        contexts.put(name, context);
    }

    /** Makes {@code name} (which must exist) the current context. */
    public void use(String name) {
        if (!contexts.containsKey(name)) {
            throw new IllegalArgumentException("no context " + name);
        }
        current = name;
        latest = contexts.get(name).backplane();
    }

    /** Renames a context, keeping its place, its identity (so its login) and whether it is current. */
    public void rename(String from, String to) {
        Map<String, Context> renamed = new LinkedHashMap<>();
        contexts.forEach((k, v) -> renamed.put(k.equals(from) ? to : k, v));
        contexts = renamed;
        if (from.equals(current)) {
            current = to;
        }
    }

    /** Removes a context; when it was current, no context is current. */
    public void remove(String name) {
        contexts.remove(name);
        if (name.equals(current)) {
            current = null;
            latest = null;
        }
    }

    /** Whether another context than {@code name} uses the tokens stored under {@code identity}. */
    public boolean identityShared(String name, String identity) {
        return contexts.entrySet().stream().anyMatch(e -> !e.getKey().equals(name)
                && e.getValue().identity().equals(identity));
    }

    /**
     * The context a plain login to {@code url} uses: the one already holding the URL's own tokens, else a new name
     * after the URL's host and port ({@code localhost-8080}), made unique.
     */
    public String nameFor(String url) {
        for (Map.Entry<String, Context> e : contexts.entrySet()) {
            if (e.getValue().identity().equals(url)) {
                return e.getKey();
            }
        }
        String base;
        try {
            java.net.URI uri = java.net.URI.create(url);
            base = (uri.getHost() == null ? "backplane" : uri.getHost()) + (uri.getPort() < 0 ? "" : "-" + uri.getPort());
        } catch (IllegalArgumentException e) {
            base = "backplane";
        }
        base = base.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9._-]", "-");
        String name = base;
        for (int i = 2; contexts.containsKey(name); i++) {
            name = base + "-" + i;
        }
        return name;
    }

    public Optional<Backplane> backplane(String url) {
        return Optional.ofNullable(backplanes.get(url));
    }

    /** What a login learned of {@code url}'s identity provider. */
    public void remember(String url, Backplane entry) {
        backplanes.put(url, entry);
        latest = url;
    }
}
