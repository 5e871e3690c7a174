package dev.backplane.plugin.api;

/**
 * One child request of a {@link OperationShape.Composite composite} operation, as its audit row: the
 * kernel wrote the row ({@code started}, linked to the composite call's row by {@code parent_audit_id})
 * when {@link ConnectorContext#beginStep} returned, and completes it with the outcome the plugin reports
 * here. A composite's children are thereby audited one by one, under their own op ids, though only the
 * composite passed the policy gate. Use it in try-with-resources: a step closed without an outcome (the
 * plugin threw between sending and reporting) is recorded as an error, never left {@code started}.
 *
 * @since 1.6
 */
public interface CompositeStep extends AutoCloseable {

    /** The child request succeeded; the row becomes {@code ok}. */
    void succeeded();

    /** The child request failed with {@code code}; the row becomes {@code error} with that code. */
    void failed(ErrorCode code);

    /** Records {@code connector_error} unless an outcome was reported; must not throw. */
    @Override
    void close();
}
