package dev.backplane.cli.docs;

import dev.backplane.cli.common.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Limits;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import dev.backplane.cli.common.TextArgs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc docs collections}: doc collections — list, create, update, delete, enable, disable, probe, grants. */
@Command(name = "collections", description = "Doc collections and their retrieval backends.",
        subcommands = {DocCollectionsCommand.ListCollections.class, DocCollectionsCommand.Create.class,
                DocCollectionsCommand.Update.class, DocCollectionsCommand.Delete.class, DocCollectionsCommand.Enable.class,
                DocCollectionsCommand.Disable.class, DocCollectionsCommand.Probe.class, DocCollectionsCommand.Grant.class,
                DocCollectionsCommand.Revoke.class, DocCollectionsCommand.Grants.class})
final class DocCollectionsCommand {

    private static final Set<String> FILE_FIELDS = Set.of("backend_type", "backend_ref", "description", "product",
            "vendor", "when_to_use", "enabled", "global");

    private DocCollectionsCommand() {
    }

    /** list */
    @Command(name = "list", description = "Collections you can see; SEARCHABLE says whether this tenant may search one.")
    static final class ListCollections extends BackplaneCommand {
        @Option(names = "--cursor", paramLabel = "<last key>", description = "continue after this key")
        String cursor;
        @Option(names = "--limit", paramLabel = "1..500", description = "page size (default 100)")
        Integer limit;
        @Option(names = "--vendor", description = "only this vendor's collections")
        String vendor;

