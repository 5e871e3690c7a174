package dev.backplane.cli.families;

import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The command list of a family or noun's help: one line per verb under its name only (its aliases, the old
 * op-id names, would double every line of a noun with hundreds of verbs; a noun says its old name), its
 * description cut between words to fit the line, and a name longer than the name column on a line of its own
 * rather than cut.
 */
final class VerbList implements CommandLine.IHelpSectionRenderer {

    /** Names up to this long share their line with the description. */
    static final int NAME_COLUMN = 30;
    /** A noun's summary lists this many verbs by name. */
    static final int SUMMARY_VERBS = 6;

    private VerbList() {
    }

    static void install(CommandSpec spec) {
        spec.usageMessage().sectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST,
                new VerbList());
    }

    /** A noun's description: its verbs, or the first few and how many there are. */
    static String summary(Collection<String> verbs) {
        List<String> names = List.copyOf(verbs);
        if (names.size() <= SUMMARY_VERBS + 2) {
            return String.join(", ", names);
        }
        return names.size() + " verbs: " + String.join(", ", names.subList(0, SUMMARY_VERBS)) + ", ...";
    }

    @Override
    public String render(CommandLine.Help help) {
        List<CommandLine> subcommands = new ArrayList<>();
        Set<CommandLine> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (CommandLine sub : help.commandSpec().subcommands().values()) {
            if (seen.add(sub) && !sub.getCommandSpec().usageMessage().hidden()) {
                subcommands.add(sub);
            }
        }
        if (subcommands.isEmpty()) {
            return "";
        }
        int longest = subcommands.stream().mapToInt(s -> s.getCommandName().length()).max().orElse(0);
        int column = 2 + Math.min(longest, NAME_COLUMN) + 2;
        int width = Math.max(column + 20, help.commandSpec().usageMessage().width());
        String nl = System.lineSeparator();
        StringBuilder out = new StringBuilder();
        for (CommandLine sub : subcommands) {
            String name = sub.getCommandName();
            // the op id and safety in brackets are in the verb's own help; here one line per verb
            String description = String.join(" ", sub.getCommandSpec().usageMessage().description())
                    .replaceFirst("\\s*\\[[^\\]]*]$", "");
            String[] aliases = sub.getCommandSpec().aliases();
            if (aliases.length > 0 && !sub.getSubcommands().isEmpty()) {
                // a noun's old name, so a reader of older docs finds it; a verb's would double a long list
                description = "(also " + String.join(", ", aliases) + ") " + description;
            }
            String line = oneLine(description, width - column);
            out.append("  ").append(name);
            if (name.length() > column - 4) {
                out.append(line.isEmpty() ? "" : nl + " ".repeat(column) + line);
            } else if (!line.isEmpty()) {
                out.append(" ".repeat(column - 2 - name.length())).append(line);
            }
            out.append(nl);
        }
        return out.toString();
    }

    /** The first line of {@code text} that fits {@code width}, cut between words with "..." when it does not fit. */
    static String oneLine(String text, int width) {
        List<String> lines = wrap(text, width - 4);
        if (lines.isEmpty()) {
            return "";
        }
        String all = String.join(" ", lines);
        return all.length() <= width ? all : lines.getFirst() + " ...";
    }

    /** {@code text} in lines of at most {@code width}, broken between words; a longer word keeps its own line. */
    static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.trim().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            if (!line.isEmpty() && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.isEmpty() ? "" : " ").append(word);
        }
        if (!line.isEmpty()) {
            lines.add(line.toString());
        }
        return lines;
    }
}
