package dev.backplane.kernel.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.util.JsonMapping;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a run's final answer yields, without a model or database: plain text, or JSON checked against the schema. */
class TurnAnswerTest {

    private static AgentDefinition def(Optional<JsonNode> schema) {
        return new AgentDefinition("triage", true, "bot", "standard", "", Map.of(), List.of(), schema, 20, "alice",
                Instant.EPOCH, Instant.EPOCH);
    }

    private static JsonNode json(String text) throws Exception {
        return JsonMapping.mapper().readTree(text);
    }

    @Test
    void withoutASchemaTheTextIsTheOutput() throws Exception {
        TurnAnswer.Final read = TurnAnswer.read(def(Optional.empty()), "not { json");
        assertThat(read.problems()).isEmpty();
        assertThat(read.output()).contains(json("{\"text\": \"not { json\"}"));
    }

    @Test
    void withASchemaTheJsonValueIsCheckedAndMayComeInACodeFence() throws Exception {
        AgentDefinition d = def(Optional.of(json(
                "{\"type\": \"object\", \"required\": [\"verdict\"], \"properties\": {\"verdict\": {\"type\": \"string\"}}}")));
        TurnAnswer.Final ok = TurnAnswer.read(d, "```json\n{\"verdict\": \"fine\"}\n```");
        assertThat(ok.problems()).isEmpty();
        assertThat(ok.output()).contains(json("{\"verdict\": \"fine\"}"));

        TurnAnswer.Final wrong = TurnAnswer.read(d, "{\"verdict\": 3}");
        assertThat(wrong.problems()).isNotEmpty();

        TurnAnswer.Final missing = TurnAnswer.read(d, "{}");
        assertThat(missing.problems()).isNotEmpty();

        TurnAnswer.Final prose = TurnAnswer.read(d, "The verdict is fine.");
        assertThat(prose.output()).isEmpty();
        assertThat(prose.problems()).containsExactly("the answer is not JSON");
    }

    @Test
    void theTurnBudgetEndsARunAsFailedWithAllTurnsSpent() {
        RunLoop.Outcome o = RunStops.budgetExhausted(7);
        assertThat(o.status()).isEqualTo(AgentRun.Status.FAILED);
        assertThat(o.errorCode()).contains("turn_budget_exhausted");
        assertThat(o.turns()).isEqualTo(7);
        assertThat(o.error().orElseThrow()).contains("turn budget of 7 turns");
    }
}
