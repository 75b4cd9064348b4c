// Drives the OpenAI fake (run by playwright.config.ts as its own process) through its /__fake/* control API.
import { type APIRequestContext, expect } from "@playwright/test";
import { FAKE_APP_PORT, FAKE_PORT } from "../../../playwright.config";
import type { FakeReply, RecordedRequest } from "../../support/openai-fake";

export const FAKE_URL = `http://127.0.0.1:${FAKE_PORT}`;
/** The app instance that talks to the fake (HINTLINE_MAX_RETRIES=1, so a failure needs two failed calls). */
export const FAKE_APP_URL = `http://127.0.0.1:${FAKE_APP_PORT}`;

export async function resetFake(request: APIRequestContext): Promise<void> {
  const response = await request.post(`${FAKE_URL}/__fake/reset`);
  expect(response.ok(), await response.text()).toBe(true);
}

export async function enqueueReplies(request: APIRequestContext, replies: FakeReply[]): Promise<void> {
  const response = await request.post(`${FAKE_URL}/__fake/enqueue`, { data: replies });
  expect(response.ok(), await response.text()).toBe(true);
}

export async function recordedRequests(request: APIRequestContext): Promise<RecordedRequest[]> {
  const response = await request.get(`${FAKE_URL}/__fake/requests`);
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as RecordedRequest[];
}

/** The chat-completion requests the fake has received since its last reset, oldest first. */
export async function chatRequests(request: APIRequestContext): Promise<RecordedRequest[]> {
  return (await recordedRequests(request)).filter((r) => r.path === "/v1/chat/completions");
}
