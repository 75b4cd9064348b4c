// Accounts mode on two instances sharing one database (a SQLite file both processes open, and PostgreSQL when
// TEST_POSTGRES_URL is set): sessions live in the database, so a cookie from A works on B, an admin disabling a user
// on A signs them out on B at once (and stops their reply and closes their streams there, on PostgreSQL), a sign-out
// on B is refused on A, and two admins demoting or disabling each other at once on A and B leave one admin.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountFor, invite, postAuth, type SignedIn, signIn, signUp } from "../support/accounts-client.ts";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chunkReader, listenToEvents } from "../support/chat-client.ts";
import { type ConversationView, databaseKinds, pollUntil, userMessage, words } from "./helpers.ts";

const env = { HINTLINE_AUTH: "accounts" };

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
