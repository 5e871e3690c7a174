package dev.backplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code docs/reference/cli.md} is what the command model generates: a new or changed verb shows in it. */
class CliReferenceTest {

    @Test
    void theCommittedCliReferenceIsWhatTheCommandModelGenerates() throws Exception {
        GeneratedReference.check(CliReference.FILE, CliReference.markdown());
    }

    @Test
    void everyCommandOfTheTreeHasItsSectionAndNoFamilyVerbIsListed() {
        String md = CliReference.markdown();
        java.util.List<String> names = new java.util.ArrayList<>();
        walk(Svc.commandTree().getCommandSpec(), names);
        assertThat(names).hasSizeGreaterThan(100);
        for (String name : names) {
            assertThat(md).as(name).contains("\n## " + name + "\n");
        }
        assertThat(md).doesNotContain("## svc k8s").contains("## svc targets add\n").contains("Alias: `create`")
                .doesNotContain("__complete"); // hidden: the completion scripts call it, people do not
    }

    private static void walk(picocli.CommandLine.Model.CommandSpec spec, java.util.List<String> into) {
        into.add(spec.qualifiedName());
        spec.subcommands().forEach((name, cl) -> {
            if (name.equals(cl.getCommandSpec().name()) && !cl.getCommandSpec().usageMessage().hidden()) {
                walk(cl.getCommandSpec(), into);
            }
        });
    }
}
