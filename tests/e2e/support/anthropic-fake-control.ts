// Drives the Anthropic fake (run by playwright.config.ts as its own process, the fake app's second provider) through
// its /__fake/* control API, the same as the OpenAI fake's.
import { type APIRequestContext, expect } from "@playwright/test";
import { ANTHROPIC_FAKE_PORT } from "../../../playwright.config";
import type { FakeReply, RecordedRequest } from "../../support/fake-core";

export const ANTHROPIC_FAKE_URL = `http://127.0.0.1:${ANTHROPIC_FAKE_PORT}`;

export async function resetAnthropicFake(request: APIRequestContext): Promise<void> {
  const response = await request.post(`${ANTHROPIC_FAKE_URL}/__fake/reset`);
  expect(response.ok(), await response.text()).toBe(true);
}

export async function enqueueAnthropicReplies(request: APIRequestContext, replies: FakeReply[]): Promise<void> {
  const response = await request.post(`${ANTHROPIC_FAKE_URL}/__fake/enqueue`, { data: replies });
  expect(response.ok(), await response.text()).toBe(true);
}

/** The Messages API requests the fake has received since its last reset, oldest first. */
export async function anthropicRequests(request: APIRequestContext): Promise<RecordedRequest[]> {
  const response = await request.get(`${ANTHROPIC_FAKE_URL}/__fake/requests`);
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as RecordedRequest[]).filter((r) => r.path === "/v1/messages");
}
