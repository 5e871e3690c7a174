package dev.backplane.cli;

import dev.backplane.cli.common.BackplaneOptions;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Commands;
import dev.backplane.cli.families.FamilyVerbs;
import java.util.List;
import java.util.Locale;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code svc completion bash|zsh|fish}: a completion script for the whole command tree, the family verbs
 * of the backplane's catalog included ({@code svc k8s pod l<TAB>}). bash and zsh get picocli's script
 * (which loads bashcompinit under zsh); fish, for which picocli has no generator, gets {@link FishCompletion}.
 * Both complete names live ({@link BashNames}, {@link NamePositions}): where a command takes a target, connector,
 * operation and so on, the script asks {@code svc __complete} ({@link CompleteCommand}).
 */
@Command(name = "completion", description = {"Print a shell completion script for bash, zsh or fish.",
        "bash:  source <(svc completion bash)   (or save it in ~/.local/share/bash-completion/completions/svc)",
        "zsh:   source <(svc completion zsh)",
        "fish:  svc completion fish > ~/.config/fish/completions/svc.fish",
        "The family verbs (svc <family> <noun> <verb>) come from the operation catalog of the current context's "
                + "backplane (or --context, --backplane); run it again after new connectors arrive. Without a "
                + "reachable backplane the script has the built-in commands only.",
        "Names (targets, connectors, operation ids, pending approvals, agents, runbook templates, event sources) are "
                + "asked of the backplane as you press TAB, cached for 30 seconds; an unreachable one offers none."})
final class CompletionCommand extends CliCommand {

    static final List<String> SHELLS = List.of("bash", "zsh", "fish");

    /**
     * zsh runs the bash script through bash-completion compatibility: picocli's script itself loads
     * {@code bashcompinit} under zsh (and {@code compinit} only when it is not loaded yet), as its
     * documentation describes, so the script is the same.
     */
    static final String ZSH_HEADER = "# svc completion for zsh (bash completion through bashcompinit): "
            + "source <(svc completion zsh)\n";

    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "bash|zsh|fish", completionCandidates = Shells.class,
            description = "the shell: bash, zsh or fish")
    String shell;

    @Option(names = "--backplane", paramLabel = "<url>",
            description = "backplane whose catalog gives the family verbs (default: the current context's)")
    String backplane;

    @Option(names = "--tenant", paramLabel = "<uuid>", description = "tenant whose catalog gives the family verbs")

    String tenant;

    @Override
    public void run() {
        String which = shell.toLowerCase(Locale.ROOT);
        if (!SHELLS.contains(which)) {
            throw CliException.usage("unknown shell '" + shell + "'; expected one of " + String.join(", ", SHELLS));
        }
        CommandLine root = spec.root().commandLine();
        try {
            FamilyVerbs.registerAll(root, ctx, Commands.global(spec), BackplaneOptions.of(backplane, tenant));
            Svc.addHelpOptions(root);
        } catch (CliException e) {
            ctx.err().println("svc: the script has no family verbs (" + e.getMessage() + ")");
        }
        ctx.out().print(switch (which) {
            case "bash" -> BashNames.script("svc", root.getCommandSpec(), AutoComplete.bash("svc", root));
            case "zsh" -> ZSH_HEADER + BashNames.script("svc", root.getCommandSpec(), AutoComplete.bash("svc", root));
            default -> FishCompletion.script("svc", root.getCommandSpec());
        });
        ctx.out().flush();
    }

    /** What completion offers for the shell argument. */
    static final class Shells implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return SHELLS.iterator();
        }
    }
}
