package dev.backplane.kernel.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.kb.KbService;
import dev.backplane.kernel.memory.MemoryService;
import dev.backplane.kernel.runbooks.RunbookTemplates;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code completion/complete} for the resource templates: {@code svc://kb/{slug}}, {@code svc://memory/{scope}/{slug}}
 * (scope from the five scopes; slug among the entries the caller can see, in the scope already chosen when the
 * client passes it in {@code context.arguments}) and {@code svc://runbook/{slug}} (published runbooks only). Values
 * start with what was typed, sorted, at most {@link #MAX_VALUES} (MCP's cap), with {@code total} and {@code hasMore}.
 * MCP completes prompt and resource-template arguments only; tool arguments have no completion in the protocol.
 */
final class McpCompletions {

    static final int MAX_VALUES = 100;
    private static final List<String> SCOPES = List.of("user", "user-tenant", "user-target", "tenant", "target");
    private static final Pattern TYPED = Pattern.compile("[a-z0-9._-]{0,128}");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final KbService kb;
    private final MemoryService memory;
    private final RunbookTemplates runbooks;

    McpCompletions(KbService kb, MemoryService memory, RunbookTemplates runbooks) {
        this.kb = kb;
        this.memory = memory;
        this.runbooks = runbooks;
    }

    ObjectNode complete(Caller caller, JsonNode params) {
        JsonNode ref = params.path("ref");
        String argument = params.path("argument").path("name").asText("");
        JsonNode typedNode = params.path("argument").path("value");
        if (!typedNode.isTextual() && !typedNode.isMissingNode()) {
            throw invalid("argument.value must be a string", "invalid_argument");
        }
        String typed = typedNode.asText("");
        if (!"ref/resource".equals(ref.path("type").asText())) {
            throw invalid("only resource templates complete here (ref.type ref/resource); this server has no prompts",
                    "unsupported_ref");
        }
        String template = ref.path("uri").asText("");
        List<String> candidates;
        if (!TYPED.matcher(typed).matches()) {
            candidates = List.of(); // nothing a slug or scope could start with
        } else {
            candidates = switch (template + "#" + argument) {
                case "svc://kb/{slug}#slug" -> kb.list(caller.tenantId(), Optional.of(likePrefix(typed)), MAX_VALUES + 1, 0)
                        .stream().map(KbService.Entry::slug).toList();
                case "svc://memory/{scope}/{slug}#scope" -> SCOPES.stream().filter(s -> s.startsWith(typed)).toList();
                case "svc://memory/{scope}/{slug}#slug" -> memorySlugs(caller, params, typed);
                case "svc://runbook/{slug}#slug" -> runbooks.published(caller.tenantId()).stream()
                        .map(dev.backplane.kernel.runbooks.RunbookTemplate::slug).filter(s -> s.startsWith(typed)).sorted().toList();
                default -> throw invalid("no argument '" + argument + "' in resource template '" + template
                        + "'; templates: svc://kb/{slug}, svc://memory/{scope}/{slug}, svc://runbook/{slug}",
                        "unknown_argument");
            };
        }
        ObjectNode r = NODES.objectNode();
        ObjectNode completion = r.putObject("completion");
        var values = completion.putArray("values");
        candidates.stream().limit(MAX_VALUES).forEach(values::add);
        completion.put("total", candidates.size());
        completion.put("hasMore", candidates.size() > MAX_VALUES);
        return r;
    }

    private List<String> memorySlugs(Caller caller, JsonNode params, String typed) {
        Optional<String> scope = Optional.of(params.path("context").path("arguments").path("scope").asText(""))
                .filter(SCOPES::contains);
        return memory.list(caller, scope, typed.isEmpty() ? Optional.empty() : Optional.of(typed), Optional.empty(),
                        false, 500, 0).stream().map(MemoryService.Entry::slug).filter(s -> s.startsWith(typed))
                .distinct().sorted().toList();
    }

    /** A LIKE pattern matching slugs that start with {@code typed} ({@code _} escaped: it is a LIKE wildcard). */
    private static String likePrefix(String typed) {
        return typed.replace("\\", "\\\\").replace("_", "\\_").replace("%", "\\%") + "%";
    }

    private static McpServer.RpcError invalid(String message, String reason) {
        return new McpServer.RpcError(McpServer.INVALID_PARAMS, message, Map.of("reason", reason));
    }
}
