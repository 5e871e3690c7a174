package dev.backplane.ingest;

import static java.util.Objects.requireNonNull;

import dev.backplane.ingest.SpecIngestException.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides whether a spec's {@code info.version} fits the connector's version label.
 *
 * <p>Without declarations the majors must be equal. Each declaration is split on commas: parts that start
 * with a PEP 440 operator form one specifier set (all must hold), the other parts are globs (any one
 * matching suffices); a declaration accepts when its globs or its specifier set match.
 */
final class VersionCompatibility {

    static final String FLAG = "--spec-info-versions-compatible";

    private static final Pattern MAJOR = Pattern.compile("^[vV]?(\\d+)");
    private static final Pattern RELEASE = Pattern.compile("^[vV]?(\\d+(?:\\.\\d+)*)");
    private static final Pattern SPECIFIER = Pattern.compile("^(===|==|!=|>=|<=|~=|>|<)\\s*(\\S.*)$");

    private final List<Declaration> declarations;

    VersionCompatibility(List<String> declared) {
        List<Declaration> parsed = new ArrayList<>();
        for (String element : requireNonNull(declared, "declared is null")) {
            Declaration declaration = Declaration.parse(element);
            if (!declaration.isEmpty()) {
                parsed.add(declaration);
            }
        }
        this.declarations = List.copyOf(parsed);
    }

    /** Throws {@link Reason#SPEC_VERSION_MISMATCH} unless {@code infoVersion} fits {@code label}. */
    void check(String specName, String infoVersion, String label) {
        if (accepts(infoVersion, label)) {
            return;
        }
        OptionalInt specMajor = major(infoVersion);
        OptionalInt labelMajor = major(label);
        String what = specMajor.isPresent()
                ? "has info.version '%s' (major %d)".formatted(infoVersion, specMajor.getAsInt())
                : "has info.version '%s' (no numeric major)".formatted(infoVersion);
        String labelText = labelMajor.isPresent()
                ? "the label %s has major %d".formatted(label, labelMajor.getAsInt())
                : "the label %s has no numeric major".formatted(label);
        // a placeholder (VERSION, "version not set") names no version: no glob of it means anything, '*' says so
        String suggestion = specMajor.isPresent() ? specMajor.getAsInt() + ".x"
                : "'*' (its info.version names no version to check; '*' accepts any)";
        String declared = declarations.isEmpty() ? ""
                : " and none of the declared compatible versions " + declarations.stream().map(Declaration::text).toList()
                        + " matches";
        String message = "%s %s but %s%s; if this spec serves that product version, declare it: %s %s"
                .formatted(specName, what, labelText, declared, FLAG, suggestion);
        throw new SpecIngestException(Reason.SPEC_VERSION_MISMATCH, message);
    }

    boolean accepts(String infoVersion, String label) {
        OptionalInt specMajor = major(infoVersion);
        OptionalInt labelMajor = major(label);
        if (specMajor.isPresent() && labelMajor.isPresent() && specMajor.getAsInt() == labelMajor.getAsInt()) {
            return true;
        }
        return declarations.stream().anyMatch(declaration -> declaration.accepts(infoVersion));
    }

