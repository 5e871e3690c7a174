package dev.backplane.cli.families;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The names people type for a family's operations: {@code docker.container.container_list} is
 * {@code svc docker container list}, {@code argocd.applicationservice.application_service_sync} is
 * {@code svc argocd application sync}. A pure function of the family's op ids (same catalog, same names on every
 * machine); the op ids themselves never change, as grants, audit rows, approvals and MCP tools name them.
 *
 * <ul>
 *   <li>noun: the op id's group key split into the words its own verbs use ({@code applicationservice} →
 *       application service), a generic last word dropped ({@code service}, {@code api}), kebab-case;</li>
 *   <li>verb: the rest of the op id with the noun's words taken out (singular or plural) and a code generator's
 *       {@code using_post_1} tail dropped, a bare HTTP method word turned into what it does ({@code post} →
 *       {@code create}, {@code put} → {@code update}), kebab-case; an empty result keeps the original;</li>
 *   <li>collisions (inside one noun, among a family's nouns, with any op's old name or a built-in word): the
 *       colliding ones take their next longer form — fewer words removed, then the old name — never a
 *       random suffix;</li>
 *   <li>the old names (the group key, the op-id verb and its kebab-case form) stay as aliases.</li>
 * </ul>
 */
final class VerbNames {

    /** Words a group key ends with that say nothing about what it holds (Argo CD's {@code ...Service} tags). */
    private static final Set<String> GENERIC = Set.of("service", "services", "api", "apis", "controller");
    /** An op-id verb that is only an HTTP method says what it does instead. */
    private static final Map<String, String> METHOD_WORDS = Map.of("post", "create", "put", "update");
    private static final Set<String> HTTP_METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");
    private static final Pattern CAMEL = Pattern.compile("([a-z0-9])([A-Z])");
    private static final Pattern ACRONYM = Pattern.compile("([A-Z]+)([A-Z][a-z])");
    private static final Pattern NON_WORD = Pattern.compile("[^a-z0-9]+");
    /** Names a family keeps for itself. */
    static final Set<String> FAMILY_WORDS = Set.of("operation", "help");

    /** The typeable names of one operation; {@code noun} is null for a top-level verb ({@code svc k8s about}). */
    record Name(String opId, String noun, List<String> nounAliases, String verb, List<String> verbAliases) {
    }

    private final Map<String, Name> byOpId;

    private VerbNames(Map<String, Name> byOpId) {
        this.byOpId = byOpId;
    }

    /** The names of one family's operations ({@code <prefix>.<noun>.<verb>} or {@code <prefix>.<verb>}). */
    static VerbNames of(Collection<String> opIds) {
        // raw noun (the op id's group key, or null for top-level verbs) -> raw verb -> op id
        Map<String, Map<String, String>> raw = new TreeMap<>();
        Map<String, String> topLevel = new TreeMap<>();
        for (String opId : new TreeSet<>(opIds)) {
            String[] parts = opId.split("\\.");
            if (parts.length < 2) {
                continue;
            }
            if (parts.length == 2) {
                topLevel.putIfAbsent(parts[1], opId);
            } else {
                String verb = String.join("-", List.of(parts).subList(2, parts.length));
                raw.computeIfAbsent(parts[1], k -> new TreeMap<>()).putIfAbsent(verb, opId);
            }
        }
        // the family's first words: nouns and top-level verbs share one namespace
        Map<String, List<String>> firstForms = new TreeMap<>();
        Map<String, Set<String>> firstOld = new TreeMap<>();
        Map<String, Map<String, List<String>>> verbForms = new TreeMap<>();
        for (var noun : raw.entrySet()) {
            Set<String> vocabulary = new HashSet<>(GENERIC);
            noun.getValue().keySet().forEach(v -> words(v).forEach(w -> {
                vocabulary.add(w);
                vocabulary.add(stem(w));
            }));
            List<String> full = segment(noun.getKey(), vocabulary);
            List<String> shortWords = new ArrayList<>(full);
            while (shortWords.size() > 1 && GENERIC.contains(shortWords.getLast())) {
                shortWords.removeLast();
            }
            String key = "n:" + noun.getKey();
            firstForms.put(key, distinct(kebab(shortWords), kebab(full), kebab(words(noun.getKey())), noun.getKey()));
            firstOld.put(key, oldNames(noun.getKey()));
            Map<String, List<String>> verbs = new TreeMap<>();
            for (String verb : noun.getValue().keySet()) {
                verbs.put(verb, forms(verb, full, shortWords));
            }
            verbForms.put(noun.getKey(), verbs);
        }
        topLevel.keySet().forEach(v -> {
            firstForms.put("v:" + v, distinct(kebab(words(v)), v));
            firstOld.put("v:" + v, oldNames(v));
        });
        Map<String, String> firstNames = choose(firstForms, firstOld, FAMILY_WORDS);
        Map<String, List<String>> firstAliases = aliases(firstNames, firstOld, FAMILY_WORDS);

        Map<String, Name> out = new LinkedHashMap<>();
        for (var noun : raw.entrySet()) {
            String key = "n:" + noun.getKey();
            Map<String, Set<String>> old = new TreeMap<>();
            noun.getValue().keySet().forEach(v -> old.put(v, oldNames(v)));
            Map<String, String> verbNames = choose(verbForms.get(noun.getKey()), old, Set.of("help"));
            Map<String, List<String>> verbAliases = aliases(verbNames, old, Set.of("help"));
            for (var verb : noun.getValue().entrySet()) {
                out.put(verb.getValue(), new Name(verb.getValue(), firstNames.get(key), firstAliases.get(key),
                        verbNames.get(verb.getKey()), verbAliases.get(verb.getKey())));
            }
        }
        for (var verb : topLevel.entrySet()) {
            String key = "v:" + verb.getKey();
            out.put(verb.getValue(), new Name(verb.getValue(), null, List.of(), firstNames.get(key),
                    firstAliases.get(key)));
        }
        return new VerbNames(out);
    }

