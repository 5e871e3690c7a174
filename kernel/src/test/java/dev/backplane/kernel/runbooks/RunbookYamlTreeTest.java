package dev.backplane.kernel.runbooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.runbooks.RunbookYaml.Problem;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;

/** A YAML tree as JSON: typed scalars, each value's line and column by JSON pointer, and the problems of its keys. */
class RunbookYamlTreeTest {

    private final Map<String, Mark> marks = new HashMap<>();
    private final List<Problem> problems = new ArrayList<>();

    private JsonNode json(String yaml) {
        return RunbookYamlTree.toJson(new Yaml().compose(new StringReader(yaml)), marks, problems);
    }

    @Test
    void scalarsKeepTheirYamlTypesAndEachValueItsPosition() {
        JsonNode j = json("title: Restart\nsteps:\n  - n: 3\n    ratio: 1.5\n    on: yes\n    none: ~\n    text: '42'\n");
        assertThat(problems).isEmpty();
        assertThat(j.at("/steps/0/n").isIntegralNumber()).isTrue();
        assertThat(j.at("/steps/0/ratio").decimalValue()).isEqualByComparingTo("1.5");
        assertThat(j.at("/steps/0/on").booleanValue()).isTrue();
        assertThat(j.at("/steps/0/none").isNull()).isTrue();
        assertThat(j.at("/steps/0/text").isTextual()).isTrue();
        // a property's mark is its key's (1-based in problems, 0-based in marks)
        assertThat(marks.get("/steps/0/ratio").getLine()).isEqualTo(3);
        assertThat(marks.get("/steps/0/ratio").getColumn()).isEqualTo(4);
        assertThat(marks.get("/title").getLine()).isZero();
    }

    @Test
    void aDuplicateKeyIsAProblemAtItsSecondOccurrenceAndTheFirstValueStays() {
        JsonNode j = json("title: A\nsteps: []\ntitle: B\n");
        assertThat(j.path("title").asText()).isEqualTo("A");
        assertThat(problems).containsExactly(new Problem(3, 1, "/title", "duplicate key 'title'"));
    }

    @Test
    void aNonStringKeyIsAProblem() {
        json("? [a, b]\n: 1\n");
        assertThat(problems).extracting(Problem::message).containsExactly("a key must be a plain string");
    }

    @Test
    void nestingDeeperThanTheLimitIsOneProblem() {
        json("a: ".repeat(1) + "[".repeat(35) + "]".repeat(35) + "\n");
        assertThat(problems).hasSize(1);
        assertThat(problems.getFirst().message()).startsWith("the template nests deeper than 32 levels");
    }
}
