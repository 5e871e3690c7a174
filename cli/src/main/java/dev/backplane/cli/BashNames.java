package dev.backplane.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Completion of names ({@link NamePositions}) for picocli's bash script, which completes commands and options only.
 * picocli's entry function {@code _complete_<name>} is renamed {@code _complete_<name>_commands}, and a new
 * {@code _complete_<name>} is appended (so the registration at the end of picocli's script calls it): it walks the
 * typed words to the command they name and the argument being typed, and where that argument takes a name it offers
 * what {@code <name> __complete <kind> <prefix>} prints; everywhere else it hands over to picocli's function. The
 * tables it walks with are {@code case} statements, which bash and zsh (through bashcompinit) read alike, and hold
 * only the commands on the way to an argument that takes a name.
 */
final class BashNames {

    private BashNames() {
    }

    /** picocli's script with completion of names. */
    static String script(String name, CommandSpec root, String picocliScript) {
        String entry = "function _complete_" + name + "() {";
        if (!picocliScript.contains(entry)) {
            throw new IllegalStateException("picocli's script has no " + entry + " to wrap");
        }
        return picocliScript.replace(entry, "function _complete_" + name + "_commands() {") + "\n" + names(name, root);
    }

    private static String names(String name, CommandSpec root) {
        List<NamePositions.Position> positions = NamePositions.of(root);
        Set<String> relevant = new LinkedHashSet<>();
        positions.forEach(p -> {
            String path = p.command();
            while (true) {
                relevant.add(path);
                int space = path.lastIndexOf(' ');
                if (space < 0) {
                    break;
                }
                path = path.substring(0, space);
            }
        });
        Map<String, String> steps = new LinkedHashMap<>(); // "<path> <word>" -> the command path it makes
        Set<String> valueOptions = new LinkedHashSet<>(); // "<path> <option>" of options that take a value
        walk(root, relevant, steps, valueOptions);
        Map<String, List<String>> kinds = new TreeMap<>(); // kind -> "<path> <option or index>"
        positions.forEach(p -> kinds.computeIfAbsent(p.kind().word, k -> new ArrayList<>())
                .add(p.command() + " " + p.key()));
        String fn = "__" + name.replaceAll("[^A-Za-z0-9_]", "_") + "_names";
        List<String> forwarded = forwarded(root);

        StringBuilder s = new StringBuilder();
        s.append("# Names from the backplane where a command takes a target, connector, operation, approval, agent,\n")
                .append("# runbook or event source: ").append(name).append(" __complete <kind> <prefix> prints them ")
                .append("(quietly, within a second or two,\n# cached for 30 s). See \"Completion of names\" in ")
                .append("docs/guide/cli.md.\n");
        s.append("function ").append(fn).append("_step() {\n  ").append(fn).append("_next=\n  case \"$1\" in\n");
        List<String> commands = steps.entrySet().stream().filter(e -> e.getKey().equals(e.getValue()))
                .map(Map.Entry::getKey).toList();
        if (!commands.isEmpty()) {
            s.append("    ").append(patterns(commands)).append(") ").append(fn).append("_next=$1 ;;\n");
        }
        steps.forEach((typed, path) -> {
            if (!typed.equals(path)) { // an alias
                s.append("    ").append(quote(typed)).append(") ").append(fn).append("_next=").append(quote(path))
                        .append(" ;;\n");
            }
        });
        s.append("  esac\n}\n");
        s.append("function ").append(fn).append("_takes_value() {\n  case \"$1\" in\n");
        if (!valueOptions.isEmpty()) {
            s.append("    ").append(patterns(valueOptions)).append(") return 0 ;;\n");
        }
        s.append("  esac\n  return 1\n}\n");
        s.append("function ").append(fn).append("_kind() {\n  ").append(fn).append("_found=\n  case \"$1\" in\n");
        kinds.forEach((kind, keys) -> s.append("    ").append(patterns(keys)).append(") ").append(fn)
                .append("_found=").append(kind).append(" ;;\n"));
        s.append("  esac\n}\n");
        s.append("""
                # Offers the names for the word being typed, if it takes some (else returns 1). bash splits
                # --option=value at the = (COMP_WORDBREAKS), zsh does not. (No variable is called path: zsh ties
                # that one to PATH.)
                function FN() {
                  local at=NAME pos=0 value=0 option= word i name
                  local -a forward=()
                  for (( i=1; i<COMP_CWORD; i++ )); do
                    word=${COMP_WORDS[i]}
                    if [ "$word" = "=" ]; then value=1; continue; fi
                    if (( value )); then value=0; continue; fi
                    case $word in
                      FORWARD)
                        if [ "${COMP_WORDS[i+1]}" = "=" ]; then
                          (( i + 2 < COMP_CWORD )) && forward+=("$word=${COMP_WORDS[i+2]}")
                        else
                          (( i + 1 < COMP_CWORD )) && forward+=("$word" "${COMP_WORDS[i+1]}")
                        fi ;;
                      FORWARD_EQ) forward+=("$word") ;;
                    esac
                    case $word in
                      -*) if FN_takes_value "$at $word"; then value=1; option=$word; fi ;;
                      *) FN_step "$at $word"
                         if [ -n "$FN_next" ]; then at=$FN_next; pos=0; else pos=$((pos + 1)); fi ;;
                    esac
                  done
                  local cur=${COMP_WORDS[COMP_CWORD]}
                  if (( value )); then
                    FN_kind "$at $option"
                  elif [[ $cur != -* && $cur != "=" ]]; then
                    FN_kind "$at $pos"
                  else
                    return 1
                  fi
                  [ -n "$FN_found" ] || return 1
                  local svc=${COMP_WORDS[0]}
                  [[ $svc == "~/"* ]] && svc=$HOME/${svc#"~/"}
                  COMPREPLY=()
                  while IFS= read -r name; do
                    COMPREPLY+=("$name")
                  done < <("$svc" __complete "${forward[@]}" -- "$FN_found" "$cur" 2>/dev/null)
                  type compopt &>/dev/null && compopt +o default 2>/dev/null
                  return 0
                }

                function _complete_NAME() {
                  FN && return 0
                  _complete_NAME_commands "$@"
                }
                """.replace("FORWARD_EQ", forwarded.isEmpty() ? "--no-such-option=*" : String.join("|",
                        forwarded.stream().map(o -> o + "=*").toList()))
                .replace("FORWARD", forwarded.isEmpty() ? "--no-such-option" : String.join("|", forwarded))
                .replace("FN", fn).replace("NAME", name));
        return s.toString();
    }

    /** Collects the steps and value options of the relevant commands, aliases included. */
    private static void walk(CommandSpec spec, Set<String> relevant, Map<String, String> steps,
                             Set<String> valueOptions) {
        String path = spec.qualifiedName();
        for (OptionSpec o : spec.options()) {
            if (o.arity().max() > 0) {
                for (String n : o.names()) {
                    valueOptions.add(path + " " + n);
                }
            }
        }
        spec.subcommands().forEach((word, cl) -> {
            CommandSpec child = cl.getCommandSpec();
            if (relevant.contains(child.qualifiedName())) {
                steps.put(path + " " + word, child.qualifiedName());
                if (word.equals(child.name())) {
                    walk(child, relevant, steps, valueOptions);
                }
            }
        });
    }

    /** The value options of {@code __complete} (its own and inherited), which the script passes on when typed. */
    static List<String> forwarded(CommandSpec root) {
        var complete = root.subcommands().get("__complete");
        if (complete == null) {
            return List.of();
        }
        return complete.getCommandSpec().options().stream().filter(o -> o.arity().max() > 0)
                .flatMap(o -> List.of(o.names()).stream()).filter(n -> n.startsWith("--")).toList();
    }

    private static String patterns(Iterable<String> words) {
        List<String> quoted = new ArrayList<>();
        words.forEach(w -> quoted.add(quote(w)));
        return String.join("|", quoted);
    }

    /** A word in single quotes for bash and zsh. */
    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
