import { handleAccountsRequest } from "@/lib/auth/account-routes";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ path: string[] }> };

// Accounts mode (HINTLINE_AUTH=accounts): sign-up, sign-in, sign-out and the session, by better-auth.
const handle = async (request: Request, { params }: Context) => handleAccountsRequest(request, (await params).path.join("/"));

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
