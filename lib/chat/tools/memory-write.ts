import { tool } from "ai";
import { z } from "zod";
import { MAX_MEMORY_ENTRY_CHARS } from "../../agent/workspace-limits.ts";
import { memoryEntryProblem } from "../../agent/workspace-text.ts";
import { ApiError } from "../../api/errors.ts";
import { getConversation } from "../../db/conversations.ts";
import { countMemory } from "../../db/memory.ts";
import { ownerMayEditWorkspace } from "../workspace-access.ts";
import { rememberEntry } from "../workspaces.ts";
import { textForModel, ToolError } from "../../agent/tool-result.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";
import { safeOutput, shownLine, workspaceOf } from "./workspace-tool-support.ts";

const memoryWriteInput = z.object({
  entry: z.string().describe("One concise line to remember: a preference, background fact, decision or key result"),
});
const memoryWriteSchema = lenientInputSchema(memoryWriteInput);
const EXAMPLE = '{"entry": "Prefers metric units"}';

export function memoryWriteTool(ctx: ToolContext) {
  return tool({
    description:
      "Append one line to the workspace's memory, kept across conversations. Use it when the person states a preference, a background fact or a decision, or a key result appears. Never add an entry that is already there (MemorySearch finds entries).",
    inputSchema: memoryWriteSchema,
    execute: async (raw) => {
      const toolName = "MemoryWrite";
      const call = ctx.nextCallNumber(toolName);
      const { entry } = parseToolInput(memoryWriteInput, raw, { toolName, call, example: EXAMPLE });
      const problem = memoryEntryProblem(entry, MAX_MEMORY_ENTRY_CHARS);
      if (problem) {
        const text = `InvalidArgumentsError: The entry ${problem}.`;
        throw new ToolError({
          type: "InvalidArgumentsError",
          text,
          args: raw,
          advice: `Send one concise line, like ${EXAMPLE}.`,
          toolName,
          call,
        });
      }
      const workspaceId = await workspaceOf(ctx);
      const conversation = await getConversation({ id: ctx.conversationId });
      if (!(await ownerMayEditWorkspace({ ownerId: conversation?.ownerId, workspaceId }))) {
        throw new ToolError({
          type: "WorkspaceReadOnlyError",
          text: "WorkspaceReadOnlyError: The entry was not saved. This workspace is shared with the person to use, and only its owner or an admin can change it; its memory goes into everyone's conversations, so the person's agent may not write it.",
          args: raw,
          advice:
            "Do not call MemoryWrite again in this workspace. Keep the fact in your reply (or in a task) for this conversation, and tell the person that the workspace's owner or an admin can add it to the memory.",
          toolName,
          call,
        });
      }
      try {
        const saved = await rememberEntry(workspaceId, entry, "agent", ctx.conversationId);
        const total = await countMemory({ workspaceId });
        const text = `Memory entry saved (${saved.id}): ${shownLine(saved.text)}\nThe workspace memory now holds ${total} entries.`;
        return safeOutput(toolName, call, text, { entryId: saved.id, entry: saved.text, total });
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== "conflict") throw error;
        const duplicate = error.message.startsWith("Memory already holds this entry");
        throw new ToolError({
          type: duplicate ? "DuplicateMemoryError" : "MemoryFullError",
          text: `${duplicate ? "DuplicateMemoryError" : "MemoryFullError"}: ${error.message}`,
          args: raw,
          advice: duplicate
            ? "The fact is already remembered: carry on without writing it again."
            : "Tell the person that the memory is full; they can delete entries.",
          toolName,
          call,
        });
      }
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