    /** The names of {@code opId}, if it is one of the family's operations. */
    Name name(String opId) {
        return byOpId.get(opId);
    }

    Collection<Name> all() {
        return byOpId.values();
    }

    /** Every word that may follow the family: nouns, top-level verbs and their aliases. */
    Set<String> firstWords() {
        Set<String> out = new LinkedHashSet<>();
        for (Name n : byOpId.values()) {
            if (n.noun() == null) {
                out.add(n.verb());
                out.addAll(n.verbAliases());
            } else {
                out.add(n.noun());
                out.addAll(n.nounAliases());
            }
        }
        return out;
    }

    /**
     * A verb's forms, shortest first: noun words, generator tail and method word handled; noun words and tail
     * removed; the tail only removed; the op-id verb in kebab-case; the op-id verb as it is.
     */
    private static List<String> forms(String verb, List<String> nounFull, List<String> nounShort) {
        List<String> original = words(verb);
        List<String> stripped = orElse(removeRun(original, nounFull), original);
        stripped = orElse(removeRun(stripped, nounShort), stripped); // version_service_version: version
        List<String> plain = withoutUsingMethod(stripped);
        List<String> shortest = plain.size() == 1 && METHOD_WORDS.containsKey(plain.getFirst())
                ? List.of(METHOD_WORDS.get(plain.getFirst())) : plain;
        return distinct(kebab(shortest), kebab(plain), kebab(orElse(withoutUsingMethod(original), original)),
                kebab(original), verb);
    }

    /**
     * Without a code generator's {@code using <method> [n]} tail ({@code getMachinesUsingGET},
     * {@code requestCatalogItemInstancesUsingPOST_1}), when words are left.
     */
    static List<String> withoutUsingMethod(List<String> words) {
        int end = words.size();
        if (end > 0 && words.get(end - 1).matches("[0-9]+")) {
            end--;
        }
        if (end >= 3 && words.get(end - 2).equals("using") && HTTP_METHODS.contains(words.get(end - 1))) {
            return words.subList(0, end - 2);
        }
        return words;
    }

    /** The names a noun or verb had before: as the op id spells it, and that in kebab-case. */
    private static Set<String> oldNames(String raw) {
        return new LinkedHashSet<>(distinct(raw, kebab(words(raw))));
    }

    /**
     * One name per key: each key takes its first form; while names collide (with each other, with another
     * key's old names or with {@code reserved}), every key in the collision moves to its next, longer form.
     * Keys are visited in sorted order, so the outcome depends on the input only. The last form of each key is
     * its op-id spelling, unique among the keys, so this ends.
     */
    static <K extends Comparable<K>> Map<K, String> choose(Map<K, List<String>> forms, Map<K, Set<String>> old,
                                                           Set<String> reserved) {
        Map<String, Set<K>> oldOwners = new HashMap<>();
        old.forEach((k, names) -> names.forEach(n -> oldOwners.computeIfAbsent(n, x -> new TreeSet<>()).add(k)));
        Map<K, Integer> level = new TreeMap<>();
        forms.keySet().forEach(k -> level.put(k, 0));
        boolean moved = true;
        while (moved) {
            Map<String, List<K>> users = new HashMap<>();
            level.forEach((k, i) -> users.computeIfAbsent(forms.get(k).get(i), n -> new ArrayList<>()).add(k));
            Set<K> bump = new TreeSet<>();
            users.forEach((name, ks) -> {
                Set<K> owners = oldOwners.getOrDefault(name, Set.of());
                if (ks.size() > 1 || reserved.contains(name)) {
                    bump.addAll(ks);
                } else if (!owners.isEmpty() && !owners.equals(Set.of(ks.getFirst()))) {
                    bump.add(ks.getFirst()); // another op's old name keeps meaning that op
                }
            });
            moved = false;
            for (K k : bump) {
                if (level.get(k) < forms.get(k).size() - 1) {
                    level.put(k, level.get(k) + 1);
                    moved = true;
                }
            }
        }
        Map<K, String> out = new TreeMap<>();
        level.forEach((k, i) -> out.put(k, forms.get(k).get(i)));
        return out;
    }

