package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What an engine may serve for an ingested connector: the ingested catalog plus composites of its own. */
class ConnectorRegistryTest {

    private static final OperationGroup APPS = new OperationGroup("apps", "Applications", "");
    private static final OperationDescriptor GET = op("acme.apps.get", new OperationShape.Http("GET", "/apps/{name}"));

    private static OperationDescriptor op(String id, OperationShape shape) {
        return new OperationDescriptor(id, "apps", id, SafetyLevel.SAFE, false, OpClass.READ, "{\"type\": \"object\"}",
                shape, ResultKind.OBJECT);
    }

    private static Catalog catalog(OperationDescriptor... ops) {
        return new Catalog(List.of(APPS), List.of(ops));
    }

    @Test
    void anEngineMayAddCompositesButNotDropChangeOrAddRequests() {
        OperationDescriptor composite = op("acme.apps.sync_and_wait", new OperationShape.Composite());
        assertThat(IngestedBuilds.servedProblem(catalog(GET), catalog(GET))).isEmpty();
        assertThat(IngestedBuilds.servedProblem(catalog(GET), catalog(GET, composite))).isEmpty();
        assertThat(IngestedBuilds.servedProblem(catalog(GET), catalog(composite))).get().asString()
                .contains("drops or changes the ingested operation acme.apps.get");
        assertThat(IngestedBuilds.servedProblem(catalog(GET), catalog(op("acme.apps.get",
                new OperationShape.Http("DELETE", "/apps/{name}"))))).isPresent();
        assertThat(IngestedBuilds.servedProblem(catalog(GET), catalog(GET, op("acme.apps.extra",
                new OperationShape.Http("POST", "/apps"))))).get().asString().contains("not composite");
    }
}
