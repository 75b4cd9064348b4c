import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiRequestError, apiFetch } from "./api-client.ts";

// A real HTTP server whose answers go wrong the ways a restarted server or a stray proxy make them go wrong.
let server: http.Server;
let base = "";

beforeAll(async () => {
  server = http.createServer((request, response) => {
    switch (request.url) {
      case "/cut":
        // Headers and half a JSON list, then the process is gone: the browser says ERR_INCOMPLETE_CHUNKED_ENCODING.
        response.writeHead(200, { "content-type": "application/json" });
        response.write('[{"id":"c1","title":"first"},');
        setTimeout(() => response.socket?.destroy(), 20);
        return;
      case "/html":
        response.writeHead(200, { "content-type": "text/html" }).end("<html>a proxy's page</html>");
        return;
      case "/empty":
        response.writeHead(200).end();
        return;
      case "/list":
        response.writeHead(200, { "content-type": "application/json" }).end('[{"id":"c1"}]');
        return;
      case "/refused":
        response
          .writeHead(400, { "content-type": "application/json" })
          .end('{"error":{"code":"invalid_body","message":"title is too long","field":"title"}}');
        return;
      default:
        response.writeHead(502, { "content-type": "text/html" }).end("<html>bad gateway</html>");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const failure = (url: string) =>
  apiFetch(`${base}${url}`).then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error as ApiRequestError,
  );

describe("apiFetch", () => {
  it("returns the parsed body of a good answer, and nothing for an empty one", async () => {
    expect(await apiFetch(`${base}/list`)).toEqual([{ id: "c1" }]);
    expect(await apiFetch(`${base}/empty`)).toBeUndefined();
  });

  it("treats a 200 whose body was cut off as an unreachable server, never as null data", async () => {
    const error = await failure("/cut");
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error.code).toBe("unreachable");
    expect(error.message).toMatch(/^Can't reach the server/);
  });

  it("refuses a 200 whose body is not JSON, in words", async () => {
    const error = await failure("/html");
    expect(error).toMatchObject({ status: 200, code: "bad_response" });
    expect(error.message).toMatch(/could not be read \(HTTP 200\)/);
  });

  it("throws the server's own reason for a refusal, and a plain one when its body is not JSON", async () => {
    expect(await failure("/refused")).toMatchObject({
      status: 400,
      code: "invalid_body",
      message: "title is too long",
      field: "title",
    });
    expect(await failure("/gateway")).toMatchObject({
      status: 502,
      code: "error",
      message: expect.stringMatching(/^The server failed \(HTTP 502\)/),
    });
  });
});
