import type http from "node:http";

export const SIGN_IN_BODY_LIMIT: number;
export const LINGER_MS: number;
export function isLoopbackHost(host: string): boolean;
export function listenHost(
  env?: Record<string, string | undefined>,
): { host: string; error?: undefined } | { error: string; host?: undefined };
export function bodyLimit(
  pathname: string,
  headers: http.IncomingHttpHeaders,
  env?: Record<string, string | undefined>,
): number;
export function apiPathHasDotSegment(target: string): boolean;
export function prepareRequest(req: http.IncomingMessage, res: http.ServerResponse, trustProxy?: boolean): boolean;
export function serve(options?: { port?: number; env?: Record<string, string | undefined> }): Promise<http.Server>;
