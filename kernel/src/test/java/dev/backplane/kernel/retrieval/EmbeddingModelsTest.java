package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.model.embedding.EmbeddingModel;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kernel loads each model jar's ONNX file into its own session (one intra-op thread): the vectors must be the
 * ones the jar's own LangChain4j class computes, so that file names and pooling are right for every model, and a
 * change of threading never moves a stored vector.
 */
class EmbeddingModelsTest {

    private static final List<String> TEXTS = List.of("postgres keeps restarting after the deploy",
            "Represent this sentence for searching relevant passages: vault sealed after node maintenance", "x");

    @Test
    void everyModelOnTheClassPathEmbedsAsItsJarsOwnClassDoes() throws Exception {
        List<EmbeddingModels.Model> available = EmbeddingModels.ALL.stream().filter(EmbeddingModels.Model::available)
                .toList();
        assertThat(available).extracting(EmbeddingModels.Model::name).as("the test class path has every model")
                .containsExactlyInAnyOrderElementsOf(EmbeddingModels.ALL.stream().map(EmbeddingModels.Model::name)
                        .toList());
        for (EmbeddingModels.Model model : available) {
            EmbeddingModel ours = model.load();
            assertThat(model.load()).as("loaded once per JVM").isSameAs(ours);
            EmbeddingModel theirs = (EmbeddingModel) Class.forName(model.className()).getConstructor().newInstance();
            for (String text : TEXTS) {
                float[] a = ours.embed(text).content().vector();
                float[] b = theirs.embed(text).content().vector();
                assertThat(a).as(model.name() + ": " + text).hasSize(384);
                for (int i = 0; i < a.length; i++) {
                    assertThat(a[i]).as(model.name() + "[" + i + "]").isCloseTo(b[i],
                            org.assertj.core.data.Offset.offset(1e-4f));
                }
            }
        }
    }

    @Test
    void aModelWhoseJarIsMissingIsNamedInTheError() {
        EmbeddingModels.Model missing = new EmbeddingModels.Model("no-such-model", "dev.example.NoSuchModel", "", "",
                "none", 0.5, "no-such-model", dev.langchain4j.model.embedding.onnx.PoolingMode.MEAN);
        assertThat(missing.available()).isFalse();
        assertThatThrownBy(missing::load).hasMessageContaining("no-such-model is not on the class path");
    }
}
