package dev.backplane.cli.common;

import java.util.List;

/**
 * Every backplane REST path the CLI calls. The kernel's tests hold these to its OpenAPI document,
 * so the CLI and the server cannot drift apart unnoticed.
 */
public final class ApiPaths {

    public static final String INFO = "/api/v1/info";
    public static final String WHOAMI = "/api/v1/whoami";
    public static final String FLIGHT_RECORDER_POLICY = "/api/v1/tenants/current/flight-recorder-policy";
    public static final String TENANT = "/api/v1/tenants/current";
    public static final String TENANT_DISPLAY_NAME = "/api/v1/tenants/current/display-name";
    public static final String MAIL_RECIPIENT_POLICY = "/api/v1/tenants/current/mail-recipient-policy";
    public static final String APPROVAL_NOTIFICATIONS = "/api/v1/tenants/current/approval-notifications";
    public static final String AUTOMATION = "/api/v1/automation";
    public static final String FEATURES = "/api/v1/features";

    public static final String CONNECTORS = "/api/v1/connectors";
    public static final String CONNECTOR = CONNECTORS + "/{connector_id}";
    public static final String CONNECTOR_GROUPS = CONNECTOR + "/groups";
    public static final String CONNECTOR_GROUP = CONNECTOR + "/groups/{group_key}";
    public static final String CONNECTOR_OPERATIONS = CONNECTOR + "/operations";
    public static final String CONNECTOR_OPERATION = CONNECTOR + "/operations/{op_id}";
    public static final String CONNECTORS_INGEST = CONNECTORS + "/ingest";
    public static final String INGEST_JOB = CONNECTORS + "/ingest-jobs/{job_id}";
    public static final String CATALOG = "/api/v1/catalog";
    public static final String CATALOG_OPERATIONS = CATALOG + "/operations";
    public static final String CONNECTOR_PREFERENCES = "/api/v1/connector-preferences";
    public static final String CONNECTOR_PREFERENCE = CONNECTOR_PREFERENCES + "/{product}";
    public static final String OPERATIONS_CALL = "/api/v1/operations/call";
    public static final String OPERATIONS_PREVIEW = "/api/v1/operations/preview";
    public static final String OPERATIONS_RESULT_QUERY = "/api/v1/operations/result-query";
    public static final String OPERATION_RUN = "/api/v1/operations/runs/{handle}";
    public static final String APPROVALS = "/api/v1/approvals";
    public static final String APPROVAL = APPROVALS + "/{id}";
    public static final String AUDIT = "/api/v1/audit";
    public static final String AUDIT_MINE = AUDIT + "/mine";
    public static final String AUDIT_REFLEX = AUDIT + "/reflex";
    public static final String AUDIT_SESSION = AUDIT + "/sessions/{session_id}";
    public static final String AUDIT_WHO_TOUCHED = AUDIT + "/who-touched/{target}";
    public static final String AUDIT_ROW = AUDIT + "/{audit_id}";
    public static final String AUDIT_VERIFY = AUDIT + "/verify";
    public static final String AUDIT_STATS = AUDIT + "/stats";
    public static final String AUDIT_RETENTION = AUDIT + "/retention";
    public static final String AUDIT_ARCHIVES = AUDIT + "/archives";
    public static final String AUDIT_ARCHIVE = AUDIT_ARCHIVES + "/{name}";
    public static final String AGENT_PRINCIPALS = "/api/v1/agent-principals";
    public static final String AGENT_GRANTS = "/api/v1/agent-grants";
    public static final String SERVICE_GRANTS = "/api/v1/service-principals/grants";
    public static final String MEMORY = "/api/v1/memory";
    public static final String MEMORY_ENTRY = MEMORY + "/{scope}/{slug}";
    public static final String MEMORY_PROMOTE = MEMORY_ENTRY + "/promote";
    public static final String RETRIEVE = "/api/v1/retrieve";
    public static final String KB = "/api/v1/kb";
    public static final String KB_ENTRY = KB + "/{slug}";
    public static final String KB_SEARCH = KB + "/search";
    public static final String KB_INGEST = KB + "/ingest";
    public static final String KB_INGEST_JOB = KB + "/ingest-jobs/{job_id}";
    public static final String RETRIEVAL_EVAL = "/api/v1/retrieval/eval";
    public static final String RETRIEVAL_RETIRE_CHECKLIST = "/api/v1/retrieval/retire-checklist";
    public static final String RETRIEVAL_USAGE = "/api/v1/retrieval/usage";
    public static final String DOCS_COLLECTIONS = "/api/v1/docs/collections";
    public static final String DOCS_COLLECTION = DOCS_COLLECTIONS + "/{key}";
    public static final String DOCS_SEARCH = "/api/v1/docs/search";
    public static final String DOCS_ASK = "/api/v1/docs/ask";
    public static final String TARGETS = "/api/v1/targets";
    public static final String TARGET = TARGETS + "/{name}";
    public static final String TARGETS_IMPORT = TARGETS + "/import";
    public static final String TARGET_SECRET = TARGET + "/secret";
    public static final String TARGET_PROBE = TARGET + "/probe";
    public static final String TARGET_RESOLUTION = TARGET + "/resolution";
    public static final String TARGETS_DISCOVER = TARGETS + "/discover";