    /** The leading integer, after an optional {@code v}; empty when the text does not start with one. */
    static OptionalInt major(String version) {
        Matcher matcher = MAJOR.matcher(version.strip());
        if (!matcher.find()) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(matcher.group(1)));
        }
        catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** One declaration: globs (any) or a specifier set (all). */
    private record Declaration(String text, List<Pattern> globs, List<Specifier> specifiers) {

        static Declaration parse(String text) {
            List<Pattern> globs = new ArrayList<>();
            List<Specifier> specifiers = new ArrayList<>();
            for (String part : text.split(",")) {
                String trimmed = part.strip();
                if (trimmed.isEmpty()) {
                    continue;
                }
                Matcher matcher = SPECIFIER.matcher(trimmed);
                if (matcher.matches()) {
                    specifiers.add(new Specifier(matcher.group(1), matcher.group(2).strip()));
                }
                else {
                    globs.add(glob(trimmed));
                }
            }
            return new Declaration(text.strip(), List.copyOf(globs), List.copyOf(specifiers));
        }

        boolean isEmpty() {
            return globs.isEmpty() && specifiers.isEmpty();
        }

        boolean accepts(String version) {
            String candidate = stripV(version.strip());
            if (globs.stream().anyMatch(glob -> glob.matcher(candidate).matches())) {
                return true;
            }
            return !specifiers.isEmpty() && specifiers.stream().allMatch(specifier -> specifier.accepts(version.strip()));
        }

        /** {@code *} any text, {@code ?} one character, a whole {@code x} segment any segment; a trailing
         * {@code .x} or {@code .*} also matches nothing ({@code 2.x} accepts {@code 2}). */
        private static Pattern glob(String text) {
            String[] segments = stripV(text).split("\\.", -1);
            StringBuilder regex = new StringBuilder();
            for (int i = 0; i < segments.length; i++) {
                String segment = segments[i];
                boolean last = i == segments.length - 1;
                boolean wild = segment.equalsIgnoreCase("x") || segment.equals("*");
                if (last && wild && i > 0) {
                    regex.append("(\\..*)?");
                    continue;
                }
                if (i > 0) {
                    regex.append("\\.");
                }
                if (segment.equalsIgnoreCase("x")) {
                    regex.append(last ? ".*" : "[^.]*");
                    continue;
                }
                for (char c : segment.toCharArray()) {
                    switch (c) {
                        case '*' -> regex.append(".*");
                        case '?' -> regex.append('.');
                        default -> regex.append(Pattern.quote(String.valueOf(c)));
                    }
                }
            }
            return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE);
        }

        private static String stripV(String text) {
            return text.length() > 1 && (text.charAt(0) == 'v' || text.charAt(0) == 'V')
                    && Character.isDigit(text.charAt(1)) ? text.substring(1) : text;
        }
    }

    /** One PEP 440 clause. Only release segments are compared; pre/post/dev suffixes are ignored. */
    private record Specifier(String operator, String operand) {

        boolean accepts(String version) {
            if (operator.equals("===")) {
                return version.equals(operand);
            }
            List<Integer> candidate = release(version);
            if (candidate == null) {
                return false;
            }
            boolean wildcard = operand.endsWith(".*");
            List<Integer> target = release(wildcard ? operand.substring(0, operand.length() - 2) : operand);
            if (target == null) {
                return false;
            }
            return switch (operator) {
                case "==" -> wildcard ? prefixMatches(candidate, target) : compare(candidate, target) == 0;
                case "!=" -> wildcard ? !prefixMatches(candidate, target) : compare(candidate, target) != 0;
                case ">=" -> compare(candidate, target) >= 0;
                case "<=" -> compare(candidate, target) <= 0;
                case ">" -> compare(candidate, target) > 0;
                case "<" -> compare(candidate, target) < 0;
                case "~=" -> target.size() >= 2 && compare(candidate, target) >= 0
                        && prefixMatches(candidate, target.subList(0, target.size() - 1));
                default -> false;
            };
        }

        private static List<Integer> release(String text) {
            Matcher matcher = RELEASE.matcher(text.strip().toLowerCase(Locale.ROOT));
            if (!matcher.find()) {
                return null;
            }
            List<Integer> parts = new ArrayList<>();
            for (String part : matcher.group(1).split("\\.")) {
                try {
                    parts.add(Integer.parseInt(part));
                }
                catch (NumberFormatException e) {
                    return null;
                }
            }
            return parts;
        }

        private static boolean prefixMatches(List<Integer> candidate, List<Integer> prefix) {
            for (int i = 0; i < prefix.size(); i++) {
                int value = i < candidate.size() ? candidate.get(i) : 0;
                if (value != prefix.get(i)) {
                    return false;
                }
            }
            return true;
        }

        private static int compare(List<Integer> left, List<Integer> right) {
            for (int i = 0; i < Math.max(left.size(), right.size()); i++) {
                int a = i < left.size() ? left.get(i) : 0;
                int b = i < right.size() ? right.get(i) : 0;
                if (a != b) {
                    return Integer.compare(a, b);
                }
            }
            return 0;
        }
    }
}
