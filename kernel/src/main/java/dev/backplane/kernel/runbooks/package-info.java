/**
 * Runbooks: versioned YAML templates ({@link dev.backplane.kernel.runbooks.RunbookTemplates}: a draft edited in
 * place, published versions never changed, an edit of one forking the next draft, deprecation per version),
 * validated against the template schema with line and column for each problem, and runs that walk a published
 * version step by step ({@link dev.backplane.kernel.runbooks.RunbookRuns}). {@code next} runs the current step's
 * operation through {@code dispatch.OperationCalls} as the caller, the run id being the audit session, then takes
 * the verification answer: yes moves on, no stops the run, escalate parks it for another tenant_admin. A {@link
 * dev.backplane.kernel.runbooks.RunbookRun} shows only its current step, never the ones after it. Tables {@code
 * runbook_templates}, {@code runbook_runs} and {@code runbook_run_log}, their SQL in {@code RunbookTemplateStore}
 * and {@code RunbookRunStore}; {@link
 * dev.backplane.kernel.runbooks.RunbookRoutes} stay thin (tenant_admin writes templates, operators read them and
 * drive runs).
 */
package dev.backplane.kernel.runbooks;
