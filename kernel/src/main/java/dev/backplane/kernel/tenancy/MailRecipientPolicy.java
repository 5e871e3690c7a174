package dev.backplane.kernel.tenancy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A tenant's mail-recipient policy: whom notification mail of the tenant (dashboard notifications) may be
 * sent to.
 *
 * <p>Three states. <b>Unset</b> (no policy stored, {@code allowlist} empty): nobody has decided, and mail
 * is <em>denied</em> — the backplane mails incident data only to recipients a tenant_admin named, so a
 * fresh tenant cannot be made to mail anyone by whoever may edit a dashboard. An <b>empty allowlist</b>
 * (set with {@code ""}): deny all mail, decided. Otherwise a recipient is permitted when it matches an
 * entry: an address {@code local@domain} matches that address; a domain {@code example.com} matches
 * addresses at exactly that domain; {@code .example.com} matches addresses at any subdomain of it (not
 * the domain itself: list both for both). Matching ignores case.
 *
 * @param allowlist the normalised entries, or empty while unset
 * @param updatedAt when it was last set
 * @param updatedBy who set it
 */
public record MailRecipientPolicy(Optional<List<String>> allowlist, Optional<Instant> updatedAt,
                                  Optional<String> updatedBy) {

    /** Most entries an allowlist may hold (after deduplication). */
    public static final int MAX_ENTRIES = 200;
    /** Longest entry: an address of RFC 5321's 254 octets. */
    public static final int MAX_ENTRY_LENGTH = 254;
    /** Longest allowlist text accepted before it is split. */
    public static final int MAX_TEXT_LENGTH = 64 * 1024;

    public static final MailRecipientPolicy UNSET =
            new MailRecipientPolicy(Optional.empty(), Optional.empty(), Optional.empty());

    private static final Pattern LOCAL = Pattern.compile("[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*");
    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

    public MailRecipientPolicy {
        allowlist = allowlist == null ? Optional.empty() : allowlist.map(List::copyOf);
        updatedAt = updatedAt == null ? Optional.empty() : updatedAt;
        updatedBy = updatedBy == null ? Optional.empty() : updatedBy;
    }

    /**
     * The policy as REST shows it.
     *
     * @param mode {@code unset}, {@code deny_all} or {@code allowlist}
     * @param allowlist the entries comma-separated as SPEC writes it ({@code ""} denies all; null while unset)
     * @param entries the same entries as a list
     */
    public record View(String mode, String allowlist, List<String> entries, Optional<Instant> updatedAt,
                       Optional<String> updatedBy) {
    }

    public View view() {
        return new View(mode(), allowlist.map(l -> String.join(",", l)).orElse(null), allowlist.orElse(List.of()),
                updatedAt, updatedBy);
    }

    /** {@code unset}, {@code deny_all} (an empty allowlist) or {@code allowlist}. */
    public String mode() {
        return allowlist.map(l -> l.isEmpty() ? "deny_all" : "allowlist").orElse("unset");
    }

    /**
     * Whether mail may be sent to {@code address}. An address that is not a plain {@code local@domain}
     * (display names, several addresses, garbage) is never permitted.
     */
    public boolean permits(String address) {
        if (allowlist.isEmpty() || address == null) {
            return false;
        }
        String a = address.strip().toLowerCase(Locale.ROOT);
        if (entryProblem(a).isPresent() || !a.contains("@")) {
            return false;
        }
        String domain = a.substring(a.lastIndexOf('@') + 1);
        for (String entry : allowlist.get()) {
            boolean match = entry.contains("@") ? entry.equals(a)
                    : entry.startsWith(".") ? domain.endsWith(entry) : domain.equals(entry);
            if (match) {
                return true;
            }
        }
        return false;
    }

    /**
     * Parses the comma-separated allowlist as sent: entries are trimmed and lower-cased, blank ones (a
     * trailing comma) skipped, duplicates dropped in order; {@code ""} is the empty (deny-all) list.
     * Throws {@code 422 invalid_policy} naming the first offending entry.
     */
    public static List<String> parse(String text) {
        if (text == null) {
            throw TenancyErrors.INVALID_POLICY.error("allowlist is required: comma-separated addresses or domains, "
                    + "\"\" to deny all mail (DELETE the policy to unset it)", Map.of("field", "allowlist"));
        }
        if (text.length() > MAX_TEXT_LENGTH) {
            throw TenancyErrors.INVALID_POLICY.error("allowlist is longer than " + MAX_TEXT_LENGTH + " characters",
                    Map.of("field", "allowlist"));
        }
        Set<String> entries = new LinkedHashSet<>();
        for (String raw : text.split(",", -1)) {
            String entry = raw.strip().toLowerCase(Locale.ROOT);
            if (entry.isEmpty()) {
                continue;
            }
            Optional<String> problem = entryProblem(entry);
            if (problem.isPresent()) {
                String shown = entry.length() > 80 ? entry.substring(0, 80) + "…" : entry;
                throw TenancyErrors.INVALID_POLICY.error("allowlist entry '" + shown + "' " + problem.get(),
                        Map.of("field", "allowlist", "entry", shown));
            }
            entries.add(entry);
        }
        if (entries.size() > MAX_ENTRIES) {
            throw TenancyErrors.INVALID_POLICY.error("allowlist has " + entries.size() + " entries; at most "
                    + MAX_ENTRIES, Map.of("field", "allowlist"));
        }
        return new ArrayList<>(entries);
    }

    /** What is wrong with a lower-cased entry, if anything. */
    static Optional<String> entryProblem(String entry) {
        if (entry.length() > MAX_ENTRY_LENGTH) {
            return Optional.of("is longer than " + MAX_ENTRY_LENGTH + " characters");
        }
        int at = entry.indexOf('@');
        if (at >= 0) {
            if (entry.indexOf('@', at + 1) >= 0) {
                return Optional.of("has more than one '@'");
            }
            String local = entry.substring(0, at);
            if (local.isEmpty() || local.length() > 64 || !LOCAL.matcher(local).matches()) {
                return Optional.of("is not an address local@domain (the part before '@' is not a plain mailbox name)");
            }
            return domainProblem(entry.substring(at + 1)).map(p -> "is not an address local@domain (" + p + ")");
        }
        String domain = entry.startsWith(".") ? entry.substring(1) : entry;
        return domainProblem(domain).map(p -> "is neither an address local@domain nor a domain such as example.com "
                + "or .example.com (" + p + ")");
    }

    private static Optional<String> domainProblem(String domain) {
        if (domain.isEmpty() || domain.length() > 253) {
            return Optional.of("the domain is empty or too long");
        }
        String[] labels = domain.split("\\.", -1);
        if (labels.length < 2) {
            return Optional.of("the domain needs a dot, as in example.com");
        }
        for (String label : labels) {
            if (!LABEL.matcher(label).matches()) {
                return Optional.of("'" + label + "' is not a domain label (ASCII letters, digits and inner hyphens; "
                        + "internationalised names as xn--)");
            }
        }
        if (labels[labels.length - 1].chars().allMatch(Character::isDigit)) {
            return Optional.of("an IP address is not a mail domain");
        }
        return Optional.empty();
    }
}
