package dev.backplane.kernel.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.backplane.kernel.errors.DomainException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The checks a result_query passes before SQL is built, and the statement the compiler builds (no database). */
class ResultQueryRulesTest {

    private static final JsonNodeFactory J = JsonNodeFactory.instance;
    private static final ResultHandles.Handle HANDLE = new ResultHandles.Handle(UUID.randomUUID(), "op", 3,
            Instant.now(), Set.of("name", "cpu"));

    private static ResultQuery.Query query(List<ResultQuery.Predicate> where, List<String> select,
                                           List<String> groupBy, List<ResultQuery.Aggregate> aggregates,
                                           List<ResultQuery.Order> orderBy) {
        return new ResultQuery.Query(where, select, groupBy, aggregates, orderBy, Optional.empty());
    }

    private static ResultQueryCompiler.Compiled compile(ResultQuery.Query q) {
        return ResultQueryCompiler.compile(HANDLE, new ResultQuery(HANDLE.id().toString(), Optional.empty(),
                Optional.empty(), Optional.of(q)));
    }

    private static void refused(Runnable r, String message) {
        assertThatThrownBy(r::run).isInstanceOf(DomainException.class).hasMessageContaining(message)
                .extracting(e -> ((DomainException) e).code()).isEqualTo("invalid_query");
    }

    @Test
    void limitDefaultsAndIsClampedOffsetIsBounded() {
        assertThat(ResultQueryRules.limit(new ResultQuery("h", null, null, null))).isEqualTo(50);
        assertThat(ResultQueryRules.limit(new ResultQuery("h", null, Optional.of(10_000), null))).isEqualTo(500);
        assertThat(ResultQueryRules.limit(new ResultQuery("h", null, Optional.of(0), null))).isEqualTo(1);
        assertThat(ResultQueryRules.limit(new ResultQuery("h", null, Optional.of(7), Optional.of(new ResultQuery.Query(
                null, null, null, null, null, Optional.of(3)))))).as("the query's limit wins").isEqualTo(3);
        assertThat(ResultQueryRules.offset(new ResultQuery("h", Optional.of(1_000_000), null, null)))
                .isEqualTo(1_000_000);
        refused(() -> ResultQueryRules.offset(new ResultQuery("h", Optional.of(-1), null, null)), "offset must be");
        refused(() -> ResultQueryRules.offset(new ResultQuery("h", Optional.of(1_000_001), null, null)),
                "offset must be");
    }

    @Test
    void fieldsMustBeKeysOfTheStoredRows() {
        ResultQueryRules rules = new ResultQueryRules(Set.of("name"));
        assertThat(rules.field("name")).isEqualTo("name");
        refused(() -> rules.field("Name"), "unknown field 'Name'");
        refused(() -> rules.field(null), "unknown field");
    }

    @Test
    void operatorsFunctionsAndDirectionsComeFromFixedSets() {
        assertThat(ResultQueryRules.op(new ResultQuery.Predicate("a", " is   not  null ", null)))
                .isEqualTo("IS NOT NULL");
        refused(() -> ResultQueryRules.op(new ResultQuery.Predicate("a", null, null)), "every predicate needs");
        assertThat(ResultQueryRules.function(new ResultQuery.Aggregate("sum", Optional.of("cpu"), null)))
                .isEqualTo("SUM");
        assertThat(ResultQueryRules.function(new ResultQuery.Aggregate("count", null, null))).isEqualTo("COUNT");
        refused(() -> ResultQueryRules.function(new ResultQuery.Aggregate("avg", null, null)), "AVG needs a field");
        refused(() -> ResultQueryRules.function(new ResultQuery.Aggregate("median", Optional.of("cpu"), null)),
                "aggregate fn must be one of");
        assertThat(ResultQueryRules.direction(new ResultQuery.Order("a", Optional.of("DESC")))).isEqualTo("DESC");
        assertThat(ResultQueryRules.direction(new ResultQuery.Order("a", null))).isEqualTo("ASC");
        refused(() -> ResultQueryRules.direction(new ResultQuery.Order("a", Optional.of("up"))), "asc or desc");
    }

