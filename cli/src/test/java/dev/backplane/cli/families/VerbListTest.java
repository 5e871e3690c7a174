package dev.backplane.cli.families;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** The one-line-per-verb command list of a family's and a noun's help. */
class VerbListTest {

    @Test
    void aNounListsItsVerbsOrTheFirstFewAndHowMany() {
        assertThat(VerbList.summary(List.of("list", "get"))).isEqualTo("list, get");
        List<String> many = IntStream.range(0, 398).mapToObj(i -> "verb-" + i).toList();
        assertThat(VerbList.summary(many)).isEqualTo("398 verbs: verb-0, verb-1, verb-2, verb-3, verb-4, verb-5, ...");
    }

    @Test
    void aDescriptionIsCutBetweenWordsAndALongWordIsNeverCut() {
        assertThat(VerbList.oneLine("list or watch objects of kind Pod", 80))
                .isEqualTo("list or watch objects of kind Pod");
        assertThat(VerbList.oneLine("list or watch objects of kind PersistentVolumeClaim", 30))
                .isEqualTo("list or watch objects of ...");
        String word = "x".repeat(50);
        assertThat(VerbList.oneLine(word + " tail", 20)).isEqualTo(word + " ...");
        assertThat(VerbList.wrap("  a  b c ", 3)).containsExactly("a b", "c");
    }

    @Test
    void oneLinePerVerbUnderItsNameOnlyAndALongNameOnALineOfItsOwn() {
        CommandSpec noun = CommandSpec.create().name("core-v1");
        VerbList.install(noun);
        CommandSpec list = CommandSpec.create().name("list-namespaced-pod").aliases("list_core_v1_namespaced_pod");
        list.usageMessage().description("list or watch objects of kind Pod [k8s.core_v1.list_core_v1_namespaced_pod, "
                + "safe]");
        CommandSpec longName = CommandSpec.create().name("delete-collection-namespaced-persistent-volume-claim");
        longName.usageMessage().description("delete collection of PersistentVolumeClaim");
        noun.addSubcommand("list-namespaced-pod", list);
        noun.addSubcommand(longName.name(), longName);

        String help = new CommandLine(noun).getUsageMessage();

        assertThat(help).contains("  list-namespaced-pod             list or watch objects of kind Pod"
                + System.lineSeparator())
                .contains("  delete-collection-namespaced-persistent-volume-claim" + System.lineSeparator()
                        + " ".repeat(34) + "delete collection of PersistentVolumeClaim")
                .doesNotContain("list_core_v1_namespaced_pod").doesNotContain("[k8s.core_v1");
    }
}
