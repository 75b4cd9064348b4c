// Applies a PATCH: a new title and/or settings merged into the stored ones and validated as a whole, a mode switch,
// a model switch, the person's edit of the plan (a new version), pinning and archiving (which keeps the conversation's
// durable facts). Everything is checked before anything is written.
import { type ConversationMode, PLAN_VERSIONS_KEPT } from "../agent/plan-mode.ts";
import { mergeSettings, validateSettings } from "../agent/settings.ts";
import { ApiError } from "../api/errors.ts";
import {
  getConversation,
  setConversationFlags,
  setConversationMode,
  setConversationModel,
  updateConversation,
} from "../db/conversations.ts";
import { savePlanVersion } from "../db/plans.ts";
import { hasImage } from "../agent/attachments.ts";
import { takesImages } from "../ai/context-windows.ts";
import { defaultModelId } from "../ai/providers/choice.ts";
import { listMessages } from "../db/messages.ts";
import { checkModelChoice } from "./conversation-model.ts";
import { keepFactsAfterArchive } from "./conversation-end-memory.ts";

/**
 * A conversation that holds images cannot switch to a model that takes none: every later call would send it the images.
 * The messages are read only for such a switch.
 */
async function checkImagesForSwitch(id: string, modelId: string): Promise<void> {
  if (takesImages(modelId)) return;
  const messages = await listMessages({ conversationId: id });
  if (!messages.some((m) => m.role === "user" && hasImage(m.parts))) return;
  throw new ApiError(
    "bad_request",
    `Invalid model: this conversation holds images and ${modelId} does not take images; keep a model that does, or start a new conversation for ${modelId}.`,
    "model",
  );
}

export async function updateConversationFields(
  id: string,
  patch: {
    title?: string;
    settings?: Record<string, unknown>;
    mode?: ConversationMode;
    plan?: { content: string };
    model?: string | null;
    pinned?: boolean;
    archived?: boolean;
  },
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
  // null: back to the default model. A model the environment cannot serve is refused (400 naming what to set).
  const model = patch.model === undefined || patch.model === null ? patch.model : checkModelChoice(patch.model);
  if (model !== undefined && model !== conversation.model) await checkImagesForSwitch(id, model ?? defaultModelId());
  if (patch.title !== undefined || settings !== undefined)
    await updateConversation({ id, title: patch.title, settings });
  // The plan first: "Approve and build" with an edit sends both, and the BUILD reminder carries the edited plan.
  if (patch.plan)
    await savePlanVersion({
      conversationId: id,
      content: patch.plan.content,
      author: "person",
      keep: PLAN_VERSIONS_KEPT,
    });
  if (patch.mode && patch.mode !== conversation.mode) await setConversationMode({ id, mode: patch.mode });
  if (model !== undefined && model !== conversation.model) await setConversationModel({ id, model });
  // Organising is not activity: the conversation keeps its place in time (a rename or reply moves it).
  if (patch.pinned !== undefined || patch.archived !== undefined) {
    const { updatedAt } = (await getConversation({ id })) ?? conversation;
    await setConversationFlags({ id, pinned: patch.pinned, archived: patch.archived, updatedAt: new Date(updatedAt) });
  }
  // Archiving ends the conversation: the durable facts of its words not offered yet are kept.
  if (patch.archived === true) keepFactsAfterArchive(id);
}
