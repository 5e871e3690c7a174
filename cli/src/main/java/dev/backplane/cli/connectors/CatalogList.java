package dev.backplane.cli.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Json;
import dev.backplane.cli.common.Tables;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code svc connector catalog list} */
@Command(name = "list", description = "Products and the connector implementations that serve them.")
final class CatalogList extends BackplaneCommand {
    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.CATALOG, list -> {
            List<List<String>> rows = new ArrayList<>();
            for (JsonNode p : list) {
                for (JsonNode i : p.path("implementations")) {
                    rows.add(List.of(p.path("product").asText(), String.valueOf(p.path("default_port").asInt()),
                            i.path("connector_id").asText(), String.join(" ",
                                    Json.texts(i.path("supported_versions")))));
                }
            }
            Tables.print(ctx, List.of("PRODUCT", "PORT", "CONNECTOR", "SUPPORTED VERSIONS"), rows);
        });
    }
}
