package dev.backplane.cli.docs;

import java.util.Set;
import picocli.CommandLine.Command;

/** {@code svc docs collections}: doc collections — list, create, update, delete, enable, disable, probe, grants. */
@Command(name = "collections", description = "Doc collections and their retrieval backends.",
        subcommands = {ListCollections.class, Create.class,
                Update.class, Delete.class, Enable.class,
                Disable.class, Probe.class, Grant.class,
                Revoke.class, Grants.class})
final class DocCollectionsCommand {

    static final Set<String> FILE_FIELDS = Set.of("backend_type", "backend_ref", "description", "product",
            "vendor", "when_to_use", "enabled", "global");

    private DocCollectionsCommand() {
    }
}
