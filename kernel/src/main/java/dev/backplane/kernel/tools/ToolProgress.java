package dev.backplane.kernel.tools;

/**
 * Hears where a running tool call is, so a surface that can talk while a call runs (MCP's progress notifications)
 * can say so: a step's description in words, never its params, credential or result. Called on the calling thread.
 */
@FunctionalInterface
public interface ToolProgress {

    /** For calls nobody watches (agent runs, REST). */
    ToolProgress NONE = step -> {
    };

    void reached(String step);
}
