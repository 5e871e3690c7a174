/**
 * The one hybrid search engine shared by kb, memory, conventions and operation search: a lexical ranking (BM25 over
 * PostgreSQL's full-text lexemes, held per partition in memory) and a dense one (chunks embedded by the configured
 * model, through pgvector's HNSW index when the database has the extension, in the JVM otherwise) fused by weighted
 * reciprocal rank. {@link dev.backplane.kernel.retrieval.RetrievalEngine} is the entry point; {@link
 * dev.backplane.kernel.retrieval.Embedder} embeds in process from the model jar, {@link
 * dev.backplane.kernel.retrieval.DenseSet} holds the vectors of a small in-memory corpus (a connector's
 * operations), and {@link dev.backplane.kernel.retrieval.SearchLog} records each search (query hashed, never kept).
 * It owns the index tables ({@code retrieval_docs}, {@code retrieval_chunks}, {@code retrieval_text_vectors}), the
 * embedding model's state ({@code retrieval_model}: {@link dev.backplane.kernel.retrieval.EmbeddingModels}, a change of
 * model filled in behind searches) and
 * {@code retrieval_searches}, not the entries: kb, memory and conventions write their own rows and have the engine
 * index them in the same transaction. The in-memory slices are per replica and kept current through the change
 * feed.
 */
package dev.backplane.kernel.retrieval;
