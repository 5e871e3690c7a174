package dev.backplane.cli.broadcast;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code svc broadcast overrides}: how much of matching calls the feed shows. */
@Command(name = "overrides", description = "Per-operation feed rules: full (every call an event) or aggregate "
        + "(matching calls counted per window) [tenant_admin to change].",
        subcommands = {OverrideList.class, OverrideSet.class, OverrideRemove.class})
final class OverridesCommand {

    static final List<String> HEADER = List.of("ID", "OP_ID_PATTERN", "DETAIL", "SCOPE");

    private OverridesCommand() {
    }

    static List<String> row(JsonNode o) {
        return List.of(o.path("id").asText(), o.path("op_id_pattern").asText(), o.path("detail").asText(),
                o.path("scope_field").asText().isEmpty() ? "(op-wide)" : o.path("scope_field").asText() + "="
                        + o.path("scope_value").asText());
    }
}
