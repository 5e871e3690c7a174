package dev.backplane.cli;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Where a command takes a name the backplane knows, and of which {@link NameKind}: the one place that says so, read by
 * the completion scripts ({@link BashNames}, {@link FishCompletion}). A rule names a command (the command and its
 * subcommands; {@code svc} for all) and an argument: an option by name ({@code --target}) or a positional parameter
 * by its label ({@code <name-or-alias>}). The first rule that matches decides; a rule without a kind keeps an
 * argument that looks like a name from being completed as one (a grant's {@code --target} is a uuid).
 * {@code NamePositionsTest} holds every rule to at least one argument, so a renamed option cannot leave a rule dead.
 */
final class NamePositions {

    record Rule(String command, String argument, NameKind kind) {
        boolean matches(CommandSpec spec, ArgSpec arg) {
            String path = spec.qualifiedName();
            if (!path.equals(command) && !path.startsWith(command + " ")) {
                return false;
            }
            return arg instanceof OptionSpec o ? List.of(o.names()).contains(argument)
                    : arg instanceof PositionalParamSpec p && p.paramLabel().equals(argument);
        }
    }

    static final List<Rule> RULES = List.of(
            new Rule("svc agent grant", "--target", null), // a target uuid or *
            new Rule("svc service-principals", "--target", null), // a target uuid
            new Rule("svc", "--target", NameKind.TARGET), // every other --target, the family verbs' included
            new Rule("svc targets", "<name-or-alias>", NameKind.TARGET),
            new Rule("svc targets discover", "--seed-target", NameKind.TARGET),
            new Rule("svc audit who-touched", "<target>", NameKind.TARGET),
            new Rule("svc topology refresh", "<target>", NameKind.TARGET),
            new Rule("svc topology", "<name|alias>", NameKind.TARGET),
            new Rule("svc", "<connector_id>", NameKind.CONNECTOR),
            new Rule("svc", "--connector-id", NameKind.CONNECTOR),
            new Rule("svc", "<op_id>", NameKind.OPERATION),
            new Rule("svc", "--op-id", NameKind.OPERATION),
            new Rule("svc targets describe", "--op", NameKind.OPERATION),
            new Rule("svc agent grant", "--op", NameKind.OPERATION),
            new Rule("svc approvals", "<id>", NameKind.APPROVAL),
            new Rule("svc agent show", "<name>", NameKind.AGENT),
            new Rule("svc agent edit", "<name>", NameKind.AGENT),
            new Rule("svc agent delete", "<name>", NameKind.AGENT),
            new Rule("svc agent run", "<name>", NameKind.AGENT),
            new Rule("svc agent run-events", "<name>", NameKind.AGENT),
            new Rule("svc agent run-list", "--agent-name", NameKind.AGENT),
            new Rule("svc scheduler create", "--agent-definition", NameKind.AGENT),
            new Rule("svc dashboard create", "--investigator-agent", NameKind.AGENT),
            new Rule("svc runbook", "<slug>", NameKind.RUNBOOK),
            new Rule("svc runbook list", "--slug", NameKind.RUNBOOK),
            new Rule("svc event-source", "<slug-or-name>", NameKind.EVENT_SOURCE),
            new Rule("svc events list", "--source", NameKind.EVENT_SOURCE));

    /**
     * One place a name is completed: an option of a command (by each of its names), or a positional parameter by its
     * index.
     *
     * @param command the command's path, {@code svc targets describe}
     * @param key an option's name, or a positional parameter's index as text
     * @param valueOptions every name of every option of the command that takes a value (to tell, walking the typed
     *                     words, an option's value from a positional parameter)
     */
    record Position(String command, String key, NameKind kind, Set<String> valueOptions) {
        boolean positional() {
            return !key.startsWith("-");
        }
    }

    private NamePositions() {
    }

    /** The kind of name {@code arg} of {@code spec} takes, if it takes one. */
    static Optional<NameKind> kind(CommandSpec spec, ArgSpec arg) {
        for (Rule r : RULES) {
            if (r.matches(spec, arg)) {
                return Optional.ofNullable(r.kind());
            }
        }
        return Optional.empty();
    }

    /** Every place under {@code root} (its visible commands, not their aliases) where a name is completed. */
    static List<Position> of(CommandSpec root) {
        List<Position> out = new ArrayList<>();
        walk(root, out);
        return out;
    }

    private static void walk(CommandSpec spec, List<Position> out) {
        if (spec.usageMessage().hidden()) {
            return;
        }
        Set<String> valueOptions = new LinkedHashSet<>();
        spec.options().stream().filter(o -> o.arity().max() > 0).forEach(o -> valueOptions.addAll(List.of(o.names())));
        for (OptionSpec o : spec.options()) {
            if (!o.hidden() && o.arity().max() > 0) {
                kind(spec, o).ifPresent(k -> {
                    for (String name : o.names()) {
                        out.add(new Position(spec.qualifiedName(), name, k, valueOptions));
                    }
                });
            }
        }
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (!p.hidden()) {
                kind(spec, p).ifPresent(k -> {
                    int last = p.index().isUnspecified() || p.index().isVariable() ? p.index().min() : p.index().max();
                    for (int i = p.index().min(); i <= last; i++) {
                        out.add(new Position(spec.qualifiedName(), Integer.toString(i), k, valueOptions));
                    }
                });
            }
        }
        spec.subcommands().forEach((name, cl) -> {
            if (name.equals(cl.getCommandSpec().name())) {
                walk(cl.getCommandSpec(), out);
            }
        });
    }
}
