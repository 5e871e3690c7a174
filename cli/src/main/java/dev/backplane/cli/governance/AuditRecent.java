package dev.backplane.cli.governance;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc audit recent} */
@Command(name = "recent", description = "The tenant's recent dispatches.")
final class AuditRecent extends AuditPage {
    @Option(names = "--limit", paramLabel = "1..1000", description = "default 100") Integer limit;

    @Override
    String path() {
        return ApiPaths.AUDIT + QueryString.of().add("limit", limit);
    }
}
