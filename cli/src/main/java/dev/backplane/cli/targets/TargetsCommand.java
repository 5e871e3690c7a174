package dev.backplane.cli.targets;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Json;
import dev.backplane.cli.common.TextArgs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code svc targets ...}: the target registry. */
@Command(name = "targets", description = "Register and inspect targets.",
        subcommands = {Add.class, Describe.class, ListTargets.class,
                Delete.class, Import.class, StageSecret.class,
                Probe.class, Discover.class})
public final class TargetsCommand {

    static void printTarget(CliContext ctx, JsonNode t) {
        Map<String, String> rows = new LinkedHashMap<>();
        rows.put("name", t.path("name").asText());
        rows.put("aliases", String.join(", ", Json.texts(t.path("aliases"))));
        rows.put("product", t.path("product").asText() + (t.path("version").isNull() ? "" : " (asserted version "
                + t.path("version").asText() + ")"));
        rows.put("address", t.path("host").asText() + ":" + t.path("port").asInt()
                + (t.path("port_is_default").asBoolean() ? " (product default port)" : ""));
        rows.put("fqdn", Json.str(t.path("fqdn")));
        rows.put("secret_ref", t.path("secret_ref").asText());
        rows.put("auth_model", t.path("auth_model").asText());
        rows.put("tls", (t.path("verify_tls").asBoolean() ? "verified" : "NOT verified")
                + (t.path("tls_ca_pin").isNull() ? "" : ", pinned CA") + (t.path("tls_server_name").isNull() ? ""
                : ", server name " + t.path("tls_server_name").asText()));
        rows.put("vpn_required", String.valueOf(t.path("vpn_required").asBoolean()));
        rows.put("preferred_impl", Json.str(t.path("preferred_impl_id")));
        rows.put("notes", Json.str(t.path("notes")));
        rows.put("extras", t.path("extras").isEmpty() ? "" : t.path("extras").toString());
        rows.put("fingerprint", t.path("fingerprint").isNull() ? "(not probed)" : t.path("fingerprint").toString());
        rows.forEach((k, v) -> {
            if (!v.isEmpty()) {
                ctx.out().printf("%-15s %s%n", k, v);
            }
        });
    }

    /** A PEM bundle given inline, as @path, or as a plain path to a readable file. */
    static String pem(String value) {
        if (value == null || value.startsWith("-----BEGIN") || value.startsWith("@")) {
            return TextArgs.read(value, "--tls-ca-pin");
        }
        Path p = Path.of(value);
        if (Files.isRegularFile(p)) {
            return TextArgs.read("@" + value, "--tls-ca-pin");
        }
        throw CliException.usage("--tls-ca-pin must be a PEM bundle, @file or a readable file path; no file " + value);
    }

    /** A probe's outcome and fingerprint ({@code svc targets probe}). */
    static void printProbe(CliContext ctx, JsonNode r) {
        JsonNode f = r.path("fingerprint");
        ctx.out().println(r.path("target").asText() + " via " + r.path("connector_id").asText() + ": "
                + (f.path("reachable").asBoolean() ? "reachable" : "NOT reachable")
                + (f.has("error_code") ? " (" + f.path("error_code").asText() + ": " + f.path("reason").asText() + ")" : ""));
        for (String k : List.of("vendor", "product", "version", "probe_method", "probed_at", "exception_message")) {
            if (f.has(k)) {
                ctx.out().printf("  %-17s %s%n", k, f.path(k).asText());
            }
        }
    }
}
