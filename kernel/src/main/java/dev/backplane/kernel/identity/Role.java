package dev.backplane.kernel.identity;

import java.util.Locale;
import java.util.Optional;

/** Tenant roles from the token's {@code tenant_role} claim, weakest first. */
public enum Role {
    READ_ONLY,
    OPERATOR,
    TENANT_ADMIN;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean includes(Role other) {
        return ordinal() >= other.ordinal();
    }

    public static Optional<Role> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        for (Role r : values()) {
            if (r.wireName().equals(text.trim())) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }
}
