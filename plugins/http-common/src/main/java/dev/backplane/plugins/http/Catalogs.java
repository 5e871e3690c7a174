package dev.backplane.plugins.http;

import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;

/** What a typed HTTP plugin's hand-written catalog is built from: params schemas and GET reads. */
public final class Catalogs {

    private Catalogs() {
    }

    /** A closed JSON Schema object: {@code required} and {@code properties} as JSON fragments. */
    public static String object(String required, String properties) {
        return "{\"type\": \"object\", \"additionalProperties\": false" + (required.isEmpty() ? ""
                : ", \"required\": [" + required + "]") + ", \"properties\": {" + properties + "}}";
    }

    /** A safe, approval-free read: {@code GET path}. */
    public static OperationDescriptor read(String opId, String group, String description, String schema, String path,
                                           ResultKind kind) {
        return new OperationDescriptor(opId, group, description, SafetyLevel.SAFE, false, OpClass.READ, schema,
                new OperationShape.Http("GET", path), kind);
    }
}
