package dev.backplane.kernel.audit;

import dev.backplane.plugin.api.OpClass;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The class of an audit row ({@code op_class}): an operation's {@link OpClass}, or a read of the audit log itself
 * ({@link #AUDIT_QUERY}), which no connector operation can be.
 */
public enum AuditClass {
    READ,
    WRITE,
    CREDENTIAL_READ,
    AUDIT_QUERY,
    OTHER;

    /** Every class's wire name, in declaration order (the audit query's {@code op_class} filter accepts these). */
    public static final List<String> WIRE_NAMES = Arrays.stream(values()).map(AuditClass::wireName).toList();

    /** The lower-case spelling stored on the row and used on every surface. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The audit class of a connector operation of class {@code opClass}. */
    public static AuditClass of(OpClass opClass) {
        return switch (opClass) {
            case READ -> READ;
            case WRITE -> WRITE;
            case CREDENTIAL_READ -> CREDENTIAL_READ;
            case OTHER -> OTHER;
        };
    }
}
