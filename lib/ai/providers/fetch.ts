// The fetch every provider call makes: no redirects, and usage figures that are not numbers dropped.
import { withNumericUsage } from "../numeric-usage.ts";

/**
 * The provider's fetch, refusing redirects. A model endpoint that redirects is misconfigured, and to be able to
 * follow one, fetch first copies the request body (the whole conversation) on every model call.
 */
export const fetchWithoutRedirects: typeof fetch = (input, init) => fetch(input, { ...init, redirect: "error" });

export const providerFetch: typeof fetch = (input, init) => fetchWithoutRedirects(input, init).then(withNumericUsage);

export type Env = Record<string, string | undefined>;

/** A setting's value, or undefined when it is unset or blank. */
export const setting = (env: Env, name: string): string | undefined => env[name]?.trim() || undefined;

export const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, "");
