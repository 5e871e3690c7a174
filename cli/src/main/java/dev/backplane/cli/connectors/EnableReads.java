package dev.backplane.cli.connectors;

import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc connector enable-reads} */
@Command(name = "enable-reads", description = "Enable every read-class (GET/HEAD) operation [tenant_admin].")
final class EnableReads extends Transition {
    @Option(names = "--include-read-posts", description = "Also enable the POSTs the connector classes as reads (the "
            + "ingest found their name says they only read: search, plan, validate ...; review shows why).")
    boolean includeReadPosts;

    EnableReads() {
        super("every read-class operation is enabled; writes stay default-deny");
    }

    @Override
    String query() {
        return includeReadPosts ? QueryString.of().add("include_read_posts", "true").toString() : "";
    }
}
