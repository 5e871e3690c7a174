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
        try {
            dev.backplane.kernel.egress.SsrfGuard.fromSetting(get(Setting.TARGET_SSRF_ALLOWLIST));
            dev.backplane.kernel.credentials.SecretRefs.Backend.parse(get(Setting.CREDENTIALS_BACKEND));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
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
        return new KernelConfig(copy);
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
                intValue(Setting.DB_POOL_SIZE), Path.of(get(Setting.DATA_DIR)), intValue(Setting.DB_EMBEDDED_PORT),
                boolValue(Setting.DB_EMBEDDED_FSYNC), migrateOnStart);
    }

    /** What {@link CredentialService#start} needs. */
    public CredentialService.Settings credentials() {
        SecretRefs.Backend backend = SecretRefs.Backend.parse(get(Setting.CREDENTIALS_BACKEND));
        Duration timeout = Duration.ofMillis(intValue(Setting.CREDENTIALS_TIMEOUT_MS));
        Optional<VaultKvStore.Settings> vault = optional(Setting.VAULT_ADDR).map(addr -> new VaultKvStore.Settings(
                URI.create(addr), get(Setting.VAULT_MOUNT), optional(Setting.VAULT_NAMESPACE), optional(Setting.VAULT_TOKEN),
                optional(Setting.VAULT_ROLE_ID), optional(Setting.VAULT_SECRET_ID), timeout));
        return new CredentialService.Settings(backend, timeout, vault, Path.of(get(Setting.DATA_DIR)).resolve("kv"),
                URI.create(get(Setting.CLOUDSM_ENDPOINT)), optional(Setting.CLOUDSM_TOKEN),
                optional(Setting.CLOUDSM_CREDENTIALS_FILE).map(Path::of));
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
