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
 * The CLI's config file: the backplane of the latest login and, per backplane, how to reach its
 * identity provider. Holds no secrets (tokens live in the token store).
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

    @JsonProperty("backplane")
    private String latest;

    @JsonProperty("backplanes")
    private Map<String, Backplane> backplanes = new LinkedHashMap<>();

    public static CliConfig load(Path file) {
        if (!Files.isRegularFile(file)) {
            return new CliConfig();
        }
        try {
            CliConfig c = JSON.readValue(file.toFile(), CliConfig.class);
            if (c == null) {
                throw CliException.failed("cannot read CLI config " + file + ": it holds no settings object");
            }
            if (c.backplanes == null) {
                c.backplanes = new LinkedHashMap<>();
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

    public Optional<String> latest() {
        return Optional.ofNullable(latest);
    }

    public Optional<Backplane> backplane(String url) {
        return Optional.ofNullable(backplanes.get(url));
    }

    public void remember(String url, Backplane entry) {
        backplanes.put(url, entry);
        latest = url;
    }
}