    /** Each key's old names that are not a name and not taken by a key before it (sorted order) or reserved. */
    private static <K extends Comparable<K>> Map<K, List<String>> aliases(Map<K, String> names,
                                                                         Map<K, Set<String>> old,
                                                                         Set<String> reserved) {
        Set<String> taken = new HashSet<>(names.values());
        taken.addAll(reserved);
        Map<K, List<String>> out = new TreeMap<>();
        for (var e : new TreeMap<>(names).entrySet()) {
            List<String> aliases = new ArrayList<>();
            for (String o : old.get(e.getKey())) {
                if (taken.add(o)) {
                    aliases.add(o);
                }
            }
            out.put(e.getKey(), List.copyOf(aliases));
        }
        return out;
    }

    /** {@code words} without each run of {@code run} in it (its last word singular or plural). */
    static List<String> removeRun(List<String> words, List<String> run) {
        if (run.isEmpty()) {
            return words;
        }
        List<String> out = new ArrayList<>();
        int k = run.size();
        for (int i = 0; i < words.size(); ) {
            if (i + k <= words.size() && matches(words.subList(i, i + k), run)) {
                i += k;
            } else {
                out.add(words.get(i++));
            }
        }
        return out;
    }

    private static boolean matches(List<String> words, List<String> run) {
        for (int i = 0; i < run.size(); i++) {
            if (!words.get(i).equals(run.get(i)) && !stem(words.get(i)).equals(stem(run.get(i)))) {
                return false;
            }
        }
        return true;
    }

    /** A plural's singular, roughly: enough to see that vms and vm, policies and policy, are one noun. */
    static String stem(String word) {
        if (word.length() > 4 && word.endsWith("ies")) {
            return word.substring(0, word.length() - 3) + "y";
        }
        for (String es : List.of("sses", "xes", "ches", "shes")) {
            if (word.endsWith(es)) {
                return word.substring(0, word.length() - 2);
            }
        }
        if (word.length() > 2 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us")
                && !word.endsWith("is")) {
            return word.substring(0, word.length() - 1);
        }
        return word;
    }

    /**
     * A group key's words: each {@code _}-separated part split into the fewest words of {@code vocabulary} that
     * spell it ({@code clusterworkflowtemplateservice} → cluster workflow template service), else kept whole.
     */
    static List<String> segment(String key, Set<String> vocabulary) {
        List<String> out = new ArrayList<>();
        for (String part : words(key)) {
            int n = part.length();
            List<List<String>> best = new ArrayList<>();
            best.add(List.of());
            for (int i = 1; i <= n; i++) {
                List<String> pick = null;
                for (int j = 0; j < i; j++) {
                    String w = part.substring(j, i);
                    if (best.get(j) != null && vocabulary.contains(w)
                            && (pick == null || best.get(j).size() + 1 < pick.size())) {
                        pick = new ArrayList<>(best.get(j));
                        pick.add(w);
                    }
                }
                best.add(pick);
            }
            out.addAll(best.get(n) == null ? List.of(part) : best.get(n));
        }
        return out;
    }

    /** Lower-case words of an identifier: split at {@code _}, {@code -}, other punctuation and camelCase. */
    static List<String> words(String identifier) {
        String spaced = NON_WORD.matcher(ACRONYM.matcher(CAMEL.matcher(identifier).replaceAll("$1 $2"))
                .replaceAll("$1 $2").toLowerCase(Locale.ROOT)).replaceAll(" ").trim();
        return spaced.isEmpty() ? List.of() : List.of(spaced.split(" "));
    }

    private static List<String> orElse(List<String> words, List<String> fallback) {
        return words.isEmpty() ? fallback : words;
    }

    static String kebab(List<String> words) {
        return String.join("-", words);
    }

    /** The non-empty forms in order, each once. */
    private static List<String> distinct(String... forms) {
        List<String> out = new ArrayList<>();
        for (String f : forms) {
            if (!f.isEmpty() && !out.contains(f)) {
                out.add(f);
            }
        }
        return out;
    }
}
