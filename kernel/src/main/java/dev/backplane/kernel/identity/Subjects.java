package dev.backplane.kernel.identity;

import java.util.regex.Pattern;

/**
 * The subjects the backplane itself acts under, and the rule that keeps them apart from the subjects
 * an identity provider issues.
 *
 * <p>A token's {@code sub} is the provider's (a Keycloak user or service account id). Work the backplane
 * runs on its own gets a subject in the reserved {@code svc-<kind>:} namespace instead: an agent run acts
 * as {@code svc-agent:<principal name>}, a sensor as {@code svc-sensor:<id>}, a trigger's or dashboard's
 * runs are started by {@code svc-trigger:<id>} / {@code svc-dashboard:<id>}, topology discovery as
 * {@code svc-system:topology-discovery}. {@link #reserved} subjects are refused on every token, so
 * nothing a person, a service or a tenant_admin names can make a run act as, read the private data of,
 * or be audited as a human (security review 3, S1).
 */
public final class Subjects {

    /** The namespace of the backplane's own subjects: {@code svc-} and a lower-case word, then a colon. */
    private static final Pattern RESERVED = Pattern.compile("svc-[a-z]+:.*", Pattern.DOTALL);

    private static final String AGENT_RUN = "svc-agent:";

    private Subjects() {
    }

    /** The subject an agent run acts under: its definition's agent principal, in the reserved namespace. */
    public static String agentRun(String principalName) {
        return AGENT_RUN + principalName;
    }

    /** Whether {@code sub} is in the backplane's own namespace (no token may carry it). */
    public static boolean reserved(String sub) {
        return RESERVED.matcher(sub).matches();
    }
}
