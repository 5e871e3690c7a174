package dev.backplane.cli.common;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.cli.LoopbackBackplane;
import dev.backplane.cli.LoopbackBackplane.Result;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every delete verb: nothing is sent without --confirm; with it, one DELETE on the named thing's route. */
class ConfirmedDeleteTest {

    @RegisterExtension
    final LoopbackBackplane backplane = new LoopbackBackplane();

    @ParameterizedTest
    @CsvSource({
        "kb, delete, ops-notes, kb entry, /api/v1/kb/ops-notes",
        "targets, delete, prod-k8s, target, /api/v1/targets/prod-k8s",
        "conventions, delete, no-friday, convention, /api/v1/conventions/no-friday",
        "agent, delete, triage, agent definition, /api/v1/agents/triage"})
    void deletesOnlyWithConfirm(String noun, String verb, String key, String what, String route) {
        backplane.answer(route, 204, "");

        Result refused = backplane.svc(noun, verb, key);
        assertThat(refused.code()).as(refused.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(refused.err()).contains("delete " + what + " " + key + ": ").contains("re-run with --confirm");
        assertThat(backplane.seen).as("nothing sent without --confirm").isEmpty();

        Result done = backplane.svc(noun, verb, key, "--confirm");
        assertThat(done.code()).as(done.err()).isEqualTo(0);
        assertThat(done.out()).contains("deleted " + what + " " + key);
        assertThat(backplane.seen).extracting(seen -> seen.method() + " " + seen.path())
                .containsExactly("DELETE " + route);
    }
}
