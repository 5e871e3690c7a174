/**
 * The knowledge base: durable team knowledge per tenant in {@code kb_entries}, the slug its natural key. {@link
 * dev.backplane.kernel.kb.KbService} holds the rules: re-adding a slug updates in place, an unchanged body is not
 * embedded again, and an entry and its retrieval rows are written in one transaction; {@code KbStore} holds the SQL.
 * Search ({@code KbSearch}) goes through {@code retrieval.RetrievalEngine} and its hits carry a snippet, never the
 * body. {@link
 * dev.backplane.kernel.kb.KbIngestService} turns the Markdown and text files of a directory on the backplane host
 * into entries, as a background job in {@code jobs}, reading only inside the caller's tenant folder of the {@link
 * dev.backplane.kernel.kb.IngestRoot}. {@link dev.backplane.kernel.kb.KbRoutes} stay thin; an entry is deleted
 * through REST or the console, never by an agent tool.
 */
package dev.backplane.kernel.kb;
