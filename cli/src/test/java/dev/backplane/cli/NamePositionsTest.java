package dev.backplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/** Where the command tree takes names the backplane knows ({@link NamePositions}). */
class NamePositionsTest {

    private final CommandSpec root = Svc.commandTree().getCommandSpec();

    @Test
    void everyRuleMatchesSomeArgument() {
        List<NamePositions.Rule> dead = new ArrayList<>(NamePositions.RULES);
        walk(root, (spec, arg) -> dead.removeIf(r -> r.matches(spec, arg)));

        assertThat(dead).as("rules that match no option or parameter (renamed?)").isEmpty();
    }

    @Test
    void theNamesTheIssueAsksFor() {
        assertThat(kind("svc targets describe", "0")).contains(NameKind.TARGET);
        assertThat(kind("svc targets delete", "0")).contains(NameKind.TARGET);
        assertThat(kind("svc operation call", "--target")).contains(NameKind.TARGET);
        assertThat(kind("svc operation call", "0")).contains(NameKind.CONNECTOR);
        assertThat(kind("svc operation call", "1")).contains(NameKind.OPERATION);
        assertThat(kind("svc connector enable", "0")).contains(NameKind.CONNECTOR);
        assertThat(kind("svc connector edit-op", "1")).contains(NameKind.OPERATION);
        assertThat(kind("svc approvals show", "0")).contains(NameKind.APPROVAL);
        assertThat(kind("svc approvals approve", "0")).contains(NameKind.APPROVAL);
        assertThat(kind("svc approvals reject", "0")).contains(NameKind.APPROVAL);
        assertThat(kind("svc agent run", "0")).contains(NameKind.AGENT);
        assertThat(kind("svc scheduler create", "--agent-definition")).contains(NameKind.AGENT);
        assertThat(kind("svc runbook start", "0")).contains(NameKind.RUNBOOK);
        assertThat(kind("svc runbook start", "--target")).contains(NameKind.TARGET);
        assertThat(kind("svc event-source pause", "0")).contains(NameKind.EVENT_SOURCE);
        assertThat(kind("svc events list", "--source")).contains(NameKind.EVENT_SOURCE);
    }

    @Test
    void newNamesAndUuidsAreNotCompletedAsNames() {
        assertThat(kind("svc targets add", "0")).isEmpty(); // the new target's name
        assertThat(kind("svc agent create", "0")).isEmpty();
        assertThat(kind("svc agent-principal register", "0")).isEmpty();
        assertThat(kind("svc agent grant create", "--target")).isEmpty(); // a target uuid
        assertThat(kind("svc service-principals grants create", "--target")).isEmpty();
        assertThat(kind("svc event-source add", "0")).isEmpty();
        assertThat(kind("svc runbook next", "0")).isEmpty(); // a run id
    }

    @Test
    void everyPositionIsListedOnceWithItsCommandsValueOptions() {
        Map<String, NameKind> byPlace = new TreeMap<>();
        for (NamePositions.Position p : NamePositions.of(root)) {
            assertThat(byPlace.put(p.command() + " " + p.key(), p.kind())).as(p.toString()).isNull();
            if (p.positional()) {
                assertThat(p.valueOptions()).contains("--backplane", "--config");
            }
        }
        assertThat(byPlace).containsEntry("svc targets describe --op", NameKind.OPERATION)
                .containsEntry("svc targets describe 0", NameKind.TARGET)
                .doesNotContainKey("svc targets add 0");
    }

    private Optional<NameKind> kind(String command, String key) {
        CommandSpec spec = root;
        for (String word : command.substring("svc ".length()).split(" ")) {
            spec = spec.subcommands().get(word).getCommandSpec();
        }
        ArgSpec arg = key.startsWith("-") ? spec.findOption(key)
                : spec.positionalParameters().get(Integer.parseInt(key));
        assertThat(arg).as(command + " " + key).isNotNull();
        return NamePositions.kind(spec, arg);
    }

    private static void walk(CommandSpec spec, java.util.function.BiConsumer<CommandSpec, ArgSpec> each) {
        spec.args().forEach(a -> each.accept(spec, a));
        spec.subcommands().forEach((name, cl) -> {
            if (name.equals(cl.getCommandSpec().name())) {
                walk(cl.getCommandSpec(), each);
            }
        });
    }
}
