package dev.backplane.cli.targets;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc targets probe} */
@Command(name = "probe", description = "Probe a target live through its connector and store the fingerprint.")
final class Probe extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<name-or-alias>") String name;

    Probe() {
        super("POST " + ApiPaths.TARGET_PROBE, TargetsCommand::printProbe);
    }
}
