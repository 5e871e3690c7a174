package dev.backplane.cli.governance;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc audit my-recent} */
@Command(name = "my-recent", description = "Your own recent dispatches.")
final class AuditMyRecent extends AuditPage {
    @Option(names = "--since") String since;
    @Option(names = "--limit", paramLabel = "1..1000", description = "default 100") Integer limit;

    @Override
    String path() {
        return ApiPaths.AUDIT_MINE + QueryString.of().add("since", since).add("limit", limit);
    }
}
