package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;
import org.junit.jupiter.api.Test;

/** The word tables operation search ranks with: phrases, synonyms, stems, a query's intent, an operation's action. */
class OperationWordsTest {

    private static OperationDescriptor op(String opId, String method, SafetyLevel safety, String description) {
        return new OperationDescriptor(opId, opId.split("\\.")[1], description, safety, method.equals("GET") ? false
                : true, method.equals("GET") ? OpClass.READ : OpClass.WRITE, "{}",
                new OperationShape.Http(method, "/x"), ResultKind.OBJECT);
    }

    private static OperationWords.Intent intent(String query) {
        return OperationSearch.intent(query);
    }

    @Test
    void phrasesBecomeOneWordBeforeSplitting() {
        assertThat(OperationWords.phrases("Power cycle the box")).isEqualTo("powercycle the box");
        assertThat(OperationWords.phrases("do a dry run of the job")).isEqualTo("do a dry of the job");
        assertThat(OperationWords.phrases("list nodes")).isEqualTo("list nodes");
    }

    @Test
    void synonymsGoBothWaysAndMostWordsHaveNone() {
        assertThat(OperationWords.synonyms("record")).contains("rrset");
        assertThat(OperationWords.synonyms("rrset")).contains("record");
        assertThat(OperationWords.synonyms("reboot")).contains("restart");
        assertThat(OperationWords.synonyms("zone")).isEmpty();
    }

    @Test
    void stemsJoinInflectionsButKeepShortWords() {
        assertThat(OperationWords.stem("replication")).isEqualTo(OperationWords.stem("replicate"));
        assertThat(OperationWords.stem("configuration")).isEqualTo(OperationWords.stem("configure"));
        assertThat(OperationWords.stem("deployment")).isEqualTo(OperationWords.stem("deploy"));
        assertThat(OperationWords.stem("policies")).isEqualTo(OperationWords.stem("policy"));
        assertThat(OperationWords.stem("node")).isEqualTo("node");
    }

    @Test
    void aQueryVerbMatchesTheActionItNamesAndOnlyDestroyingWordsAskToDestroy() {
        OperationDescriptor reboot = op("do.droplet_actions.droplet_reboot", "POST", SafetyLevel.CAUTION,
                "Reboot a droplet");
        OperationDescriptor destroy = op("do.droplets.droplets_destroy", "DELETE", SafetyLevel.DANGEROUS,
                "Delete an existing droplet");
        OperationDescriptor list = op("do.droplets.droplets_list", "GET", SafetyLevel.SAFE, "List all droplets");

        OperationWords.Intent rebootIt = intent("reboot a droplet");
        assertThat(rebootIt.destroys()).isFalse();
        assertThat(rebootIt.matches(OperationWords.action(reboot))).isEqualTo(2);
        assertThat(rebootIt.matches(OperationWords.action(destroy))).isZero();
        assertThat(OperationWords.action(destroy).destructive()).isTrue();
        assertThat(OperationWords.action(list).destructive()).isFalse();
        // "restart" is reboot's synonym: the very action, not only its kind
        assertThat(intent("restart the droplet").matches(OperationWords.action(reboot))).isEqualTo(2);
        // "show" reads, as a GET does: the same kind of action
        assertThat(intent("show droplets").matches(OperationWords.action(list))).isPositive();

        assertThat(intent("delete the droplet").destroys()).isTrue();
        assertThat(intent("remove old images").destroys()).isTrue();
        assertThat(intent("what is on call now").destroys()).isFalse();
    }

    @Test
    void theAdjustmentLiftsTheNamedActionAndLowersADestructiveOneUnlessAskedFor() {
        OperationDescriptor destroy = op("do.droplets.droplets_destroy", "DELETE", SafetyLevel.DANGEROUS,
                "Delete an existing droplet");
        OperationWords.Action a = OperationWords.action(destroy);
        OperationWords.Intent reboot = intent("reboot a droplet");
        OperationWords.Intent delete = intent("delete a droplet");
        assertThat(reboot.matches(a) == 0 && a.destructive() && !reboot.destroys()).as("penalised").isTrue();
        assertThat(delete.matches(a)).as("asked for by name").isEqualTo(2);
    }
}
