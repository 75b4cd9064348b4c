import { handleAccountsRequest } from "@/lib/http/account-routes";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ path: string[] }> };

// Accounts mode (HINTLINE_AUTH=accounts): sign-up, sign-in, sign-out and the session, by better-auth; 404 otherwise.
const handle = async (request: Request, { params }: Context) =>
  handleAccountsRequest(request, (await params).path.join("/"));

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
