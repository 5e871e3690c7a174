package dev.backplane.plugins.vault;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.TargetSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A session with one Vault (or OpenBao) server: each operation is one planned request ({@link VaultPlans})
 * whose answer {@link VaultResults} reduces; rollback composes three. Vault answers a bad token and a
 * policy refusal alike (403 permission denied), so a 403 is followed by one {@code lookup-self}: when
 * that is refused too, the token is the problem ({@code connector_auth_failed}).
 */
final class VaultSession implements Connector {

    /** sys/health's documented statuses: each one answers with the health document. */
    private static final Set<Integer> HEALTH = Set.of(200, 429, 472, 473, 501, 503);
    private final ConnectorContext context;
    private final VaultClient client;

    VaultSession(ConnectorContext context, TargetSpec target, Credential credential) {
        this.context = context;
        this.client = new VaultClient(context, target, credential);
    }

    /** {@code GET /v1/sys/health} (unauthenticated): vendor, product and version; OpenBao reports 2.x. */
    @Override
    public Fingerprint probe() {
        VaultClient.Answer a = client.send(VaultRequest.get("/v1/sys/health"), false, redactor(Map.of()));
        if (!HEALTH.contains(a.status()) || !a.body().has("version")) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "GET /v1/sys/health answered HTTP " + a.status()
                    + " without a version: not a Vault server?", Map.of("http_status", a.status()), null);
        }
        String version = a.body().path("version").asText();
        boolean openbao = version.startsWith("2.") || a.body().path("build_date").asText().contains("openbao");
        return new Fingerprint(Optional.of(openbao ? "OpenBao" : "HashiCorp"),
                Optional.of(openbao ? VaultConnectorFactory.OPENBAO : VaultConnectorFactory.PRODUCT),
                Optional.of(version), true, context.clock().instant(), "GET /v1/sys/health");
    }

    @Override
    public OperationResult invoke(OperationRequest request) {
        VaultParams p = new VaultParams(request.params());
        if (request.opId().equals("vault.kv.rollback")) {
            return rollback(p);
        }
        VaultRequest planned = VaultPlans.plan(request.opId(), p).orElseThrow();
        Redactor redactor = redactor(request.params());
        boolean health = request.opId().equals("vault.sys.health");
        boolean open = health || request.opId().equals("vault.sys.seal-status");
        VaultClient.Answer a = client.send(planned, !open, redactor);
        if (!a.ok() && !(health && HEALTH.contains(a.status()))
                && !(a.status() == 404 && VaultResults.LISTS.contains(request.opId()))) {
            return refused(planned, a, redactor);
        }
        if (request.opId().equals("vault.pki.issue")) {
            return issued(p, a);
        }
        return VaultResults.reduce(request.opId(), p, a);
    }

    /**
     * An issued certificate: the private key goes to the kernel's credential staging, which answers the
     * secret_ref it chose; the result carries that ref and the public parts only.
     */
    private OperationResult issued(VaultParams p, VaultClient.Answer a) {
        JsonNode data = a.body().path("data");
        String key = data.path("private_key").asText("");
        if (key.isEmpty()) {
            return new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, "Vault issued a certificate without a "
                    + "private key (was private_key_format or a CSR role used?)", Map.of());
        }
        Map<String, String> secret = new LinkedHashMap<>();
        secret.put("private_key", key);
        secret.put("private_key_type", data.path("private_key_type").asText(""));
        String ref;
        try {
            ref = context.stageSecret("pki.private_key", secret);
        } catch (UnsupportedOperationException e) {
            // the certificate is issued but its key cannot be kept: say so without the key
            return new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, "the certificate was issued (serial "
                    + data.path("serial_number").asText() + ") but this kernel cannot stage its private key ("
                    + e.getMessage() + "); the key was discarded", Map.of());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("mount", p.mount("pki"));
        out.put("role", p.role());
        out.put("common_name", p.commonName());
        out.put("serial_number", data.path("serial_number").asText());
        out.put("expiration", VaultResults.plain(data.path("expiration")));
        out.put("certificate", data.path("certificate").asText());
        out.put("issuing_ca", data.path("issuing_ca").asText());
        out.put("ca_chain", VaultResults.plain(data.path("ca_chain")));
        out.put("private_key_type", data.path("private_key_type").asText(""));
        out.put("private_key_ref", ref);
        return new OperationResult.Document(out);
    }

    /** The request an HTTP-shaped operation would send, secret values replaced; empty for rollback. */
    @Override
    public Optional<HttpPreview> preview(OperationRequest request) {
        return VaultPlans.plan(request.opId(), new VaultParams(request.params())).map(VaultRequest::preview);
    }

    /**
     * Reads the metadata (the current version), then the chosen version's data, then writes that data as
     * a new version with check-and-set on the current one — what {@code vault kv rollback} does. The data
     * passes through this method only; the result names its fields.
     */
    private OperationResult rollback(VaultParams p) {
        int version = p.requiredInt("version", 1, Integer.MAX_VALUE);
        Redactor plain = redactor(Map.of());
        VaultRequest metaReq = VaultRequest.get(VaultPlans.kv(p, "metadata"));
        VaultClient.Answer meta = client.send(metaReq, true, plain);
        if (!meta.ok()) {
            return refused(metaReq, meta, plain);
        }
        int current = meta.body().path("data").path("current_version").asInt();
        VaultRequest readReq = VaultRequest.get(VaultPlans.kv(p, "data")).withQuery("version", Integer.toString(version));
        VaultClient.Answer read = client.send(readReq, true, plain);
        if (!read.ok()) {
            return refused(readReq, read, plain);
        }
        JsonNode data = read.body().path("data").path("data");
        if (!data.isObject() || data.isEmpty()) {
            return new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, "version " + version + " of " + p.path()
                    + " has no data to roll back to (deleted or destroyed?)", Map.of());
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        List<String> values = new ArrayList<>();
        data.properties().forEach(e -> {
            Object v = VaultClient.JSON.convertValue(e.getValue(), Object.class);
            fields.put(e.getKey(), v);
            values.add(e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString());
        });
        Redactor redactor = new Redactor(client.withToken(values));
        VaultRequest writeReq = VaultRequest.send("POST", VaultPlans.kv(p, "data"), VaultPlans.v2Body(fields, current))
                .withSecretKeys("data");
        VaultClient.Answer written = client.send(writeReq, true, redactor);
        if (!written.ok()) {
            return refused(writeReq, written, redactor);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("mount", p.mount("secret"));
        out.put("path", p.path());
        out.put("rolled_back_to", version);
        out.put("previous_version", current);
        out.put("version", VaultResults.plain(written.body().path("data").path("version")));
        out.put("fields", List.copyOf(new java.util.TreeSet<>(fields.keySet())));
        return new OperationResult.Document(out);
    }

    /** A refusal as an error code and a message free of secrets. */
    private OperationResult refused(VaultRequest request, VaultClient.Answer a, Redactor redactor) {
        String errors = redactor.scrub(a.errors());
        Map<String, Object> extras = Map.of("http_status", a.status(), "vault_errors", errors);
        String what = request.describe();
        return switch (a.status()) {
            case 401, 403 -> {
                if (!request.path().equals("/v1/auth/token/lookup-self") && tokenWorks()) {
                    yield new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, "Vault denied " + what
                            + ": the token's policies do not allow it (permission denied)", extras);
                }
                throw new ConnectorException(ErrorCode.CONNECTOR_AUTH_FAILED, "Vault refused the token (permission "
                        + "denied on auth/token/lookup-self): it is unknown, expired or revoked", extras, null);
            }
            case 404 -> new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, "Vault has nothing at " + what
                    + " (not found)", extras);
            case 429, 472, 473, 503 -> new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, "Vault is sealed, a "
                    + "standby or unavailable (HTTP " + a.status() + ") for " + what + (errors.isEmpty() ? "" : ": "
                    + errors), extras);
            default -> new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, "Vault answered HTTP " + a.status()
                    + " to " + what + (errors.isEmpty() ? "" : ": " + errors), extras);
        };
    }

    private boolean tokenWorks() {
        return client.send(VaultRequest.get("/v1/auth/token/lookup-self"), true, redactor(Map.of())).ok();
    }

    /** The token and, for writes, every value the call sends. */
    private Redactor redactor(Map<String, Object> params) {
        List<String> values = new ArrayList<>();
        if (params.get("data") instanceof Map<?, ?> data) {
            data.values().forEach(v -> values.add(String.valueOf(v)));
        }
        return new Redactor(client.withToken(values));
    }

    @Override
    public void close() {
        // nothing held: the kernel's HTTP client pools connections itself
    }
}