    @Test
    void outputNamesDefaultFromTheFunctionAndMustBeIdentifiers() {
        assertThat(ResultQueryRules.outputName(new ResultQuery.Aggregate("sum", Optional.of("cpu"), null), "SUM"))
                .isEqualTo("sum_cpu");
        assertThat(ResultQueryRules.outputName(new ResultQuery.Aggregate("count", null, null), "COUNT"))
                .isEqualTo("count");
        refused(() -> ResultQueryRules.outputName(new ResultQuery.Aggregate("count", null, Optional.of("n; DROP")),
                "COUNT"), "must be letters, digits and '_'");
    }

    @Test
    void valuesAreScalarsWithoutNul() {
        assertThat(ResultQueryRules.scalar(J.numberNode(3), "=").asInt()).isEqualTo(3);
        refused(() -> ResultQueryRules.scalar(J.arrayNode(), "="), "= needs a scalar value");
        refused(() -> ResultQueryRules.scalar(J.textNode("a\u0000b"), "="), "NUL");
        refused(() -> ResultQueryRules.inValues(J.textNode("x")), "IN needs an array value");
        refused(() -> ResultQueryRules.inValues(J.arrayNode().add(J.objectNode())), "IN values must be scalars");
        var many = J.arrayNode();
        for (int i = 0; i <= ResultQueryRules.MAX_IN_VALUES; i++) {
            many.add(i);
        }
        refused(() -> ResultQueryRules.inValues(many), "IN takes at most 1000 values");
    }

    @Test
    void aGroupedQueryTakesNoSelectAndSizesAreBounded() {
        assertThat(ResultQueryRules.grouped(query(null, List.of("name"), null, null, null))).isFalse();
        assertThat(ResultQueryRules.grouped(query(null, null, List.of("name"), null, null))).isTrue();
        refused(() -> ResultQueryRules.grouped(query(null, List.of("name"), List.of("name"), null, null)),
                "select cannot be combined");
        refused(() -> ResultQueryRules.grouped(query(null, null, List.of("a", "b", "c", "d", "e"), null, null)),
                "group_by takes at most 4");
    }

    @Test
    void everyCallerStringIsBoundNeverSpliced() {
        String evil = "x'); DROP TABLE results_rows; --";
        ResultQueryCompiler.Compiled c = compile(query(List.of(new ResultQuery.Predicate("name", "=", J.textNode(evil)),
                new ResultQuery.Predicate("cpu", ">=", J.numberNode(5))), List.of("name"), null, null,
                List.of(new ResultQuery.Order("cpu", Optional.of("desc")))));
        assertThat(c.sql()).doesNotContain(evil).doesNotContain("DROP").contains("DESC NULLS LAST");
        assertThat(c.params()).contains("\"" + evil.replace("\"", "\\\"") + "\"", "name", "cpu", HANDLE.id());
        assertThat(c.mode()).isEqualTo(ResultQueryCompiler.Mode.ROWS);
        assertThat(c.sql().chars().filter(ch -> ch == '?').count()).isEqualTo(c.params().size());
    }

    @Test
    void groupedQueriesNameTheirOutputsAndOrderByThem() {
        ResultQueryCompiler.Compiled c = compile(query(null, null, List.of("name"),
                List.of(new ResultQuery.Aggregate("max", Optional.of("cpu"), null)),
                List.of(new ResultQuery.Order("max_cpu", Optional.of("desc")))));
        assertThat(c.mode()).isEqualTo(ResultQueryCompiler.Mode.GROUPED);
        assertThat(c.outputNames()).containsExactly("name", "max_cpu");
        assertThat(c.sql()).contains("ORDER BY 2 DESC NULLS LAST, 1 LIMIT ? OFFSET ?");
        assertThat(c.sql().chars().filter(ch -> ch == '?').count()).isEqualTo(c.params().size());
        refused(() -> compile(query(null, null, List.of("name"), null, List.of(new ResultQuery.Order("cpu", null)))),
                "a grouped query orders by its group fields or aggregate names");
        refused(() -> compile(query(null, null, null, List.of(new ResultQuery.Aggregate("count", null, null),
                new ResultQuery.Aggregate("sum", Optional.of("cpu"), Optional.of("count"))), null)),
                "output name 'count' is used twice");
    }
}
