package dev.backplane.kernel.audit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.plugin.api.Redaction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the governance trail keeps of a request body: an allowlist per route. A listed field is kept as sent
 * (secret-looking keys inside it still redacted, and a value longer than {@link #MAX_FIELD_BYTES} as JSON
 * kept as its digest); every other field — and every field of a route not listed — is kept only as its
 * sha256 and size ({@link AuditExtras#digest}). So private memory bodies, agent-run prompts, spec content,
 * runbook inputs and sensor params never reach a row every operator can read, and a field a route gains
 * later is a digest until someone decides it is a plain setting.
 */
final class GovernanceChanges {

    /** The most bytes of JSON a listed field keeps as sent; a longer value is kept as its digest. */
    static final int MAX_FIELD_BYTES = 1024;

    private static final Set<String> TARGET = Set.of("aliases", "auth_model", "extras", "fingerprint", "fqdn", "host",
            "name", "notes", "port", "preferred_impl_id", "product", "secret_ref", "tls_ca_pin", "tls_server_name",
            "verify_tls", "version", "vpn_required");
    private static final Set<String> AGENT_GRANT = Set.of("expires", "op", "principal", "principal_kind", "target",
            "verdict");
    private static final Set<String> DOC_COLLECTION = Set.of("backend_ref", "backend_type", "description", "enabled",
            "global", "key", "product", "vendor", "when_to_use");
    /** The fields of an agent definition that are settings; its system prompt is kept as a digest. */
    private static final Set<String> AGENT = Set.of("name", "enabled", "identity_ref", "model_tier", "toolset",
            "output_schema", "turn_budget");
    /** An agent run's body: never its input (the prompt), which is the caller's. */
    private static final Set<String> AGENT_RUN = Set.of("async", "work_ref");

    /** Route ({@code METHOD path-template}) → the fields of its body kept as sent. */
    static final Map<String, Set<String>> RECORDED = Map.ofEntries(
            Map.entry("PATCH /api/v1/tenants/current/flight-recorder-policy", Set.of("agent_readable", "clear_retention",
                    "enabled", "retention_days")),
            Map.entry("PUT /api/v1/tenants/current/mail-recipient-policy", Set.of("allowlist")),
            // the webhook URL stays a digest: a chat webhook's URL (Slack's, Teams') carries its token
            Map.entry("PUT /api/v1/tenants/current/approval-notifications", Set.of("enabled", "events",
                    "mail_recipients", "webhook_format", "webhook_secret_ref")),
            Map.entry("POST /api/v1/connectors/ingest", Set.of("catalog", "product", "version", "impl", "specs",
                    "auth_scheme", "auth_secret_fields", "auth_settings", "spec_info_versions_compatible", "dry_run",
                    "tenant_id", "default_port")),
            Map.entry("PATCH /api/v1/connectors/{connector_id}/groups/{group_key}", Set.of("name", "when_to_use")),
            Map.entry("PUT /api/v1/connector-preferences/{product}", Set.of("impl_id")),
            Map.entry("PATCH /api/v1/connectors/{connector_id}/operations/{op_id}", Set.of("custom_description",
                    "is_enabled", "op_class", "requires_approval", "safety_level")),
            // a memory write: where and under which name, never what (user scopes are private to the writer)
            Map.entry("POST /api/v1/memory", Set.of("scope", "slug")),
            Map.entry("POST /api/v1/memory/{scope}/{slug}/promote", Set.of("move", "to")),
            Map.entry("POST /api/v1/kb", Set.of("slug")),
            Map.entry("POST /api/v1/kb/ingest", Set.of("directory", "dry_run")),
            Map.entry("POST /api/v1/docs/collections", DOC_COLLECTION),
            Map.entry("PATCH /api/v1/docs/collections/{key}", DOC_COLLECTION),
            Map.entry("POST /api/v1/targets", TARGET),
            Map.entry("PATCH /api/v1/targets/{name}", TARGET),
            Map.entry("POST /api/v1/targets/import", Set.of("dry_run", "update", "targets")),
            Map.entry("PUT /api/v1/targets/{name}/secret", Set.of("fields")),
            Map.entry("POST /api/v1/agent-grants", AGENT_GRANT),
            Map.entry("POST /api/v1/agent-grants/elevate", AGENT_GRANT),
            Map.entry("POST /api/v1/service-principals/grants", Set.of("connector_id", "expires", "op_id", "principal",
                    "reason", "target", "target_name_pattern", "target_product")),
            Map.entry("POST /api/v1/broadcast/announcements", Set.of("activity", "phase", "planned_op_class", "run_id",
                    "scope", "target", "targets", "ttl_minutes", "work_ref")),
            Map.entry("POST /api/v1/broadcast/overrides", Set.of("op_id_pattern", "detail", "scope_field",
                    "scope_value")),
            Map.entry("POST /api/v1/runbooks/templates", Set.of("slug")),
            Map.entry("PUT /api/v1/runbooks/templates/{slug}", Set.of("slug")),
            Map.entry("POST /api/v1/runbooks/templates/{slug}/deprecate", Set.of("version")),
            // a runbook run's inputs are the operator's values (they may be credentials): digests only
            Map.entry("POST /api/v1/runbooks/runs", Set.of("slug", "version", "target", "work_ref")),
            Map.entry("POST /api/v1/runbooks/runs/{id}/next", Set.of("step", "reason")),
            Map.entry("POST /api/v1/runbooks/runs/{id}/abort", Set.of("reason")),
            Map.entry("POST /api/v1/agents", AGENT),
            Map.entry("PATCH /api/v1/agents/{name}", AGENT),
            Map.entry("POST /api/v1/agents/{name}/runs", AGENT_RUN),
            Map.entry("POST /api/v1/agents/{name}/run-events", AGENT_RUN),
            Map.entry("POST /api/v1/scheduler/triggers", Set.of("kind", "agent_definition", "event_filter", "cron",
                    "time_zone")),
            Map.entry("POST /api/v1/conventions", Set.of("slug", "title", "kind", "priority")),
            Map.entry("PATCH /api/v1/conventions/{slug}", Set.of("title", "kind", "priority", "expected_version")),
            Map.entry("POST /api/v1/topology/edges", Set.of("evidence_url", "from", "from_kind", "kind", "note", "to",
                    "to_kind")),
            Map.entry("POST /api/v1/topology/edges/unannotate", Set.of("edge_id", "from", "from_kind", "kind", "to",
                    "to_kind")),
            Map.entry("POST /api/v1/topology/refresh", Set.of("target")),
            // a sensor's params are an operation's params (they may hold secrets): digests only
            Map.entry("POST /api/v1/sensors", Set.of("assertion", "connector_id", "cron", "interval_seconds", "name",
                    "op_id", "status", "target", "time_zone")),
            Map.entry("PATCH /api/v1/sensors/{id}", Set.of("assertion", "cron", "interval_seconds", "name",
                    "time_zone")),
            Map.entry("POST /api/v1/dashboards", Set.of("description", "investigator_agent", "name", "notify_email",
                    "notify_min_state", "sensor_ids")),
            Map.entry("POST /ui/tenant", Set.of("from", "to")));

    private GovernanceChanges() {
    }

    /** What the trail keeps of {@code body}, sent to {@code route}. */
    static Object change(String route, JsonNode body) {
        if (!body.isObject()) {
            return AuditExtras.digest(JsonMapping.write(body));
        }
        Set<String> kept = RECORDED.getOrDefault(route, Set.of());
        Map<String, Object> out = new LinkedHashMap<>();
        body.properties().forEach(field -> {
            String name = field.getKey();
            JsonNode value = field.getValue();
            if (!kept.contains(name)) {
                out.put(name, AuditExtras.digest(value.isTextual() ? value.asText() : JsonMapping.write(value)));
            } else if (route.endsWith("/secret") && name.equals("fields")) {
                out.put(name, fieldNames(value));
            } else if (route.equals("POST /api/v1/connectors/ingest") && name.equals("specs")) {
                out.put(name, specs(value));
            } else {
                out.put(name, plain(value));
            }
        });
        return out;
    }

    /** A listed field: as sent, secret-looking keys redacted, and within {@link #MAX_FIELD_BYTES}. */
    private static Object plain(JsonNode value) {
        Object redacted = Redaction.redact(JsonMapping.mapper().convertValue(value, Object.class));
        String json = JsonMapping.write(redacted);
        return AuditExtras.bytes(json) <= MAX_FIELD_BYTES ? redacted : AuditExtras.digest(json);
    }

    /** Secret staging: the names of the fields staged, never their values. */
    private static Object fieldNames(JsonNode fields) {
        if (!fields.isObject()) {
            return AuditExtras.digest(JsonMapping.write(fields));
        }
        Set<String> names = new TreeSet<>();
        fields.fieldNames().forEachRemaining(names::add);
        return plainNames(names);
    }

    private static Object plainNames(Set<String> names) {
        String json = JsonMapping.write(names);
        return AuditExtras.bytes(json) <= MAX_FIELD_BYTES ? List.copyOf(names) : AuditExtras.digest(json);
    }

    /** Spec ingest: each spec's name, size and sha256, never its content. */
    private static Object specs(JsonNode specs) {
        if (!specs.isArray()) {
            return AuditExtras.digest(JsonMapping.write(specs));
        }
        List<Object> out = new ArrayList<>();
        for (JsonNode spec : specs) {
            JsonNode content = spec.path("content");
            Map<String, Object> one = new LinkedHashMap<>();
            JsonNode name = spec.path("name");
            one.put("name", name.isTextual() && AuditExtras.bytes(name.asText()) <= 256 ? name.asText()
                    : AuditExtras.digest(JsonMapping.write(name)));
            one.putAll(AuditExtras.digest(content.isTextual() ? content.asText() : JsonMapping.write(content)));
            out.add(one);
        }
        return out;
    }
}
