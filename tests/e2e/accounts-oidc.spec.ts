// OIDC sign-in in a real browser, with the issuer on another site (localhost, the app on 127.0.0.1): the state cookie
// must come back on the issuer's cross-site redirect (SameSite=Lax), and the SameSite=Strict session cookie must be
// sent on the way on to "/", which a redirect from that cross-site navigation would not do (the callback answers a
// page that moves on by itself). The person ends on the app signed in, not on the sign-in page.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { type OidcIssuer, startOidcIssuer } from "../support/oidc-issuer";
import { type AppProcess, migrateDatabase, startApp } from "./support/app-process";

const PORT = (Number(process.env.HINTLINE_E2E_PORT_BASE) || 3400) + 6;

test.describe("OIDC sign-in in a browser", () => {
  let app: AppProcess | undefined;
  let issuer: OidcIssuer | undefined;
  test.afterEach(async () => {
    app?.child.kill("SIGKILL");
    await issuer?.close();
  });

  test("the issuer's redirect back lands on the app signed in", async ({ page, context }) => {
    test.setTimeout(120_000);
    issuer = await startOidcIssuer({ user: { sub: "sub-ann", email: "ann@idp.test", name: "Ann" }, host: "localhost" });
    const databaseUrl = `file:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hintline-e2e-oidc-")), "app.db")}`;
    migrateDatabase(databaseUrl);
    const env = {
      HINTLINE_AUTH: "accounts",
      HINTLINE_OIDC_ISSUER: issuer.url,
      HINTLINE_OIDC_CLIENT_ID: issuer.clientId,
      HINTLINE_OIDC_CLIENT_SECRET: issuer.clientSecret,
    };
    app = await startApp({ port: PORT, databaseUrl, env });

    // The person leaves from the sign-in page's button and presses Continue on the issuer's page: the way back is that
    // page's navigation.
    issuer.consent = true;
    await page.goto(`${app.url}/sign-in`);
    await page.getByTestId("auth-oidc").click();
    await expect(page).toHaveURL(new RegExp(`^${issuer.url}/authorize`));
    await page.getByTestId("issuer-continue").click();
    // "/" opens a new conversation for a signed-in person; anyone else is sent to /sign-in.
    await expect(page).toHaveURL(new RegExp(`^${app.url}/c/[\\w-]+$`));
    expect(issuer.tokenRequests).toHaveLength(1);
    const session = (await context.cookies(app.url)).find((cookie) => cookie.name === "hintline.session_token");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    const me = await page.evaluate(async () => (await fetch("/api/auth/get-session")).json());
    expect(me.user.email).toBe("ann@idp.test");

    // A second person, with no invitation, comes back to the sign-in page told why, with no session. They use a new
    // tab: the first person's page could still start a navigation of its own (it did in CI, and the goto below was
    // aborted with net::ERR_ABORTED), and a closed page starts none.
    await page.close();
    await context.clearCookies();
    issuer.user = { sub: "sub-ben", email: "ben@idp.test", name: "Ben" };
    const second = await context.newPage();
    await second.goto(`${app.url}/sign-in`);
    await expect(second.getByTestId("auth-oidc")).toHaveText(`Continue with ${new URL(issuer.url).host}`);
    await second.getByTestId("auth-oidc").click();
    await second.getByTestId("issuer-continue").click();
    await expect(second).toHaveURL(new RegExp(`^${app.url}/sign-in`));
    await expect(second.getByTestId("auth-error")).toHaveText("Signing up needs an invitation link from an admin.");
    expect((await context.cookies(app.url)).some((cookie) => cookie.name === "hintline.session_token")).toBe(false);
  });
});
