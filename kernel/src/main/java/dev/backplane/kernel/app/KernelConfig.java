package dev.backplane.kernel.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.backplane.kernel.broadcast.BroadcastSettings;
import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.credentials.SecretRefs;
import dev.backplane.kernel.credentials.VaultKvStore;
import dev.backplane.kernel.persistence.Database;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The kernel's settings: defaults, then the YAML file, then environment variables. An unknown key
 * in the file or a malformed value is a startup error naming the key, never silently ignored.
 */
public final class KernelConfig {

    private final Map<Setting, String> values;
    /** What the kernel's outbound TLS trusts (tls.ca-bundle); built once, when the settings are checked. */
    private OutboundTrust outboundTrust;

    private KernelConfig(Map<Setting, String> values) {
        this.values = values;
    }

    /** Loads {@code file} (may be absent) and applies overrides from {@code env}. */
    public static KernelConfig load(Optional<Path> file, Map<String, String> env) {
        Map<Setting, String> values = new EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            values.put(s, s.defaultValue());
        }
        file.ifPresent(path -> values.putAll(readYaml(path)));
        for (Setting s : Setting.values()) {
            String v = Optional.ofNullable(env.get(s.envVar()))
                    .or(() -> s.specEnvVar().map(env::get)).orElse(null);
            if (v != null) {
                values.put(s, v.trim());
            }
            Optional<String> valueFile = s.fileEnvVar().map(env::get).filter(f -> !f.isBlank());
            if (valueFile.isPresent()) {
                if (v != null) {
                    throw new ConfigException("both " + s.envVar() + " and " + s.fileEnvVar().get() + " are set; "
                            + "set one (" + s.fileEnvVar().get() + " names a file holding the value)");
                }
                values.put(s, secretFile(s, Path.of(valueFile.get().trim())));
            }
        }
        KernelConfig config = new KernelConfig(values);
        config.validate();
        return config;
    }

    /** Settings given explicitly, everything else at its default; for tests and embedding. */
    public static KernelConfig of(Map<Setting, String> overrides) {
        Map<Setting, String> values = new EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            values.put(s, overrides.getOrDefault(s, s.defaultValue()));
        }
        KernelConfig config = new KernelConfig(values);
        config.validate();
        return config;
    }

    /** A secret setting's value from the file its {@code _FILE} variable names; errors name the path, never content. */
    private static String secretFile(Setting s, Path path) {
        try {
            return Files.readString(path).replaceAll("[\\r\\n]+$", "");
        } catch (IOException | RuntimeException e) {
            throw new ConfigException(s.fileEnvVar().orElseThrow() + ": cannot read " + path + " ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    private static Map<Setting, String> readYaml(Path path) {
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(Files.readAllBytes(path));
        } catch (IOException e) {
            throw new ConfigException("cannot read config file " + path + ": " + e.getMessage());
        }
        Map<String, String> flat = new LinkedHashMap<>();
        if (root != null && !root.isMissingNode() && !root.isNull()) {
            if (!root.isObject()) {
                throw new ConfigException("config file " + path + " must hold a mapping of settings");
            }
            flatten("", root, flat);
        }
        Map<String, Setting> byKey = Arrays.stream(Setting.values()).collect(Collectors.toMap(Setting::key, s -> s));
        Map<Setting, String> result = new EnumMap<>(Setting.class);
        List<String> unknown = new ArrayList<>();
        flat.forEach((k, v) -> {
            Setting s = byKey.get(k);
            if (s == null) {
                unknown.add(k);
            } else {
                result.put(s, v);
            }
        });
        if (!unknown.isEmpty()) {
            throw new ConfigException("unknown setting(s) in " + path + ": " + unknown + "; known settings: "
                    + byKey.keySet());
        }
        return result;
    }

    private static void flatten(String prefix, JsonNode node, Map<String, String> out) {
        for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            JsonNode v = e.getValue();
            if (v.isObject()) {
                flatten(key, v, out);
            } else if (v.isArray()) {
                List<String> items = new ArrayList<>();
                v.forEach(item -> items.add(item.asText()));
                out.put(key, String.join(",", items));
            } else if (!v.isNull()) {
                out.put(key, v.asText()); // an empty key (null) leaves the setting at its default
            }
        }
    }

    private void validate() {
        for (Setting s : Setting.values()) {
            if (s.definition().range().isPresent()) {
                intValue(s);
            }
        }
        boolValue(Setting.LOG_ACCESS);
        boolValue(Setting.METRICS_ENABLED);
        boolValue(Setting.INGEST_EMBEDDINGS);
        LogLevels.parse(get(Setting.LOG_LEVEL));
        retrievalModel();
        vaultAuth();
        this.outboundTrust = trustOf(optional(Setting.TLS_CA_BUNDLE));
        try {
            dev.backplane.kernel.egress.SsrfGuard.fromSetting(get(Setting.TARGET_SSRF_ALLOWLIST));
            dev.backplane.kernel.credentials.SecretRefs.Backend.parse(get(Setting.CREDENTIALS_BACKEND));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    private static OutboundTrust trustOf(Optional<String> bundle) {
        try {
            return OutboundTrust.of(bundle.map(Path::of));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /** The Vault login the settings ask for; checked at start whether or not Vault is used. */
    private VaultKvStore.AuthMethod vaultAuth() {
        VaultKvStore.AuthMethod method;
        try {
            method = VaultKvStore.AuthMethod.parse(get(Setting.VAULT_AUTH_METHOD), optional(Setting.VAULT_TOKEN).isPresent());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        if (method == VaultKvStore.AuthMethod.KUBERNETES && optional(Setting.VAULT_ADDR).isPresent()) {
            required(Setting.VAULT_KUBERNETES_ROLE);
            if (optional(Setting.VAULT_KUBERNETES_MOUNT).isEmpty() || optional(Setting.VAULT_KUBERNETES_TOKEN_FILE).isEmpty()) {
                throw new ConfigException(Setting.VAULT_KUBERNETES_MOUNT.key() + " and "
                        + Setting.VAULT_KUBERNETES_TOKEN_FILE.key() + " must not be empty with auth-method kubernetes");
            }
        }
        return method;
    }

    /** What the kernel's outbound TLS clients trust: the JDK's roots, plus tls.ca-bundle when set. */
    public OutboundTrust outboundTrust() {
        return outboundTrust;
    }

    /** The level log.level names, in java.util.logging's terms. */
    public java.util.logging.Level logLevel() {
        return LogLevels.parse(get(Setting.LOG_LEVEL));
    }

    public String get(Setting setting) {
        return values.get(setting);
    }

    public Optional<String> optional(Setting setting) {
        String v = values.get(setting);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v);
    }

    public String required(Setting setting) {
        return optional(setting).orElseThrow(() -> new ConfigException(
                "setting " + setting.key() + " (environment variable " + setting.envVar() + ") is required: "
                        + setting.definition().description()));
    }

    /** A whole-number setting, checked against the range the setting declares. */
    public int intValue(Setting setting) {
        Setting.Range range = setting.definition().range().orElseThrow(
                () -> new IllegalArgumentException(setting.key() + " is not a number setting"));
        long min = range.min();
        long max = range.max();
        String raw = values.get(setting);
        try {
            int v = Integer.parseInt(raw.trim());
            if (v < min || v > max) {
                throw new ConfigException(setting.key() + " must be between " + min + " and " + max + ", got " + v);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new ConfigException(setting.key() + " must be an integer, got '" + raw + "'");
        }
    }

    /** A true/false setting; anything else fails the start with the setting's name. */
    public boolean boolValue(Setting setting) {
        String raw = values.get(setting).trim();
        return switch (raw.toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ConfigException(setting.key() + " must be true or false, got '" + raw + "'");
        };
    }

    public List<String> list(Setting setting) {
        return Arrays.stream(values.get(setting).split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    /** A copy with one setting changed; used when the bound port is only known after start. */
    public KernelConfig with(Setting setting, String value) {
        Map<Setting, String> copy = new EnumMap<>(values);
        copy.put(setting, value);
        KernelConfig changed = new KernelConfig(copy);
        changed.outboundTrust = setting == Setting.TLS_CA_BUNDLE ? trustOf(changed.optional(setting)) : outboundTrust;
        return changed;
    }

    @Override
    public String toString() {
        return values.entrySet().stream()
                .map(e -> e.getKey().key() + "=" + shown(e.getKey(), e.getValue()))
                .collect(Collectors.joining(", ", "KernelConfig{", "}"));
    }

    private static String shown(Setting setting, String value) {
        if (setting.definition().secret() && !value.isEmpty()) {
            return "****";
        }
        return setting == Setting.DB_URL ? redactUrl(value) : value;
    }

    /** A JDBC URL with any embedded password or user-info masked, for logs and messages. */
    public static String redactUrl(String url) {
        return Database.redactUrl(url);
    }

    /** What {@link Database#start} needs. */
    public Database.Settings database() {
        boolean migrateOnStart = boolValue(Setting.DB_MIGRATE_ON_START);
        if (!migrateOnStart && optional(Setting.DB_URL).isEmpty()) {
            throw new ConfigException(Setting.DB_MIGRATE_ON_START.key() + " is false but no external database is set ("
                    + Setting.DB_URL.envVar() + "): the embedded database belongs to this process alone and is migrated "
                    + "at every start; set " + Setting.DB_URL.envVar() + " or leave " + Setting.DB_MIGRATE_ON_START.envVar()
                    + " at true");
        }
        return new Database.Settings(optional(Setting.DB_URL), get(Setting.DB_USER), get(Setting.DB_PASSWORD),
                intValue(Setting.DB_POOL_SIZE), Duration.ofSeconds(intValue(Setting.DB_CONNECT_WAIT_SECONDS)),
                Path.of(get(Setting.DATA_DIR)), intValue(Setting.DB_EMBEDDED_PORT), boolValue(Setting.DB_EMBEDDED_FSYNC),
                migrateOnStart);
    }

    /** What {@link CredentialService#start} needs. */
    public CredentialService.Settings credentials() {
        SecretRefs.Backend backend = SecretRefs.Backend.parse(get(Setting.CREDENTIALS_BACKEND));
        Duration timeout = Duration.ofMillis(intValue(Setting.CREDENTIALS_TIMEOUT_MS));
        VaultKvStore.AuthMethod method = vaultAuth();
        Optional<VaultKvStore.Settings> vault = optional(Setting.VAULT_ADDR).map(addr -> new VaultKvStore.Settings(
                URI.create(addr), get(Setting.VAULT_MOUNT), optional(Setting.VAULT_NAMESPACE),
                optional(Setting.VAULT_TOKEN).filter(t -> method == VaultKvStore.AuthMethod.TOKEN),
                optional(Setting.VAULT_ROLE_ID).filter(r -> method == VaultKvStore.AuthMethod.APPROLE),
                optional(Setting.VAULT_SECRET_ID).filter(s -> method == VaultKvStore.AuthMethod.APPROLE),
                Optional.of(new VaultKvStore.Kubernetes(get(Setting.VAULT_KUBERNETES_ROLE),
                        get(Setting.VAULT_KUBERNETES_MOUNT), Path.of(get(Setting.VAULT_KUBERNETES_TOKEN_FILE))))
                        .filter(k -> method == VaultKvStore.AuthMethod.KUBERNETES),
                timeout, outboundTrust.sslContext()));
        return new CredentialService.Settings(backend, timeout, vault, Path.of(get(Setting.DATA_DIR)).resolve("kv"),
                URI.create(get(Setting.CLOUDSM_ENDPOINT)), optional(Setting.CLOUDSM_TOKEN),
                optional(Setting.CLOUDSM_CREDENTIALS_FILE).map(Path::of), outboundTrust.sslContext());
    }

    /**
     * The embedding model {@code retrieval.model} names.
     *
     * @throws ConfigException for a name no model has, or a model whose jar this build does not ship
     */
    public dev.backplane.kernel.retrieval.EmbeddingModels.Model retrievalModel() {
        String name = get(Setting.RETRIEVAL_MODEL).strip();
        var model = dev.backplane.kernel.retrieval.EmbeddingModels.named(name).orElseThrow(() -> new ConfigException(
                Setting.RETRIEVAL_MODEL.key() + " is '" + name + "'; it must be one of "
                        + dev.backplane.kernel.retrieval.EmbeddingModels.shipped()));
        if (!model.available()) {
            throw new ConfigException(Setting.RETRIEVAL_MODEL.key() + " is '" + name + "', whose model jar this build "
                    + "does not ship; it must be one of " + dev.backplane.kernel.retrieval.EmbeddingModels.shipped());
        }
        return model;
    }

    /** What the broadcast feed and hub need. */
    public BroadcastSettings broadcast() {
        return new BroadcastSettings(Duration.ofSeconds(intValue(Setting.BROADCAST_AGGREGATE_WINDOW_SECONDS)),
                intValue(Setting.BROADCAST_RETENTION_DAYS), intValue(Setting.BROADCAST_SUBSCRIBER_BUFFER),
                intValue(Setting.BROADCAST_MAX_STREAMS));
    }

    /** A setting is missing or malformed. */
    public static final class ConfigException extends RuntimeException {
        public ConfigException(String message) {
            super(message);
        }
    }

}
