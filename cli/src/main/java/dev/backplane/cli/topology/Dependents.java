package dev.backplane.cli.topology;

import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;

/** {@code svc topology dependents} */
@Command(name = "dependents", description = "What depends on a node: its incoming edges, breadth first.")
final class Dependents extends Walk {
    @Override
    String path() {
        return ApiPaths.TOPOLOGY_DEPENDENTS;
    }
}