        @Override
        protected void validate() {
            Limits.check(limit, 1, 500, "--limit");
        }

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.DOCS_COLLECTIONS + QueryString.of().add("cursor", cursor)
                    .add("limit", limit).add("vendor", vendor), page -> {
                List<List<String>> rows = Tables.rows(page.path("collections"), c -> List.of(c.path("key").asText(), c.path("scope").asText(),
                        c.path("state").asText(), c.path("searchable").asBoolean() ? "yes" : "no",
                        c.path("backend_type").asText(), String.join(",", Json.texts(c.path("product"))),
                        c.path("vendor").asText("-"), c.path("description").asText()));
                Tables.print(ctx.out(), "no doc collections", List.of("KEY", "SCOPE", "STATE", "SEARCHABLE", "BACKEND", "PRODUCT",
                            "VENDOR", "DESCRIPTION"), rows);
                if (!page.path("next_cursor").isNull()) {
                    ctx.out().println("more: svc docs collections list --cursor " + page.path("next_cursor").asText());
                }
            });
        }
    }

    /** The fields of create and update: from --from-file (JSON or YAML), then the flags, which win. */
    abstract static class FieldsCommand extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<key>")
        String key;
        @Option(names = "--backend-type", paramLabel = "<type>", description = "how the backend is spoken to: corpus-http")
        String backendType;
        @Option(names = "--backend-ref", paramLabel = "<json|@file>",
                description = "JSON object, e.g. {\"url\": \"https://docs-search.example.com/search\"}; '{}' clears it")
        String backendRef;
        @Option(names = "--description", description = "what the collection holds")
        String description;
        @Option(names = "--from-file", paramLabel = "<file>", description = "JSON or YAML object with the fields "
                + "(backend_type, backend_ref, description, product, vendor, when_to_use); flags override it")
        Path fromFile;
        @Option(names = "--product", paramLabel = "<product>", split = ",",
                description = "product(s) the docs cover (repeatable or comma-separated)")
        List<String> product;
        @Option(names = "--vendor", description = "vendor of the documented products")
        String vendor;
        @Option(names = "--when-to-use", paramLabel = "<hint>", description = "when an agent should search it")
        String whenToUse;

        Map<String, Object> fields;

        @Override
        @SuppressWarnings("unchecked")
        protected void validate() {
            fields = new LinkedHashMap<>();
            if (fromFile != null) {
                try {
                    Object doc = new ObjectMapper(new YAMLFactory()).readValue(Files.readAllBytes(fromFile), Object.class);
                    if (!(doc instanceof Map<?, ?> map)) {
                        throw CliException.usage("--from-file: " + fromFile + " must hold one JSON or YAML object");
                    }
                    for (String k : ((Map<String, Object>) map).keySet()) {
                        if (!FILE_FIELDS.contains(k)) {
                            throw CliException.usage("--from-file: unknown field '" + k + "'; known: "
                                    + String.join(", ", FILE_FIELDS.stream().sorted().toList()));
                        }
                    }
                    fields.putAll((Map<String, Object>) map);
                } catch (IOException e) {
                    throw CliException.usage("--from-file: cannot read " + fromFile + ": " + e.getMessage());
                }
            }
            put("backend_type", backendType);
            if (backendRef != null) {
                try {
                    Object ref = dev.backplane.cli.common.Http.JSON.readValue(TextArgs.read(backendRef, "--backend-ref"),
                            Object.class);
                    if (!(ref instanceof Map)) {
                        throw CliException.usage("--backend-ref must be a JSON object");
                    }
                    fields.put("backend_ref", ref);
                } catch (IOException e) {
                    throw CliException.usage("--backend-ref is not JSON: " + e.getMessage());
                }
            }
            put("description", description);
            if (product != null) {
                fields.put("product", product.stream().map(String::strip).filter(p -> !p.isEmpty()).toList());
            }
            put("vendor", vendor);
            put("when_to_use", whenToUse);
        }

        private void put(String name, Object value) {
            if (value != null) {
                fields.put(name, value);
            }
        }

        void printCollection(String verb, JsonNode c) {
            ctx.out().println(verb + " doc collection " + c.path("key").asText() + " (" + c.path("scope").asText() + ", "
                    + c.path("state").asText() + ", " + c.path("backend_type").asText() + "; capability "
                    + c.path("capability").asText() + ")");
        }
    }

    /** create */
    @Command(name = "create", description = "Create a doc collection [tenant_admin; --global: platform_admin].")
    static final class Create extends FieldsCommand {
        @Option(names = "--global", description = "a global collection, granted to tenants one by one [platform_admin]")
        boolean global;

        @Override
        protected void validate() {
            super.validate();
            fields.put("key", key);
            if (global) {
                fields.put("global", true);
            }
            if (!fields.containsKey("backend_type")) {
                throw CliException.usage("name the backend with --backend-type (corpus-http) or in --from-file");
            }
        }

        @Override
        protected void execute(Session s) {
            send(s, "POST", ApiPaths.DOCS_COLLECTIONS, fields, r -> printCollection("created", r));
        }
    }

    /** update */
    @Command(name = "update", description = "Change a doc collection's fields [tenant_admin; global: platform_admin].")
    static final class Update extends FieldsCommand {
        @Override
        protected void validate() {
            super.validate();
            fields.remove("enabled");
            fields.remove("global");
            if (fields.isEmpty()) {
                throw CliException.usage("nothing to update: give at least one field flag or --from-file");
            }
        }

        @Override
        protected void execute(Session s) {
            send(s, "PATCH", ApiPaths.expand(ApiPaths.DOCS_COLLECTION, key), fields, r -> printCollection("updated", r));
        }
    }

    /** A verb on one collection: POST or DELETE on its path (plus a suffix) with no body. */
    abstract static class KeyCommand extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<key>")
        String key;

        JsonNode call(Session s, String method, String suffix) {
            return s.client().call(method, ApiPaths.expand(ApiPaths.DOCS_COLLECTION, key) + suffix, null).json();
        }
    }

    /** delete */
    @Command(name = "delete", description = "Delete a disabled, tenant-owned collection [tenant_admin].")
    static final class Delete extends KeyCommand {
        @Override
        protected void execute(Session s) {
            JsonNode r = call(s, "DELETE", "");
            print(r, () -> ctx.out().println("deleted doc collection " + key));
        }
    }

    /** enable */
    @Command(name = "enable", description = "Return a collection to search [tenant_admin].")
    static final class Enable extends KeyCommand {
        @Override
        protected void execute(Session s) {
            JsonNode r = call(s, "POST", "/enable");
            print(r, () -> ctx.out().println("enabled doc collection " + key));
        }
    }

    /** disable */
    @Command(name = "disable", description = "Hide a collection from search [tenant_admin].")
    static final class Disable extends KeyCommand {
        @Override
        protected void execute(Session s) {
            JsonNode r = call(s, "POST", "/disable");
            print(r, () -> ctx.out().println("disabled doc collection " + key));
        }
    }

    /** probe */
    @Command(name = "probe", description = "Check that the collection's retrieval backend answers [operator].")
    static final class Probe extends KeyCommand {
        @Override
        protected void execute(Session s) {
            JsonNode r = call(s, "POST", "/probe");
            print(r, () -> ctx.out().println("doc collection " + key + ": backend answered in "
                    + r.path("latency_ms").asLong() + " ms (" + r.path("chunks").asInt() + " chunk(s))"));
        }
    }

    /** grant / revoke: the tenant is the shared --tenant option (the platform_admin acts on that tenant). */
    abstract static class GrantCommand extends KeyCommand {
        @Override
        protected void validate() {
            if (options.tenant() == null) {
                throw CliException.usage("name the tenant with --tenant <uuid>");
            }
        }

        String grantPath() {
            return "/grants/" + options.tenant();
        }
    }

    /** grant (an extension of SPEC's verbs) */
    @Command(name = "grant", description = "Grant svc-docs:<key> of a global collection to --tenant [platform_admin].")
    static final class Grant extends GrantCommand {
        @Override
        protected void execute(Session s) {
            JsonNode r = call(s, "POST", grantPath());
            print(r, () -> ctx.out().println("granted " + r.path("capability").asText() + " to tenant "
                    + r.path("tenant_id").asText()));
        }
    }

    /** revoke (an extension of SPEC's verbs) */
    @Command(name = "revoke", description = "Revoke svc-docs:<key> from --tenant [platform_admin].")
    static final class Revoke extends GrantCommand {
        @Override
        protected void execute(Session s) {
            JsonNode r = call(s, "DELETE", grantPath());
            print(r, () -> ctx.out().println("revoked " + r.path("revoked").asText() + " from tenant "
                    + r.path("tenant_id").asText()));
        }
    }

    /** grants (an extension of SPEC's verbs) */
    @Command(name = "grants", description = "Tenants holding svc-docs:<key> of a global collection [platform_admin].")
    static final class Grants extends KeyCommand {
        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.expand(ApiPaths.DOCS_COLLECTION, key) + "/grants", r -> {
                List<List<String>> rows = Tables.rows(r.path("grants"), g -> Arrays.asList(g.path("tenant_id").asText(),
                        g.path("granted_by").asText(), g.path("granted_at").asText()));
                Tables.print(ctx.out(), "no tenant holds svc-docs:" + key, List.of("TENANT", "GRANTED BY", "GRANTED AT"), rows);
            });
        }
    }
}
