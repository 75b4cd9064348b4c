// Accounts mode on two instances sharing one database (a SQLite file both processes open, and PostgreSQL when
// TEST_POSTGRES_URL is set): sessions live in the database, so a cookie from A works on B, an admin disabling a user
// on A signs them out on B at once (and stops their reply and closes their streams there, on PostgreSQL), a sign-out
// on B is refused on A, and two admins demoting or disabling each other at once on A and B leave one admin. Budgets:
// every model call of a member counts, whichever instance made it, and over budget each instance refuses them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountFor, invite, postAuth, type SignedIn, signIn, signUp } from "../support/accounts-client.ts";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chunkReader, listenToEvents } from "../support/chat-client.ts";
import { startEverythingHttp } from "../support/mcp-reference.ts";
import { type ConversationView, countRows, databaseKinds, pollUntil, userMessage, words } from "./helpers.ts";

// Budgets: a default monthly limit, and a price for the demo model so its calls cost dollars.
const env = { HINTLINE_AUTH: "accounts", HINTLINE_BUDGET_USD_PER_MONTH: "1000", HINTLINE_PRICE_INPUT: "1000" };

/** Settles as `promise` does, or fails after `ms` naming what did not happen. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe.each(databaseKinds("accounts_instances"))(
  "$name: accounts mode on two instances",
  ({ name: kind, databaseUrl }) => {
    let a: AppServer;
    let b: AppServer;
    let admin: SignedIn;

    beforeAll(async () => {
      a = await startAppServer({ env, databaseUrl: await databaseUrl() });
      b = await startAppServer({ env, databaseUrl: a.databaseUrl });
      admin = await signUp(a.url, accountFor("Ann"));
    }, 180_000);
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
    });

    // The same cookie, sent to another instance with that instance's Origin (each is its own origin here).
    const on = (server: AppServer, who: SignedIn) => ({ cookie: who.cookie, origin: server.url });
    const read = async (server: AppServer, who: SignedIn) =>
      (await fetch(`${server.url}/api/conversations`, { headers: on(server, who) })).status;
    const write = async (server: AppServer, who: SignedIn, name: string) =>
      (
        await fetch(`${server.url}/api/workspaces`, {
          method: "POST",
          headers: { ...on(server, who), "content-type": "application/json" },
          body: JSON.stringify({ name }),
        })
      ).status;
    const editUser = (server: AppServer, who: SignedIn, userId: string, patch: object) =>
      fetch(`${server.url}/api/admin/users/${userId}`, {
        method: "PATCH",
        headers: { ...on(server, who), "content-type": "application/json" },
        body: JSON.stringify(patch),
      });

    it("accepts a session from A on B, and refuses it on B at once when an admin disables the user on A", async () => {
      const bob = accountFor("Bob");
      const signedUp = await signUp(b.url, bob, await invite(a.url, admin));
      const onA = await signIn(a.url, bob);
      expect([await read(a, onA), await read(b, onA), await read(b, signedUp), await write(b, onA, "Bob's")]).toEqual([
        200, 200, 200, 201,
      ]);
      const disabled = await fetch(`${a.url}/api/admin/users/${signedUp.userId}`, {
        method: "PATCH",
        headers: { ...admin.headers, "content-type": "application/json" },
        body: JSON.stringify({ disabled: true }),
      });
      expect(disabled.status).toBe(200);
      expect([await read(b, onA), await read(b, signedUp), await write(b, onA, "After")]).toEqual([401, 401, 401]);
      expect(await read(a, onA)).toBe(401);
      expect((await postAuth(b.url, "sign-in/email", { email: bob.email, password: bob.password })).status).toBe(403);
      // The admin's own session is untouched on both.
      expect([await read(a, admin), await read(b, admin)]).toEqual([200, 200]);
    });

    it("refuses a session on A once it signed out on B, and keeps the user's other sessions", async () => {
      const cid = accountFor("Cid");
      await signUp(a.url, cid, await invite(a.url, admin));
      const [first, second] = [await signIn(a.url, cid), await signIn(b.url, cid)];
      expect([await read(a, first), await read(b, first), await read(a, second)]).toEqual([200, 200, 200]);
      const out = await postAuth(b.url, "sign-out", {}, { cookie: first.cookie });
      expect(out.status).toBe(200);
      expect([await read(a, first), await read(b, first)]).toEqual([401, 401]);
      expect([await read(a, second), await read(b, second)]).toEqual([200, 200]);
    });

    it("stops a disabled user's running reply where it runs, closes their event streams and followers, refuses them at once", async () => {
      const dan = accountFor("Dan");
      const { userId } = await signUp(a.url, dan, await invite(a.url, admin));
      // On PostgreSQL the reply runs on B and the admin disables on A. Two processes on one SQLite file share no
      // signal (as for Stop): there everything is on A.
      const runs = kind === "PostgreSQL" ? b : a;
      const instances = kind === "PostgreSQL" ? [a, b] : [a];
      const session = await signIn(runs.url, dan);
      const started = await fetch(`${runs.url}/api/chat`, {
        method: "POST",
        headers: { ...on(runs, session), "content-type": "application/json" },
        body: JSON.stringify({ id: "dan-long", message: userMessage("dan-1", "write 3000 words about rivers") }),
      });
      expect(started.status).toBe(200);
      const reply = chunkReader(started);
      await reply.until((c) => c.type === "text-delta");
      const followers = await Promise.all(
        instances.map((server) =>
          fetch(`${server.url}/api/conversations/dan-long/stream`, { headers: on(server, session) }),
        ),
      );
      expect(followers.map((f) => f.status)).toEqual(instances.map(() => 200));
      const listeners = instances.map((server) => listenToEvents(server.url, { headers: on(server, session) }));
      try {
        await Promise.all(listeners.map((l) => l.opened));
        expect((await editUser(a, admin, userId, { disabled: true })).status).toBe(200);
        // 3,000 demo words take over a minute: the reply, its followers and the event streams end within seconds.
        const chunks = await within(reply.rest(), 10_000, "the end of the disabled user's reply");
        expect(chunks.find((c) => c.type === "message-metadata")?.messageMetadata).toMatchObject({
          status: "incomplete",
        });
        await within(Promise.all(followers.map((f) => f.text())), 10_000, "the end of the followers' streams");
        await pollUntil(
          async () => listeners.map((l) => l.ended()),
          (ended) => ended.every(Boolean),
          10_000,
        );
        for (const server of instances) expect(await read(server, session)).toBe(401);
      } finally {
        for (const listener of listeners) listener.close();
      }
      // Enabled again and signed in anew, Dan finds the reply stored as stopped, with why.
      expect((await editUser(a, admin, userId, { disabled: false })).status).toBe(200);
      const again = await signIn(a.url, dan);
      const view = (await (
        await fetch(`${a.url}/api/conversations/dan-long`, { headers: on(a, again) })
      ).json()) as ConversationView;
      const stored = view.messages.at(-1)!;
      expect(stored.metadata).toMatchObject({ status: "incomplete", error: expect.stringMatching(/disabled/) });
      expect(words(stored.parts.map((p) => p.text ?? "").join(" ")).length).toBeLessThan(3000);
      // And writes again at once, where the reply was stopped.
      const anew = await signIn(runs.url, dan);
      const next = await fetch(`${runs.url}/api/chat`, {
        method: "POST",
        headers: { ...on(runs, anew), "content-type": "application/json" },
        body: JSON.stringify({ id: "dan-again", message: userMessage("dan-2", "write 3 words about snow") }),
      });
      expect(next.status).toBe(200);
      expect((await chunkReader(next).rest()).some((c) => c.type === "finish")).toBe(true);
    });

    type Me = {
      budget: { tokensPerDay: number | null; usdPerMonth: number | null; source: Record<string, string> } | null;
      usage: { timeZone: string; day: { tokens: number; usd: number }; month: { tokens: number; usd: number } } | null;
    };
    const me = async (server: AppServer, who: SignedIn) =>
      (await (await fetch(`${server.url}/api/me`, { headers: on(server, who) })).json()) as Me;
    const post = (server: AppServer, who: SignedIn, path: string, body: object) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { ...on(server, who), "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const replyTo = async (server: AppServer, who: SignedIn, body: object) => {
      const response = await post(server, who, "/api/chat", body);
      expect(response.status).toBe(200);
      expect((await chunkReader(response).rest()).some((c) => c.type === "finish")).toBe(true);
    };
    /** The input and output tokens of every model call stored in a conversation's replies. */
    const storedTokens = async (server: AppServer, who: SignedIn, id: string) => {
      const view = (await (
        await fetch(`${server.url}/api/conversations/${id}`, { headers: on(server, who) })
      ).json()) as ConversationView & { agents?: { conversationId: string }[] };
      const calls = view.messages.flatMap(
        (m) =>
          ((m.metadata as { usage?: { inputTokens?: number; outputTokens?: number }[] })?.usage ?? []) as {
            inputTokens?: number;
            outputTokens?: number;
          }[],
      );
      const tokens = calls.reduce((sum, c) => sum + (c.inputTokens ?? 0) + (c.outputTokens ?? 0), 0);
      return { tokens, children: (view.agents ?? []).map((a) => a.conversationId) };
    };
    const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    /** Kiritimati is UTC+14 all year: its next midnight and next first of the month, read without the app's code. */
    const kiritimatiResets = (at: number) => {
      const local = new Date(at + 14 * 3600_000);
      const tomorrow = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + 1));
      const nextMonth = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1));
      return {
        day: `resets at 00:00 on ${tomorrow.getUTCDate()} ${MONTHS[tomorrow.getUTCMonth()]} (Pacific/Kiritimati)`,
        dayMs: tomorrow.getTime() - 14 * 3600_000,
        month: `resets at 00:00 on 1 ${MONTHS[nextMonth.getUTCMonth()]} (Pacific/Kiritimati)`,
      };
    };

    it("counts every model call of a member on either instance (a subagent's too), and refuses them over budget on the other with nothing stored", async () => {
      const eve = accountFor("Eve");
      const { userId } = await signUp(b.url, eve, await invite(a.url, admin));
      const onA = await signIn(a.url, eve);
      const onB = await signIn(b.url, eve);
      // No limit of her own: the environment's default dollars apply, no tokens limit; nothing spent yet.
      const fresh = await me(b, onB);
      expect(fresh.budget).toEqual({
        tokensPerDay: null,
        usdPerMonth: 1000,
        source: { tokensPerDay: "none", usdPerMonth: "default" },
      });
      expect(fresh.usage).toMatchObject({ timeZone: "UTC", day: { tokens: 0, usd: 0 }, month: { tokens: 0, usd: 0 } });
      // Her browser is in Kiritimati; the reply runs on A, and on B she delegates to a subagent.
      await replyTo(a, onA, {
        id: "eve-1",
        message: userMessage("eve-1-1", "write 40 words about tides"),
        timezone: "Pacific/Kiritimati",
      });
      const first = (await storedTokens(a, onA, "eve-1")).tokens;
      expect(first).toBeGreaterThan(0);
      const afterFirst = await me(b, onB);
      expect(afterFirst.usage).toMatchObject({ timeZone: "Pacific/Kiritimati", day: { tokens: first } });
      // The demo model is priced by HINTLINE_PRICE_INPUT ($1,000 per million tokens, output free).
      expect(afterFirst.usage!.month.usd).toBeGreaterThan(0);
      await replyTo(b, onB, { id: "eve-1", message: userMessage("eve-1-2", "delegate: write 12 words about reefs") });
      const parent = await storedTokens(b, onB, "eve-1");
      expect(parent.children).toHaveLength(1);
      const child = await storedTokens(b, onB, parent.children[0]!);
      expect(child.tokens).toBeGreaterThan(0);
      const spent = (await me(a, onA)).usage!;
      expect(spent.day.tokens).toBe(parent.tokens + child.tokens);

      // The admin sets her daily tokens to exactly what she spent: reached.
      const set = await editUser(a, admin, userId, { budget: { tokensPerDay: spent.day.tokens } });
      expect(set.status).toBe(200);
      expect(((await set.json()) as Me).budget).toMatchObject({ tokensPerDay: spent.day.tokens, usdPerMonth: 1000 });
      const messagesBefore = await countRows(a.databaseUrl, "Message", "conversationId", "eve-1");
      const before = Date.now();
      const refused = [
        await post(b, onB, "/api/chat", { id: "eve-1", message: userMessage("eve-1-3", "one more") }),
        await post(a, onA, "/api/chat", { id: "eve-new", message: userMessage("eve-new-1", "hello") }),
        await post(b, onB, "/api/chat", { id: "eve-1", continue: true }),
        await post(a, onA, "/api/conversations/eve-1/queue", {
          message: userMessage("eve-1-4", "queued"),
          when: "after-reply",
        }),
        await post(b, onB, "/api/conversations/eve-1/compact", {}),
      ];
      const resets = [kiritimatiResets(before), kiritimatiResets(Date.now())];
      for (const response of refused) {
        expect(response.status).toBe(429);
        const { error } = (await response.json()) as { error: { code: string; message: string } };
        expect(error.code).toBe("budget_exceeded");
        expect(error.message).toMatch(/^Your daily budget of [\d,]+ tokens is used up/);
        expect(resets.map((r) => r.day)).toContain(error.message.match(/resets at .*\)/)?.[0]);
        const wait = Number(response.headers.get("retry-after"));
        expect(wait).toBeGreaterThan(0);
        expect(Math.abs(wait * 1000 - (resets[0]!.dayMs - before))).toBeLessThan(60_000);
      }
      // Nothing of the refused requests is stored, on either database path.
      expect(await countRows(a.databaseUrl, "Message", "conversationId", "eve-1")).toBe(messagesBefore);
      expect(await countRows(a.databaseUrl, "Conversation", "id", "eve-new")).toBe(0);
      expect(await countRows(a.databaseUrl, "QueuedMessage", "conversationId", "eve-1")).toBe(0);
      expect((await me(a, onA)).usage!.day.tokens).toBe(spent.day.tokens);

      // Dollars: the month's reached names the first of next month in her zone.
      expect(
        (await editUser(b, admin, userId, { budget: { tokensPerDay: null, usdPerMonth: spent.month.usd } })).status,
      ).toBe(200);
      const monthly = await post(a, onA, "/api/chat", { id: "eve-1", message: userMessage("eve-1-5", "and now?") });
      expect(monthly.status).toBe(429);
      const { error } = (await monthly.json()) as { error: { message: string } };
      expect(error.message).toMatch(/^Your monthly budget of \$[\d.]+ is used up/);
      expect([kiritimatiResets(before).month, kiritimatiResets(Date.now()).month]).toContain(
        error.message.match(/resets at .*\)/)?.[0],
      );
      // Cleared, her own figures give way to the defaults again, and she writes once more.
      expect((await editUser(a, admin, userId, { budget: { usdPerMonth: null } })).status).toBe(200);
      expect((await me(b, onB)).budget).toMatchObject({ tokensPerDay: null, usdPerMonth: 1000 });
      await replyTo(b, onB, { id: "eve-1", message: userMessage("eve-1-6", "write 3 words about sand") });
      expect((await me(a, onA)).usage!.day.tokens).toBeGreaterThan(spent.day.tokens);
    }, 120_000);

    it("refuses an approval over budget (the reply would call its model again), leaving the call waiting", async () => {
      const gus = accountFor("Gus");
      const { userId } = await signUp(a.url, gus, await invite(a.url, admin));
      const session = await signIn(a.url, gus);
      // Two processes on one SQLite file share no reply lock: there the answer goes to A, where the reply runs.
      const answersOn = kind === "PostgreSQL" ? b : a;
      const everything = await startEverythingHttp();
      try {
        const workspace = await post(a, session, "/api/workspaces", { name: "Gus's tools" });
        const workspaceId = ((await workspace.json()) as { id: string }).id;
        const added = await post(a, session, `/api/workspaces/${workspaceId}/mcp-servers`, {
          name: "everything",
          url: everything.url,
          approval: "ask",
        });
        expect(added.status).toBe(201);
        const started = await post(a, session, "/api/chat", {
          id: "gus-1",
          workspaceId,
          message: userMessage("gus-1-1", 'mcp echo {"message":"hi"}'),
        });
        expect(started.status).toBe(200);
        const reader = chunkReader(started);
        await reader.until((c) => c.type === "tool-approval-request");
        const callId = reader.chunks.find((c) => c.type === "tool-approval-request")!.toolCallId as string;
        const spent = (await me(a, session)).usage!.day.tokens;
        expect(spent).toBeGreaterThan(0);
        expect((await editUser(a, admin, userId, { budget: { tokensPerDay: spent } })).status).toBe(200);
        const approve = () =>
          post(answersOn, session, `/api/conversations/gus-1/approvals/${callId}`, { approved: true });
        const refused = await approve();
        expect(refused.status).toBe(429);
        expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("budget_exceeded");
        const view = (await (
          await fetch(`${a.url}/api/conversations/gus-1`, { headers: on(a, session) })
        ).json()) as ConversationView;
        expect(view.messages.at(-1)?.parts.find((p) => p.type === "tool-mcp__everything__echo")).toMatchObject({
          state: "approval-requested",
        });
        expect((await me(a, session)).usage!.day.tokens).toBe(spent);
        // With room again, the same answer is taken and the reply goes on to its end.
        expect((await editUser(b, admin, userId, { budget: { tokensPerDay: null } })).status).toBe(200);
        expect((await approve()).status).toBe(200);
        expect((await reader.rest()).some((c) => c.type === "finish")).toBe(true);
      } finally {
        await everything.stop();
      }
    });

    it("refuses a budget that is not a non-negative finite number or null with a 400 naming the field, and changes nothing", async () => {
      const fay = accountFor("Fay");
      const { userId } = await signUp(a.url, fay, await invite(a.url, admin));
      const patchRaw = (server: AppServer, body: string) =>
        fetch(`${server.url}/api/admin/users/${userId}`, {
          method: "PATCH",
          headers: { ...on(server, admin), "content-type": "application/json" },
          body,
        });
      const cases: [string, string][] = [
        ['{"budget":{"tokensPerDay":-1}}', "budget.tokensPerDay"],
        ['{"budget":{"usdPerMonth":"5"}}', "budget.usdPerMonth"],
        ['{"budget":{"tokensPerDay":1e999}}', "budget.tokensPerDay"],
        ['{"budget":{"usdPerMonth":-0.01,"tokensPerDay":5}}', "budget.usdPerMonth"],
        ['{"budget":{"tokensPerDay":true}}', "budget.tokensPerDay"],
        ['{"budget":{"usdPerMonth":5,"hourly":3}}', "budget"],
        ['{"budget":null}', "budget"],
      ];
      for (const [i, [body, field]] of cases.entries()) {
        const response = await patchRaw(i % 2 ? b : a, body);
        expect(response.status, body).toBe(400);
        const { error } = (await response.json()) as { error: { code: string; field?: string; message: string } };
        expect(error, body).toMatchObject({ code: "bad_request", field });
        expect(error.message).toContain(field);
      }
      // A refused role change takes its budget with it; a member may not set budgets; an unknown user is a 404.
      expect((await editUser(a, admin, admin.userId, { admin: false, budget: { tokensPerDay: 5 } })).status).toBe(409);
      const fayOnB = await signIn(b.url, fay);
      expect((await editUser(b, fayOnB, userId, { budget: { tokensPerDay: null } })).status).toBe(404);
      expect((await editUser(b, admin, "no-such-user", { budget: { tokensPerDay: 5 } })).status).toBe(404);
      expect((await me(b, admin)).budget).toMatchObject({ tokensPerDay: null, usdPerMonth: 1000 });
      expect((await me(a, fayOnB)).budget).toMatchObject({ tokensPerDay: null, usdPerMonth: 1000 });
      // Accepted on B, listed on A with the usage of each user.
      const set = await editUser(b, admin, userId, { budget: { tokensPerDay: 2_500_000, usdPerMonth: 0 } });
      expect(set.status).toBe(200);
      const listed = (await (await fetch(`${a.url}/api/admin/users`, { headers: on(a, admin) })).json()) as ({
        id: string;
      } & Me)[];
      expect(listed.find((u) => u.id === userId)).toMatchObject({
        budget: { tokensPerDay: 2_500_000, usdPerMonth: 0, source: { tokensPerDay: "user", usdPerMonth: "user" } },
        usage: { day: { tokens: 0 }, month: { usd: 0 } },
      });
      // A limit of $0 allows nothing.
      const nothing = await post(a, fayOnB, "/api/chat", { id: "fay-1", message: userMessage("fay-1-1", "hi") });
      expect(nothing.status).toBe(429);
    });

    // Last: it changes the admin's role back and forth.
    it("keeps one enabled admin when two admins demote or disable each other at once on A and B", async () => {
      const zed = accountFor("Zed");
      const zedId = (await signUp(b.url, zed, await invite(a.url, admin))).userId;
      expect((await editUser(a, admin, zedId, { admin: true })).status).toBe(200);
      const sessions = { ann: admin, zed: await signIn(b.url, zed) };
      for (let round = 0; round < 16; round++) {
        // Even rounds demote, odd rounds disable: Ann on A acts on Zed while Zed on B acts on Ann.
        const change = round % 2 === 0 ? { admin: false } : { disabled: true };
        const [byAnn, byZed] = await Promise.all([
          editUser(a, sessions.ann, zedId, change),
          editUser(b, sessions.zed, admin.userId, change),
        ]);
        const statuses = [byAnn.status, byZed.status];
        // One wins; the other is refused (409: there must be an admin; or 404/401 when its own role or session went first).
        expect(
          statuses.filter((s) => s === 200),
          `round ${round}: ${statuses} ${await byAnn.text()} ${await byZed.text()}`,
        ).toHaveLength(1);
        const annWon = byAnn.status === 200;
        const [winner, winnerOn] = annWon ? [sessions.ann, a] : [sessions.zed, b];
        const listed = (await (
          await fetch(`${winnerOn.url}/api/admin/users`, { headers: on(winnerOn, winner) })
        ).json()) as { id: string; admin: boolean; disabled: boolean }[];
        expect(listed.filter((u) => u.admin && !u.disabled).map((u) => u.id)).toEqual([annWon ? admin.userId : zedId]);
        // The loser is made an admin again (and enabled, and signs in anew) for the next round.
        const loserId = annWon ? zedId : admin.userId;
        expect((await editUser(winnerOn, winner, loserId, { admin: true, disabled: false })).status).toBe(200);
        if (change.disabled) {
          if (annWon) sessions.zed = await signIn(b.url, zed);
          else sessions.ann = await signIn(a.url, accountFor("Ann"));
        }
      }
      admin = sessions.ann;
    }, 120_000);
  },
);
