/**
 * The agent tools' registry, below the capabilities that offer them: a {@link dev.backplane.kernel.tools.Tool} is a
 * name, a description, an input schema, the role it needs, whether it reads or writes, whether its capability audits
 * it itself, and what it does. Each capability declares its own tools next to its service ({@code MemoryTools},
 * {@code KbTools}, {@code DocsTools}, {@code TargetTools}, {@code CatalogTools}, {@code DispatchTools}); the wiring
 * puts them in one {@link dev.backplane.kernel.tools.ToolRegistry} per transport, which the MCP endpoint and the model
 * loop of agent runs both read, so a tool's name exists once. This package owns no tables and calls no service; it
 * must not depend on a capability (they depend on it).
 */
package dev.backplane.kernel.tools;
