package dev.backplane.kernel.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.backplane.kernel.errors.DomainException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A curated import's problem rules without a database: every line's problems listed with index, code,
 * message and field, a null line named, the refusal listing at most 100 problems while counting all, the
 * edge vocabulary attached when a kind is unknown, and no refusal without problems.
 */
class WantedEdgesTest {

    private static EdgeInput edge(String from, String kind, String to) {
        return new EdgeInput(from, "service", kind, to, "datastore", null, null);
    }

    @Test
    void everyLineIsCheckedAndEachProblemNamesItsLine() {
        List<Map<String, Object>> problems = WantedEdges.problems(Arrays.asList(edge("api", "depends-on", "db"), null,
                edge(" bad", "loves", "db")));
        assertThat(problems).extracting(p -> p.get("index"), p -> p.get("code")).containsExactly(
                tuple(1, "invalid_body"),
                tuple(2, "invalid_node_name"),
                tuple(2, "unknown_edge_kind"));
        assertThat(problems.get(1)).containsEntry("field", "from");
        assertThat(problems.getFirst()).doesNotContainKey("field");
        assertThat(WantedEdges.problems(List.of(edge("api", "depends-on", "db")))).isEmpty();
    }

    @Test
    void noProblemsNoRefusal() {
        WantedEdges.refuse(new ArrayList<>(), 3);
    }

    @Test
    void aRefusalListsTheFirstHundredAndCountsAll() {
        List<Map<String, Object>> problems = new ArrayList<>(IntStream.range(0, 150).mapToObj(i -> WantedEdges.problem(i,
                TopologyErrors.INVALID_NODE_NAME.error("bad name " + i, Map.of("field", "to")))).toList());
        assertThatThrownBy(() -> WantedEdges.refuse(problems, 200)).isInstanceOfSatisfying(DomainException.class, e -> {
            assertThat(e.code()).isEqualTo("invalid_edge");
            assertThat(e.getMessage()).startsWith("150 problem(s) in 200 edges; nothing was imported (first: edge 0: bad name 0");
            assertThat((List<?>) e.extras().get("problems")).hasSize(WantedEdges.MAX_PROBLEMS);
            assertThat(e.extras()).containsEntry("problem_count", 150).doesNotContainKey("valid_kinds");
        });
    }

    @Test
    void anUnknownKindBringsTheVocabulary() {
        List<Map<String, Object>> problems = WantedEdges.problems(List.of(edge("api", "loves", "db")));
        assertThatThrownBy(() -> WantedEdges.refuse(problems, 1)).isInstanceOfSatisfying(DomainException.class, e ->
                assertThat(e.extras()).containsEntry("valid_kinds", Vocabulary.EDGE_KINDS));
    }
}
