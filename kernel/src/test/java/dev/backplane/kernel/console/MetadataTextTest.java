package dev.backplane.kernel.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetadataTextTest {

    @Test
    void parsesAndFormatsKeyValuePairs() {
        Map<String, Object> m = MetadataText.parse(" kind=runbook, team = edge ,,", "metadata");
        assertThat(m).containsExactly(Map.entry("kind", "runbook"), Map.entry("team", "edge"));
        assertThat(MetadataText.format(m)).isEqualTo("kind=runbook,team=edge");
        assertThat(MetadataText.parse("", "metadata")).isEmpty();
    }

    @Test
    void aPairWithoutKeyIsRefusedWithTheFieldNamed() {
        assertThatThrownBy(() -> MetadataText.parse("kind", "metadata")).isInstanceOf(DomainException.class)
                .satisfies(e -> assertThat(((DomainException) e).code()).isEqualTo("invalid_query"))
                .satisfies(e -> assertThat(((DomainException) e).extras()).containsEntry("field", "metadata"));
        assertThatThrownBy(() -> MetadataText.parse("=x", "metadata")).isInstanceOf(DomainException.class);
    }
}
