// An OpenTelemetry collector's OTLP/HTTP trace endpoint on a real HTTP server (node:http only): it takes the JSON the
// OTLP/HTTP exporter posts to /v1/traces (gzipped or not) and keeps every span, flattened, with its resource's
// attributes and the headers it came with. `hang` makes it take requests and never answer (a collector that is down
// behind a load balancer).
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { gunzipSync } from "node:zlib";

type AttributeValue = string | number | boolean | AttributeValue[] | undefined;
export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, AttributeValue>;
  events: Array<{ name: string; attributes: Record<string, AttributeValue> }>;
  /** 0 unset, 1 ok, 2 error. */
  status: number;
  resource: Record<string, AttributeValue>;
};
export type OtlpReceiver = {
  url: string;
  spans: ReceivedSpan[];
  headers: IncomingHttpHeaders[];
  hang: boolean;
  close: () => Promise<void>;
};

type OtlpValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
};
type OtlpAttribute = { key: string; value?: OtlpValue };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: OtlpAttribute[];
  events?: Array<{ name: string; attributes?: OtlpAttribute[] }>;
  status?: { code?: number };
};
type OtlpRequest = {
  resourceSpans?: Array<{ resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
};

const MAX_BODY_BYTES = 32 * 1024 * 1024;

function plainValue(value: OtlpValue | undefined): AttributeValue {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  return value.arrayValue?.values?.map(plainValue);
}

const attributesOf = (list: OtlpAttribute[] | undefined) =>
  Object.fromEntries((list ?? []).map((a) => [a.key, plainValue(a.value)]));

function spansOf(request: OtlpRequest): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
        name: span.name,
        attributes: attributesOf(span.attributes),
        events: (span.events ?? []).map((e) => ({ name: e.name, attributes: attributesOf(e.attributes) })),
        status: span.status?.code ?? 0,
        resource,
      })),
    );
  });
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const sockets = new Set<Socket>();
  const receiver = { spans: [], headers: [], hang: false } as unknown as OtlpReceiver;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => {
      if (receiver.hang) return;
      if (req.method !== "POST" || req.url !== "/v1/traces" || size > MAX_BODY_BYTES) {
        res.writeHead(size > MAX_BODY_BYTES ? 413 : 404).end();
        return;
      }
      try {
        const raw = Buffer.concat(chunks);
        const body = req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
        receiver.spans.push(...spansOf(JSON.parse(body.toString("utf8")) as OtlpRequest));
        receiver.headers.push(req.headers);
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return receiver;
}
