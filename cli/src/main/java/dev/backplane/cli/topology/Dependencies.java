package dev.backplane.cli.topology;

import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;

/** {@code svc topology dependencies} */
@Command(name = "dependencies", description = "What a node depends on: its outgoing edges, breadth first.")
final class Dependencies extends Walk {
    @Override
    String path() {
        return ApiPaths.TOPOLOGY_DEPENDENCIES;
    }
}
