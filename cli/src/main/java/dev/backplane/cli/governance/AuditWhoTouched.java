package dev.backplane.cli.governance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc audit who-touched} */
@Command(name = "who-touched", description = "Who dispatched against a target.")
final class AuditWhoTouched extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<target>") String target;

    AuditWhoTouched() {
        super("GET " + ApiPaths.AUDIT_WHO_TOUCHED);
    }

    @Override
    protected void render(JsonNode list) {
        List<List<String>> rows = Tables.rows(list, p -> List.of(Tables.principal(p, "principal", "username"),
                p.path("principal_kind").asText(),
                p.path("calls").asText(), p.path("writes").asText(), p.path("last_at").asText()));
        Tables.print(ctx, "nobody has dispatched against " + target, List.of("PRINCIPAL", "KIND", "CALLS",
                "WRITES", "LAST"), rows);
    }
}
