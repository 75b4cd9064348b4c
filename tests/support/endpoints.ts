// Every route the app serves, read from its files, so that a table of requests can be checked to cover them all (a
// route added without a row fails the tables' meta-tests: tests/api/access.test.ts, tests/api/accounts-isolation.test.ts).
import fs from "node:fs";
import path from "node:path";

/** Every route file under app/api and every page under app, with the methods it serves, e.g. "PATCH /api/conversations/[id]". */
export function servedEndpoints(): string[] {
  const root = path.resolve(import.meta.dirname, "../../app");
  const files = fs
    .readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => /(^|\/)(route\.ts|page\.tsx)$/.test(f));
  return files.flatMap((file) => {
    const url = `/${path.dirname(file)}`.replace(/\/\.$/, "") || "/";
    if (file.endsWith("page.tsx")) return [`GET ${url}`];
    const source = fs.readFileSync(path.join(root, file), "utf8");
    return [...source.matchAll(/export (?:const|async function) (GET|POST|PUT|PATCH|DELETE)\b/g)].map(
      (m) => `${m[1]} ${url}`,
    );
  });
}

/** Whether an endpoint ("PATCH /api/conversations/[id]") serves a request (method and concrete path). */
export function covers(endpoint: string, method: string, url: string): boolean {
  const [m, pattern] = endpoint.split(" ") as [string, string];
  return (
    m === method &&
    new RegExp(`^${pattern.replace(/\[\.\.\.[^\]]+\]/g, ".+").replace(/\[[^\]]+\]/g, "[^/]+")}$`).test(url)
  );
}
