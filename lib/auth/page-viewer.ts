// The viewer of a server-rendered page (pages have no Request: Next.js gives their headers). proxy.ts has sent anyone
// without a live session to the sign-in page already; a page still checks whose data it renders.
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ApiError } from "../api/errors.ts";
import { checkConversation, resolveWorkspace } from "./scope.ts";
import { authMode } from "./mode.ts";
import { isAdmin, type Viewer, viewerOrNull } from "./viewer.ts";

// Looked up once per page render (the root layout and the page both ask).
const pageViewerOrNull = cache(async (): Promise<Viewer | null> => {
  const incoming = await headers();
  return viewerOrNull(new Request(`http://${incoming.get("host") ?? "localhost"}/`, { headers: incoming }));
});

async function pageViewer(): Promise<Viewer> {
  const viewer = await pageViewerOrNull();
  if (!viewer) notFound();
  return viewer;
}

/** Whether the page's reader runs the server (open and token mode, or an admin): lib/operator-words.ts. */
export async function pageReadsOperatorWords(): Promise<boolean> {
  if (authMode() !== "accounts") return true;
  const viewer = await pageViewerOrNull();
  return viewer !== null && isAdmin(viewer);
}

function notFoundWhenRefused(error: unknown): never {
  if (error instanceof ApiError && (error.code === "not_found" || error.code === "forbidden")) notFound();
  throw error;
}

/** For /c/:id: another user's conversation is the not-found page (an unused id is a new chat). */
export async function checkConversationPage(id: string): Promise<void> {
  await checkConversation(await pageViewer(), id).catch(notFoundWhenRefused);
}

/**
 * For /w/:id: the workspace id the page shows ("default" is the viewer's own), or the not-found page; `editable`
 * when the viewer may change it (a member only uses a shared workspace).
 */
export async function workspacePageAccess(named: string): Promise<{ id: string; editable: boolean }> {
  const viewer = await pageViewer();
  const id = await resolveWorkspace(viewer, named, "use").catch(notFoundWhenRefused);
  const editable = await resolveWorkspace(viewer, id, "edit").then(
    () => true,
    (error) => {
      if (error instanceof ApiError && error.code === "forbidden") return false;
      throw error;
    },
  );
  return { id, editable };
}
