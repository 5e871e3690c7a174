package dev.backplane.client.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.backplane.client.ApiClient;
import dev.backplane.client.ApiException;
import dev.backplane.client.model.ErrorEnvelope;
import dev.backplane.client.model.PostApprovalsByIdApprove200Response;
import dev.backplane.client.model.TargetPage;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the generated models accept: required properties present, unknown ones as the client was built. */
class RequiredPropertiesTest {

    private static final String ENVELOPE = """
            {"error": "target_not_found", "message": "no target nope", "extras": {"error_code": "target_not_found"}}""";

    private final ObjectMapper lenient = SvcClients.create(URI.create("http://127.0.0.1:1"), "t").getObjectMapper();
    private final ObjectMapper strict = SvcClients.create(URI.create("http://127.0.0.1:1"), () -> "t", true)
            .getObjectMapper();

    @Test
    void aCompleteAnswerReads() throws Exception {
        ErrorEnvelope e = strict.readValue(ENVELOPE, ErrorEnvelope.class);
        assertThat(e.getError()).isEqualTo("target_not_found");
        assertThat(e.getExtras().getErrorCode()).isEqualTo("target_not_found");
    }

    @Test
    void aMissingRequiredPropertyIsAnErrorEvenWhereUnknownOnesAreTolerated() throws Exception {
        String noExtras = "{\"error\": \"target_not_found\", \"message\": \"no target nope\"}";
        assertThatThrownBy(() -> lenient.readValue(noExtras, ErrorEnvelope.class))
                .isInstanceOf(MismatchedInputException.class).hasMessageContaining("required property 'extras'");
        // nested: an approval's released call whose result envelope lacks its op_id
        String approved = "{\"approval\": {\"status\": \"approved\"}, \"result\": {\"status\": \"ok\", \"result\": [], "
                + "\"error\": null, \"duration_ms\": 3, \"extras\": {}}}";
        assertThatThrownBy(() -> lenient.readValue(approved, PostApprovalsByIdApprove200Response.class))
                .hasMessageContaining("required property 'op_id'");
        // without the module Jackson would take it, which is the point of the module
        assertThat(ApiClient.createDefaultObjectMapper().readValue(noExtras, ErrorEnvelope.class).getExtras()).isNull();
    }

    @Test
    void aRequiredNullablePropertyMayBeNull() throws Exception {
        String page = "{\"targets\": [], \"next_cursor\": null}";
        assertThat(strict.readValue(page, TargetPage.class).getNextCursor()).isNull();
    }

    @Test
    void unknownPropertiesAreToleratedByDefaultAndRefusedWhenAsked() throws Exception {
        String extra = ENVELOPE.replace("{\"error\"", "{\"later_field\": 1, \"error\"");
        assertThat(lenient.readValue(extra, ErrorEnvelope.class).getError()).isEqualTo("target_not_found");
        assertThatThrownBy(() -> strict.readValue(extra, ErrorEnvelope.class))
                .isInstanceOf(UnrecognizedPropertyException.class).hasMessageContaining("later_field");
        // extras is open (additionalProperties: true) in the document, so strictness does not reach into it
        String open = ENVELOPE.replace("\"error_code\": \"target_not_found\"",
                "\"error_code\": \"target_not_found\", \"valid_products\": [\"demo\"]");
        assertThat(strict.readValue(open, ErrorEnvelope.class).getExtras().getAdditionalProperty("valid_products"))
                .isEqualTo(List.of("demo"));
    }

    @Test
    void theErrorCodeOfAnApiExceptionIsTheEnvelopes() {
        ApiException e = new ApiException(404, "getTargetsByName call failed", null, ENVELOPE);
        assertThat(SvcClients.errorCode(e)).isEqualTo("target_not_found");
        assertThat(SvcClients.errorCode(new ApiException(new java.io.IOException("refused")))).isNull();
        assertThat(SvcClients.errorCode(new ApiException(502, "bad gateway", null, "<html>"))).isNull();
    }

    @Test
    void docsCollectionSelectorIsTheStringOrTheListOnTheWire() throws Exception {
        assertThat(lenient.writeValueAsString(DocsCollectionSelector.of("runbooks"))).isEqualTo("\"runbooks\"");
        assertThat(lenient.writeValueAsString(DocsCollectionSelector.of(List.of("a", "b")))).isEqualTo("[\"a\",\"b\"]");
        assertThat(lenient.readValue("[\"a\"]", DocsCollectionSelector.class)).isEqualTo(DocsCollectionSelector.of(List.of("a")));
        assertThat(lenient.readValue("\"all\"", DocsCollectionSelector.class)).isEqualTo(DocsCollectionSelector.all());
        assertThat(DocsCollectionSelector.of(List.of("a b", "c")).toUrlQueryString("collection"))
                .isEqualTo("collection%5B0%5D=a%20b&collection%5B1%5D=c");
    }
}
