package dev.backplane.kernel.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Security review D4: the compiled-schema cache never hands one connector's schema to another. */
class ParamsValidatorTest {

    private static final String NAME_REQUIRED = "{\"type\":\"object\",\"required\":[\"name\"]}";
    private static final String ANYTHING = "{\"type\":\"object\"}";

    @Test
    void theSameOperationIdWithAnotherSchemaIsValidatedAgainstItsOwn() {
        ParamsValidator v = new ParamsValidator();
        // tenant A's connector acme-1.x, then tenant B's connector of the same id (or a re-ingest) with another schema
        assertThat(v.validate("acme-1.x/acme.thing.create", NAME_REQUIRED, Map.of())).isNotEmpty();
        assertThat(v.validate("acme-1.x/acme.thing.create", ANYTHING, Map.of())).as("not A's cached schema").isEmpty();
        assertThat(v.validate("acme-1.x/acme.thing.create", NAME_REQUIRED, Map.of("name", "x"))).isEmpty();
        assertThat(v.validate("acme-1.x/acme.thing.create", NAME_REQUIRED, Map.of())).isNotEmpty();
    }
}
