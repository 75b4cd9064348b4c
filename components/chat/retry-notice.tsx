"use client";
// Shown in a streaming reply while the server waits to try a failed model call again: why it failed, and when the
// next attempt starts. Keyed by attempt, so each wait counts down from its own start.
import { useEffect, useState } from "react";
import type { RetryData } from "@/lib/chat-message";
import { RetryIcon } from "../ui/icons";

export function RetryNotice({ retry }: { retry: RetryData }) {
  const [shownAt] = useState(() => Date.now());
  const [now, setNow] = useState(shownAt);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, Math.ceil((shownAt + retry.delayMs - now) / 1000));
  return (
    <div
      role="status"
      data-testid="retry-notice"
      className="flex items-start gap-3 rounded-xl border border-amber-500/40 bg-amber-500/10 px-4 py-3 text-sm text-amber-800 dark:text-amber-300"
    >
      <RetryIcon className="mt-0.5 shrink-0" />
      <p className="flex-1">
        {retry.reason} {left > 0 ? `Retrying in ${left} s` : "Retrying now"} (attempt {retry.attempt} of{" "}
        {retry.maxRetries})…
      </p>
    </div>
  );
}
