package dev.backplane.kernel.app;

import dev.backplane.kernel.http.RequestIds;
import dev.backplane.kernel.util.JsonMapping;
import io.helidon.logging.common.HelidonMdc;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.sdk.trace.ReadableSpan;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * One JSON object a line ({@code log.format: json}), for log shippers: time, level, logger, thread,
 * the request id and the tenant of the request the line was written for (when there is one), the
 * message, and the error with its stack trace. Text stays the default for people at a terminal. With tracing on
 * ({@code tracing.otlp-endpoint}), a line written while a recorded span is current carries that span's
 * {@code trace_id} and {@code span_id}, so a log line leads to its trace; with tracing off (or outside any span) the
 * fields are absent — the no-op tracer's spans are never recorded, so their ids (a caller's, at best) are not shown.
 */
public final class JsonLogFormatter extends Formatter {

    @Override
    public String format(LogRecord r) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("ts", r.getInstant().toString());
        line.put("level", r.getLevel().getName());
        line.put("logger", r.getLoggerName());
        line.put("thread", Thread.currentThread().getName());
        HelidonMdc.get(RequestIds.MDC_KEY).ifPresent(id -> line.put("request_id", id));
        HelidonMdc.get(RequestIds.TENANT_MDC_KEY).ifPresent(t -> line.put("tenant_id", t));
        Span span = Span.current();
        if (span instanceof ReadableSpan && span.getSpanContext().isValid()) {
            line.put("trace_id", span.getSpanContext().getTraceId());
            line.put("span_id", span.getSpanContext().getSpanId());
        }
        line.put("message", formatMessage(r));
        if (r.getThrown() != null) {
            StringWriter trace = new StringWriter();
            r.getThrown().printStackTrace(new PrintWriter(trace));
            line.put("error", r.getThrown().toString());
            line.put("stack", trace.toString());
        }
        return JsonMapping.write(line) + System.lineSeparator();
    }

    /** Puts this formatter on every handler of the root logger. */
    static void install() {
        for (var handler : java.util.logging.LogManager.getLogManager().getLogger("").getHandlers()) {
            handler.setFormatter(new JsonLogFormatter());
        }
    }
}