    public static final String EVENT_SOURCES = "/api/v1/event-sources";
    public static final String EVENT_SOURCE = EVENT_SOURCES + "/{slug}";
    public static final String EVENTS = "/api/v1/events";
    public static final String EVENT = EVENTS + "/{id}";
    public static final String AGENTS = "/api/v1/agents";
    public static final String AGENT = AGENTS + "/{name}";
    public static final String AGENT_RUNS = "/api/v1/agent-runs";
    public static final String AGENT_RUN = AGENT_RUNS + "/{handle}";
    public static final String TRIGGERS = "/api/v1/scheduler/triggers";
    public static final String TRIGGER = TRIGGERS + "/{id}";
    public static final String CONVENTIONS = "/api/v1/conventions";
    public static final String CONVENTION = CONVENTIONS + "/{slug}";
    public static final String CONVENTION_HISTORY = CONVENTION + "/history";
    public static final String CONVENTIONS_SEARCH = CONVENTIONS + "/search";

    /** Method and path of each call the CLI makes. */
    public static final String BROADCAST = "/api/v1/broadcast";
    public static final String BROADCAST_RECENT = BROADCAST + "/recent";
    public static final String BROADCAST_STREAM = BROADCAST + "/stream";
    public static final String BROADCAST_SUMMARY = BROADCAST + "/summary";
    public static final String BROADCAST_ANNOUNCEMENTS = BROADCAST + "/announcements";
    public static final String BROADCAST_OVERRIDES = BROADCAST + "/overrides";
    public static final String BROADCAST_OVERRIDE = BROADCAST_OVERRIDES + "/{id}";

    public static final String RUNBOOK_TEMPLATES = "/api/v1/runbooks/templates";
    public static final String RUNBOOK_TEMPLATE = RUNBOOK_TEMPLATES + "/{slug}";
    public static final String RUNBOOK_RUNS = "/api/v1/runbooks/runs";
    public static final String RUNBOOK_RUN = RUNBOOK_RUNS + "/{id}";

    public static final String TOPOLOGY = "/api/v1/topology";
    public static final String TOPOLOGY_EDGES = TOPOLOGY + "/edges";
    public static final String TOPOLOGY_UNANNOTATE = TOPOLOGY_EDGES + "/unannotate";
    public static final String TOPOLOGY_BULK = TOPOLOGY_EDGES + "/bulk";
    public static final String TOPOLOGY_DEPENDENCIES = TOPOLOGY + "/dependencies";
    public static final String TOPOLOGY_DEPENDENTS = TOPOLOGY + "/dependents";
    public static final String TOPOLOGY_PATH = TOPOLOGY + "/path";
    public static final String TOPOLOGY_DIFF = TOPOLOGY + "/diff";
    public static final String TOPOLOGY_HISTORY = TOPOLOGY + "/history";
    public static final String TOPOLOGY_TIMELINE = TOPOLOGY + "/timeline";
    public static final String TOPOLOGY_REFRESH = TOPOLOGY + "/refresh";

    public static final String SENSORS = "/api/v1/sensors";
    public static final String SENSOR = SENSORS + "/{id}";
    public static final String DASHBOARDS = "/api/v1/dashboards";
    public static final String DASHBOARD = DASHBOARDS + "/{id}";

