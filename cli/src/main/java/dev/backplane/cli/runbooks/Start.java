package dev.backplane.cli.runbooks;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc runbook start} */
@Command(name = "start", description = "Start a run of a published template and show its first step [operator]; "
        + "you are its assignee.")
final class Start extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;
    @Option(names = "--version", description = "a published version (default the newest)") Integer version;
    @Option(names = "--target", description = "the target the steps' operations act on") String target;
    @Option(names = "--input", paramLabel = "<name=value>", description = "a template input (repeatable)")
    List<String> inputs;
    @Option(names = "--work-ref", description = "change-ticket reference stamped on the run's calls") String workRef;

    @RequestBody
    record Body(String slug, Integer version, String target, Map<String, String> inputs, String workRef) {
    }

    @Override
    protected void execute(Session s) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String kv : inputs == null ? List.<String>of() : inputs) {
            int eq = kv.indexOf('=');
            if (eq < 1) {
                throw CliException.usage("--input must be name=value, got '" + kv + "'");
            }
            values.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        send(s, "POST", ApiPaths.RUNBOOK_RUNS, new Body(slug, version, target, values, workRef),
                r -> RunbookCommand.printRun(ctx, r));
    }
}
