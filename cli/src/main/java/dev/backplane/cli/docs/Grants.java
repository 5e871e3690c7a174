package dev.backplane.cli.docs;

import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Tables;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code svc docs collections grants} (an extension of SPEC's verbs) */
@Command(name = "grants", description = "Tenants holding svc-docs:<key> of a global collection [platform_admin].")
final class Grants extends KeyCommand {
    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.DOCS_COLLECTION, key) + "/grants", r -> {
            List<List<String>> rows = Tables.rows(r.path("grants"), g -> Arrays.asList(g.path("tenant_id").asText(),
                    g.path("granted_by").asText(), g.path("granted_at").asText()));
            Tables.print(ctx, "no tenant holds svc-docs:" + key, List.of("TENANT", "GRANTED BY", "GRANTED AT"),
                    rows);
        });
    }
}
