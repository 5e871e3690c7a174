package dev.backplane.kernel.jobs;

import static java.util.Objects.requireNonNull;

/**
 * One kind of background job, declared by the capability that runs it and registered with
 * {@link BackgroundJobs} (the stale-job reaper covers exactly the registered kinds).
 *
 * @param name what the {@code kind} column holds, e.g. {@code kb_ingest}
 * @param label what the job is called in messages: "no kb ingest job &lt;id&gt; in this tenant",
 *              "kb ingest failed: ..."
 * @param codePrefix the start of its error codes: {@code <prefix>_job_not_found}, {@code <prefix>_failed},
 *                   {@code <prefix>_abandoned}
 * @param pollPath its status route without the id; a job's {@code poll_url} is {@code <pollPath>/<id>}
 * @param queuedFirst whether a new job reads {@code queued} until its runner picks it up; otherwise it
 *                    reads {@code running} from the start
 * @param abandonedMessage the error message of a job whose kernel stopped running it
 */
public record JobKind(String name, String label, String codePrefix, String pollPath, boolean queuedFirst,
                      String abandonedMessage) {

    public JobKind {
        requireNonNull(name, "name is null");
        requireNonNull(label, "label is null");
        requireNonNull(codePrefix, "codePrefix is null");
        requireNonNull(pollPath, "pollPath is null");
        requireNonNull(abandonedMessage, "abandonedMessage is null");
    }
}
