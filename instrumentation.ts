// Runs once when the server starts, before any route module loads.
export async function register() {
  // An empty OPENAI_BASE_URL / OPENAI_API_KEY means "not set": @ai-sdk/openai would otherwise reject the blank
  // base URL when its module is first imported, failing every route.
  for (const key of ["OPENAI_BASE_URL", "OPENAI_API_KEY", "HINTLINE_MODEL"]) {
    if (process.env[key]?.trim() === "") delete process.env[key];
  }
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // Traces of the replies when OTEL_EXPORTER_OTLP_ENDPOINT is set (first, so that resumed replies are traced too);
    // without it no OpenTelemetry code is loaded.
    const { logFailure } = await import("./lib/log/logger");
    const { startTracing } = await import("./lib/log/tracing");
    await startTracing().catch(logFailure("tracing did not start: no traces are sent"));
    // SIGTERM drains the instance (lib/ops/shutdown.ts); `npm start` sets NEXT_MANUAL_SIG_HANDLE so that Next.js
    // leaves the signal to it rather than closing its listener and waiting for every open stream.
    const { installShutdown } = await import("./lib/ops/shutdown");
    installShutdown();
    // Replies the last run left mid-way go on (SQLite, one process): their locks are held before any request is
    // answered, so none is settled as interrupted meanwhile; the replies themselves run in the background.
    const { resumeLeftReplies } = await import("./lib/chat/runs/resume-replies");
    await resumeLeftReplies().catch(logFailure("resuming the replies the last run left failed"));
    // On PostgreSQL every reply is a run on pg-boss: another instance takes it over if this one dies.
    const { startRunEngine } = await import("./lib/chat/runs/pg-boss-engine");
    await startRunEngine().catch(
      logFailure("the run engine did not start: replies of this instance are not taken over if it dies"),
    );
    // Messages queued behind a reply that ended while the last run drained become their turns now.
    const { startLeftQueueSweep } = await import("./lib/chat/runs/left-queues");
    startLeftQueueSweep();
    // Conversations left idle give their durable facts (HINTLINE_MEMORY_IDLE_MINUTES; a timer, unreferenced).
    const { startIdleMemorySweep } = await import("./lib/chat/conversation-end-memory");
    startIdleMemorySweep();
    // The connections added over the API, and the models each serves (read now, on a change and on a timer).
    const { startConnectionSync } = await import("./lib/chat/connection-sync");
    startConnectionSync();
  }
}
