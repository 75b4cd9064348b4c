// Who is asking: in open and token mode the one person (the operator: everything is theirs), in accounts mode the
// signed-in user. Looked up once per request.
import { ApiError } from "../api/errors.ts";
import { authMode } from "./mode.ts";

export type Viewer =
  | { kind: "operator" }
  | { kind: "user"; userId: string; email: string; name: string; admin: boolean };

export const OPERATOR: Viewer = { kind: "operator" };

const lookups = new WeakMap<Request, Promise<Viewer | null>>();

async function lookUp(request: Request): Promise<Viewer | null> {
  if (authMode() !== "accounts") return OPERATOR;
  // Only accounts mode loads better-auth (./accounts.ts): every route and page asks for the viewer.
  const { signedInUser } = await import("./accounts.ts");
  const user = await signedInUser(request);
  return user && { kind: "user", ...user };
}

/** The viewer, or null when accounts mode has no live session for the request. */
export function viewerOrNull(request: Request): Promise<Viewer | null> {
  let found = lookups.get(request);
  if (!found) {
    found = lookUp(request);
    lookups.set(request, found);
  }
  return found;
}

export async function viewerOf(request: Request): Promise<Viewer> {
  const viewer = await viewerOrNull(request);
  if (!viewer) throw new ApiError("unauthorized", "Sign in first (POST /api/auth/sign-in/email).");
  return viewer;
}

/** The owner a query is limited to: undefined for the operator, who sees everything. */
export function ownerFilter(viewer: Viewer): string | undefined {
  return viewer.kind === "user" ? viewer.userId : undefined;
}

/** The owner stored on what the viewer creates: null for the operator (taken by the first admin of accounts mode). */
export function ownerIdOf(viewer: Viewer): string | null {
  return viewer.kind === "user" ? viewer.userId : null;
}

export function isAdmin(viewer: Viewer): boolean {
  return viewer.kind === "operator" || viewer.admin;
}

export function requireAdmin(viewer: Viewer): void {
  // An admin-only route is not listed to others: it answers as an unknown one would.
  if (!isAdmin(viewer)) throw new ApiError("not_found", "No such route.");
}
