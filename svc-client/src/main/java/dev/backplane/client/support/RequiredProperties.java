package dev.backplane.client.support;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.util.List;

/**
 * Makes a missing required property a deserialization error. The generated models mark the document's
 * {@code required} properties with {@code @JsonProperty(required = true)}, but Jackson enforces that only for
 * creator parameters, and the models are set through setters: without this module an answer that lacks a
 * required field would quietly become a model with {@code null} in it. Required means present — a required
 * property the document also marks nullable may be present as {@code null}.
 *
 * <p>Unknown properties are a separate choice ({@link SvcClients}): tolerated by default, so a client built from
 * an older document keeps reading answers that gained fields; refused in the kernel's own tests.
 */
public final class RequiredProperties extends SimpleModule {

    public RequiredProperties() {
        super("svc-required-properties");
        setDeserializerModifier(new BeanDeserializerModifier() {
            @Override
            public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription bean,
                    JsonDeserializer<?> deserializer) {
                List<String> required = bean.findProperties().stream().filter(BeanPropertyDefinition::isRequired)
                        .map(BeanPropertyDefinition::getName).toList();
                return required.isEmpty() ? deserializer : new Checking(deserializer, required);
            }
        });
    }

    private static final class Checking extends DelegatingDeserializer {
        private final List<String> required;

        Checking(JsonDeserializer<?> delegate, List<String> required) {
            super(delegate);
            this.required = required;
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
            return new Checking(delegate, required);
        }

        @Override
        public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode tree = ctxt.readTree(p);
            if (tree.isObject()) {
                for (String name : required) {
                    if (!tree.has(name)) {
                        return ctxt.reportInputMismatch(handledType(), "%s: required property '%s' is missing",
                                handledType().getSimpleName(), name);
                    }
                }
            }
            try (JsonParser again = tree.traverse(p.getCodec())) {
                again.nextToken();
                return _delegatee.deserialize(again, ctxt);
            }
        }
    }
}
