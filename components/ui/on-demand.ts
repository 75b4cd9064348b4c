"use client";
// A component whose code is fetched the first time it is needed (a drawer or dialog that is closed on first load),
// so it is not part of the page's first-load JavaScript. `load()` starts the import (or joins the one under way)
// and resolves once the code is in; render `Component` inside <Suspense> only after `load()` resolved, so it never
// waits visibly and a failed fetch (the server gone) can be reported by the opener and retried on the next open.
import { type ComponentType, lazy } from "react";

export function onDemand<P extends object>(importer: () => Promise<ComponentType<P>>) {
  let loading: Promise<ComponentType<P>> | null = null;
  const load = () => {
    loading ??= importer().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
  const Component = lazy(async () => ({ default: await load() }));
  return { load, Component };
}
