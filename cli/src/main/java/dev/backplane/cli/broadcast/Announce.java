package dev.backplane.cli.broadcast;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.RequestBody;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc broadcast announce} */
@Command(name = "announce", description = "Announce work so others see it (a claim, active until its completion or "
        + "its TTL). A later phase with the same --run-id (else --work-ref, else the same text) updates the claim.")
final class Announce extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<activity>", description = "what you are doing, in a line") String activity;
    @Option(names = "--phase", description = "start (default), update or completion") String phase;
    @Option(names = "--planned-op-class", description = "read, write, credential_read or other") String plannedOpClass;
    @Option(names = "--run-id", description = "your run or job id: keys the claim") String runId;
    @Option(names = "--scope", description = "free text: what the work covers") String scope;
    @Option(names = "--target", description = "the target the work touches") String target;
    @Option(names = "--targets", split = ",", description = "several targets, comma-separated") List<String> targets;
    @Option(names = "--ttl-minutes", paramLabel = "1..1440", description = "default 60") Integer ttlMinutes;
    @Option(names = "--work-ref", description = "change-ticket reference") String workRef;

    @RequestBody
    record Body(String activity, String phase, String plannedOpClass, String runId, String scope, String target,
                List<String> targets, Integer ttlMinutes, String workRef) {
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.BROADCAST_ANNOUNCEMENTS, new Body(activity, phase, plannedOpClass, runId, scope, target,
                targets, ttlMinutes, workRef), e -> ctx.out().println("announced (stream id " + e.path("id").asText()
                + "): " + BroadcastCommand.line(e)));
    }
}
