package dev.backplane.kernel.agents;

import dev.backplane.kernel.tools.Tool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a definition's {@code toolset} means (SPEC §"Agent tools"): the tools that only read by default ({@code {}});
 * {@code "tool": true} adds one (those that write need it), {@code "tool": false} takes one away. The tools and
 * whether each writes come from the registry the runs use; no name is listed here.
 */
final class Toolsets {

    private final List<String> reading;
    private final List<String> writing;
    private final Set<String> all;

    Toolsets(List<Tool> tools) {
        this.reading = tools.stream().filter(t -> t.effect() == Tool.Effect.READS).map(Tool::name).toList();
        this.writing = tools.stream().filter(t -> t.effect() == Tool.Effect.WRITES).map(Tool::name).toList();
        this.all = new TreeSet<>(tools.stream().map(Tool::name).toList());
    }

    /** Every tool a toolset may name, sorted. */
    Set<String> all() {
        return all;
    }

    /** The tools a toolset gives a run: the reading ones, then the writing ones, each in the registry's order. */
    List<String> effective(Map<String, Boolean> toolset) {
        Map<String, Boolean> on = new LinkedHashMap<>();
        reading.forEach(t -> on.put(t, true));
        writing.forEach(t -> on.put(t, false));
        on.putAll(toolset);
        return on.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
    }
}
