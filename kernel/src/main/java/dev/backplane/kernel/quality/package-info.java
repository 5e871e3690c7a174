/**
 * How well retrieval serves, measured: {@link dev.backplane.kernel.quality.RetrievalEval} ({@code svc retrieval
 * eval}) runs each surface's search (kb, memory, operations, conventions) against a grep baseline over the same
 * labelled queries, reports recall@10, MRR and nDCG@10, and may save them as the tenant's baseline in {@code
 * retrieval_eval_baselines}; {@link dev.backplane.kernel.quality.UsageReport} reads the searches {@code
 * retrieval.SearchLog} recorded; {@link dev.backplane.kernel.quality.RetireChecklist} says per surface whether grep
 * could be retired, with evidence. {@code BaselineComparison} holds a report to the saved baseline, and all
 * SQL (baselines, and the usage figures read from {@code retrieval_searches}) is {@code QualityStore}'s. It only
 * measures: it changes no search and retires nothing, which stays an operator's decision. {@link
 * dev.backplane.kernel.quality.RetrievalRoutes} serve it under {@code /api/v1/retrieval}.
 */
package dev.backplane.kernel.quality;
