package dev.backplane.kernel.broadcast;

import java.util.Optional;

/**
 * What a reader of the feed wants to see. The stream filters on {@code op_class}, {@code principal}
 * and {@code target}; {@code broadcast recent} adds {@code work_ref}, {@code actor_sub} and
 * {@code active_only} (open announcement claims). Every given field must match exactly.
 */
public record BroadcastFilter(Optional<String> opClass, Optional<String> principal, Optional<String> target,
                              Optional<String> workRef, Optional<String> actorSub, boolean activeOnly) {

    public static final BroadcastFilter ALL = new BroadcastFilter(Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty(), false);

    /** A stream's filter. */
    public static BroadcastFilter stream(Optional<String> opClass, Optional<String> principal, Optional<String> target) {
        return new BroadcastFilter(opClass, principal, target, Optional.empty(), Optional.empty(), false);
    }

    boolean matches(BroadcastEvent e) {
        return opClass.map(v -> e.opClass().map(v::equals).orElse(false)).orElse(true)
                && principal.map(v -> v.equals(e.principal()) || e.principals().contains(v)).orElse(true)
                && target.map(e::names).orElse(true)
                && workRef.map(v -> e.workRef().map(v::equals).orElse(false)).orElse(true)
                && actorSub.map(v -> v.equals(e.actorSub())).orElse(true)
                && (!activeOnly || e.active().orElse(false));
    }
}
