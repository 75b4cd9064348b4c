// Applies a PATCH: a new title and/or settings merged into the stored ones and validated as a whole.
import { mergeSettings, validateSettings } from "../agent/settings.ts";
import { ApiError } from "../api/errors.ts";
import { getConversation, updateConversation } from "../db/conversations.ts";

export async function updateConversationFields(
  id: string,
  patch: { title?: string; settings?: Record<string, unknown> },
): Promise<void> {
  const conversation = await getConversation({ id });
  if (!conversation) throw new ApiError("not_found", `Conversation ${id} does not exist.`);
  let settings: object | undefined;
  if (patch.settings) {
    const merged = mergeSettings(conversation.settings, patch.settings);
    const check = validateSettings(merged);
    if (!check.ok) {
      // A problem with the settings object itself is already named "settings".
      const prefix = check.field === "settings" ? "" : "settings.";
      throw new ApiError("bad_request", `Invalid ${prefix}${check.message}.`, `${prefix}${check.field}`);
    }
    settings = merged;
  }
  await updateConversation({ id, title: patch.title, settings });
}