    public static final List<String> CALLS = List.of(
            "GET " + TOPOLOGY_EDGES,
            "POST " + TOPOLOGY_EDGES,
            "POST " + TOPOLOGY_UNANNOTATE,
            "POST " + TOPOLOGY_BULK,
            "GET " + TOPOLOGY_DEPENDENCIES,
            "GET " + TOPOLOGY_DEPENDENTS,
            "GET " + TOPOLOGY_PATH,
            "GET " + TOPOLOGY_DIFF,
            "GET " + TOPOLOGY_HISTORY,
            "GET " + TOPOLOGY_TIMELINE,
            "POST " + TOPOLOGY_REFRESH,
            "GET " + SENSORS,
            "POST " + SENSORS,
            "GET " + SENSOR,
            "PATCH " + SENSOR,
            "DELETE " + SENSOR,
            "POST " + SENSOR + "/pause",
            "POST " + SENSOR + "/resume",
            "GET " + SENSOR + "/results",
            "GET " + DASHBOARDS,
            "POST " + DASHBOARDS,
            "GET " + DASHBOARD,
            "DELETE " + DASHBOARD,
            "GET " + RUNBOOK_TEMPLATES,
            "POST " + RUNBOOK_TEMPLATES,
            "GET " + RUNBOOK_TEMPLATE,
            "PUT " + RUNBOOK_TEMPLATE,
            "POST " + RUNBOOK_TEMPLATE + "/publish",
            "POST " + RUNBOOK_TEMPLATE + "/deprecate",
            "GET " + RUNBOOK_RUNS,
            "POST " + RUNBOOK_RUNS,
            "GET " + RUNBOOK_RUN,
            "POST " + RUNBOOK_RUN + "/next",
            "POST " + RUNBOOK_RUN + "/abort",
            "GET " + BROADCAST_RECENT,
            "GET " + BROADCAST_STREAM,
            "GET " + BROADCAST_SUMMARY,
            "POST " + BROADCAST_ANNOUNCEMENTS,
            "GET " + BROADCAST_OVERRIDES,
            "POST " + BROADCAST_OVERRIDES,
            "DELETE " + BROADCAST_OVERRIDE,
            "GET " + EVENT_SOURCES,
            "POST " + EVENT_SOURCES,
            "GET " + EVENT_SOURCE,
            "PATCH " + EVENT_SOURCE,
            "DELETE " + EVENT_SOURCE,
            "POST " + EVENT_SOURCE + "/pause",
            "POST " + EVENT_SOURCE + "/resume",
            "GET " + EVENTS,
            "GET " + EVENT,
            "GET " + AGENTS,
            "POST " + AGENTS,
            "GET " + AGENT,
            "PATCH " + AGENT,
            "DELETE " + AGENT,
            "POST " + AGENT + "/runs",
            "POST " + AGENT + "/run-events",
            "GET " + AGENT_RUNS,
            "GET " + AGENT_RUN,
            "POST " + AGENT_RUN + "/cancel",
            "GET " + AGENT_RUN + "/events",
            "GET " + TRIGGERS,
            "POST " + TRIGGERS,
            "GET " + TRIGGER,
            "DELETE " + TRIGGER,
            "POST " + TRIGGER + "/pause",
            "POST " + TRIGGER + "/resume",
            "GET " + CONVENTIONS,
            "POST " + CONVENTIONS,
            "POST " + CONVENTIONS_SEARCH,
            "GET " + CONVENTION,
            "PATCH " + CONVENTION,
            "DELETE " + CONVENTION,
            "GET " + CONVENTION_HISTORY,
            "GET " + INFO,
            "GET " + WHOAMI,
            "GET " + FLIGHT_RECORDER_POLICY,
            "PATCH " + FLIGHT_RECORDER_POLICY,
            "GET " + TENANT,
            "PUT " + TENANT_DISPLAY_NAME,
            "DELETE " + TENANT_DISPLAY_NAME,
            "GET " + MAIL_RECIPIENT_POLICY,
            "PUT " + MAIL_RECIPIENT_POLICY,
            "DELETE " + MAIL_RECIPIENT_POLICY,
            "GET " + APPROVAL_NOTIFICATIONS,
            "PUT " + APPROVAL_NOTIFICATIONS,
            "DELETE " + APPROVAL_NOTIFICATIONS,
            "GET " + AUTOMATION,
            "GET " + FEATURES,
            "GET " + CONNECTORS,
            "GET " + CATALOG_OPERATIONS,
            "GET " + MEMORY,
            "POST " + MEMORY,
            "GET " + MEMORY_ENTRY,
            "POST " + MEMORY_PROMOTE,
            "GET " + RETRIEVE,
            "GET " + KB,
            "POST " + KB,
            "GET " + KB_ENTRY,
            "DELETE " + KB_ENTRY,
            "POST " + KB_SEARCH,
            "POST " + KB_INGEST,
            "GET " + KB_INGEST_JOB,
            "POST " + RETRIEVAL_EVAL,
            "GET " + RETRIEVAL_RETIRE_CHECKLIST,
            "GET " + RETRIEVAL_USAGE,
            "GET " + DOCS_COLLECTIONS,
            "POST " + DOCS_COLLECTIONS,
            "PATCH " + DOCS_COLLECTION,
            "DELETE " + DOCS_COLLECTION,
            "POST " + DOCS_COLLECTION + "/enable",
            "POST " + DOCS_COLLECTION + "/disable",
            "POST " + DOCS_COLLECTION + "/probe",
            "GET " + DOCS_COLLECTION + "/grants",
            "POST " + DOCS_COLLECTION + "/grants/{tenant_id}",
            "DELETE " + DOCS_COLLECTION + "/grants/{tenant_id}",
            "POST " + DOCS_SEARCH,
            "POST " + DOCS_ASK,
            "GET " + CONNECTOR,
            "POST " + CONNECTOR + "/enable",
            "POST " + CONNECTOR + "/disable",
            "POST " + CONNECTOR + "/enable-reads",
            "GET " + CONNECTOR_GROUPS,
            "PATCH " + CONNECTOR_GROUP,
            "GET " + CONNECTOR_OPERATIONS,
            "PATCH " + CONNECTOR_OPERATION,
            "POST " + CONNECTORS_INGEST,
            "GET " + INGEST_JOB,
            "GET " + CATALOG,
            "GET " + CONNECTOR_PREFERENCES,
            "PUT " + CONNECTOR_PREFERENCE,
            "DELETE " + CONNECTOR_PREFERENCE,
            "POST " + OPERATIONS_CALL,
            "POST " + OPERATIONS_PREVIEW,
            "POST " + OPERATIONS_RESULT_QUERY,
            "GET " + OPERATION_RUN,
            "POST " + OPERATION_RUN + "/cancel",
            "GET " + AUDIT,
            "GET " + AUDIT_MINE,
            "GET " + AUDIT_REFLEX,
            "GET " + AUDIT_SESSION,
            "GET " + AUDIT_WHO_TOUCHED,
            "GET " + AUDIT_ROW,
            "GET " + AUDIT_VERIFY,
            "GET " + AUDIT_STATS,
            "GET " + AUDIT_RETENTION,
            "PUT " + AUDIT_RETENTION,
            "GET " + AUDIT_ARCHIVES,
            "POST " + AUDIT_ARCHIVES,
            "POST " + AUDIT_ARCHIVE + "/verify",
            "POST " + AUDIT_ARCHIVE + "/restore",
            "POST " + AGENT_PRINCIPALS,
            "GET " + AGENT_PRINCIPALS,
            "POST " + AGENT_PRINCIPALS + "/{name}/revoke",
            "POST " + AGENT_GRANTS,
            "POST " + AGENT_GRANTS + "/elevate",
            "GET " + AGENT_GRANTS,
            "GET " + AGENT_GRANTS + "/{id}",
            "POST " + AGENT_GRANTS + "/{id}/revoke",
            "POST " + SERVICE_GRANTS,
            "GET " + SERVICE_GRANTS,
            "GET " + SERVICE_GRANTS + "/{id}",
            "POST " + SERVICE_GRANTS + "/{id}/revoke",
            "GET " + APPROVALS,
            "GET " + APPROVAL,
            "POST " + APPROVAL + "/approve",
            "POST " + APPROVAL + "/reject",
            "POST " + TARGETS,
            "GET " + TARGETS,
            "GET " + TARGET,
            "DELETE " + TARGET,
            "POST " + TARGETS_IMPORT,
            "PUT " + TARGET_SECRET,
            "POST " + TARGET_PROBE,
            "GET " + TARGET_RESOLUTION,
            "POST " + TARGETS_DISCOVER);

    /** Fills {@code {name}} placeholders with URL-encoded values, in order. */
    public static String expand(String template, String... values) {
        String out = template;
        for (String v : values) {
            int open = out.indexOf('{');
            int close = out.indexOf('}', open);
            if (open < 0 || close < 0) {
                throw new IllegalArgumentException("too many values for " + template);
            }
            out = out.substring(0, open) + java.net.URLEncoder.encode(v, java.nio.charset.StandardCharsets.UTF_8)
                    .replace("+", "%20") + out.substring(close + 1);
        }
        return out;
    }

    private ApiPaths() {
    }
}
