"use client";
// The workspace settings view (/w/<id>): name, instructions with token counts against the budget, memory, knowledge
// files and skills. Changes reach running conversations as a Workspace hint and new ones in their system prompt.
import Link from "next/link";
import { useCallback, useState } from "react";
import type { WorkspaceSettings as Switches } from "@/lib/agent/workspace-settings";
import type { WorkspaceTokens } from "@/lib/chat/workspace-tokens";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { useWorkspacesStore } from "@/lib/stores/workspaces-store";
import { BUDGET_SOURCE_WORDS } from "../operator-screen-words";
import { useWordsFor } from "../operator-words";
import { KnowledgeSection } from "./knowledge-section";
import { McpSection } from "./mcp-section";
import { StateSection } from "./state-section";
import { MemorySection } from "./memory-section";
import { SkillsSection } from "./skills-section";
import { warnFailure } from "@/lib/client-log";

export type WorkspaceDetail = {
  id: string;
  name: string;
  instructions: string;
  settings: Switches;
  createdAt: string;
  updatedAt: string;
  tokens: WorkspaceTokens;
};

const n = (value: number) => value.toLocaleString("en-US");

/**
 * The budget line. One budget covers the workspace's instructions, memory, KNOWLEDGE.md and file list (and the skills
 * list and a conversation's own instructions and memory): memory is cut first, the instructions last.
 */
export function TokenFigures({ tokens }: { tokens: WorkspaceTokens }) {
  const wordsFor = useWordsFor();
  const fixed = tokens.instructions + tokens.knowledgeIndex;
  const left = Math.max(0, tokens.budget - fixed);
  const cut = tokens.memory > left;
  const used = Math.min(tokens.budget, fixed + Math.min(tokens.memory, left));
  const share = (part: number) => `${tokens.budget > 0 ? (part / tokens.budget) * 100 : 0}%`;
  return (
    <div
      data-testid="workspace-tokens"
      data-cut={cut}
      className="space-y-1.5 rounded-xl border border-border bg-elevated p-3 text-xs"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="font-medium">
          <span data-testid="tokens-used">{n(used)}</span> of{" "}
          <span data-testid="tokens-budget">{n(tokens.budget)}</span> tokens of the workspace budget
        </span>
        <span className="text-muted">
          instructions <span data-testid="tokens-instructions">{n(tokens.instructions)}</span> · knowledge index{" "}
          <span data-testid="tokens-knowledge">{n(tokens.knowledgeIndex)}</span> · memory{" "}
          <span data-testid="tokens-memory">{n(tokens.memory)}</span>
        </span>
      </div>
      <div className="flex h-1.5 overflow-hidden rounded-full bg-chip" aria-hidden="true">
        <div className="bg-accent" style={{ width: share(Math.min(fixed, tokens.budget)) }} />
        <div className="bg-accent/50" style={{ width: share(Math.min(tokens.memory, left)) }} />
      </div>
      <p data-testid="tokens-budget-source" className="text-faint">
        {wordsFor(BUDGET_SOURCE_WORDS)} at most a quarter of the context window: here the server model&apos;s{" "}
        <span data-testid="tokens-window">{n(tokens.window)}</span> tokens (a conversation with its own window gets its
        own budget).
      </p>
      {tokens.instructions > tokens.budget && (
        <p data-testid="instructions-over-budget" role="alert" className="text-danger">
          The instructions alone take {n(tokens.instructions)} tokens, more than the budget of {n(tokens.budget)} tokens
          worked out for a {n(tokens.window)}-token window. A conversation&apos;s system prompt then holds only their
          beginning, with a note that the agent reads the rest with InstructionsRead, and no memory, KNOWLEDGE.md, skill
          descriptions or file list. Shorten them, or move reference material into knowledge files.
        </p>
      )}
      {cut && (
        <p data-testid="tokens-cut" className="text-fg">
          Memory is larger than the {n(left)} tokens left: the system prompt holds the oldest entries that fit, says it
          was cut, and the agent searches the rest with MemorySearch.
        </p>
      )}
    </div>
  );
}

/** settings.memory.fromCompression: whether a compression may add durable facts to this workspace's memory. */
function FromCompressionSwitch({
  url,
  value,
  onSaved,
}: {
  url: string;
  value: boolean;
  onSaved: (detail: WorkspaceDetail) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  // Shown at once; put back when the server refuses.
  const [checked, setChecked] = useState(value);
  const change = async (fromCompression: boolean) => {
    setChecked(fromCompression);
    setError(null);
    try {
      onSaved(
        await apiFetch<WorkspaceDetail>(url, {
          method: "PATCH",
          body: JSON.stringify({ settings: { memory: { fromCompression } } }),
        }),
      );
    } catch (e) {
      setChecked(!fromCompression);
      setError(failureText(e));
    }
  };
  return (
    <div className="space-y-1 text-xs">
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          data-testid="workspace-memory-from-compression"
          checked={checked}
          onChange={(e) => void change(e.target.checked)}
          className="accent-accent"
        />
        Remember durable facts from conversations
      </label>
      <p className="text-muted">
        When a conversation is compressed or ends (idle, or archived), up to 5 facts (preferences, decisions, names)
        from your words and the agent's own — never from tool results or attachments — join this memory, marked “kept
        from your words” or “kept from the agent's words”; the compression chip lists a compression's with an Undo.
      </p>
      {error && (
        <p role="alert" className="text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

/** `editable`: false for a member on a shared workspace, which they use but only its owner or an admin changes. */
export function WorkspaceSettings({ initial, editable = true }: { initial: WorkspaceDetail; editable?: boolean }) {
  const [workspace, setWorkspace] = useState(initial);
  const [instructions, setInstructions] = useState(initial.instructions);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const url = `/api/workspaces/${encodeURIComponent(initial.id)}`;

  const reload = useCallback(async () => {
    try {
      setWorkspace(await apiFetch<WorkspaceDetail>(url));
    } catch (error) {
      // The figures stay as they were; the sections say what failed.
      warnFailure("reloading the workspace failed")(error);
    }
  }, [url]);

  const saveInstructions = async () => {
    setSaving(true);
    setMessage(null);
    try {
      await apiFetch(url, { method: "PATCH", body: JSON.stringify({ instructions }) });
      await reload();
      setMessage({
        error: false,
        text: "Instructions saved. Running conversations hear of it on their next reply; new ones start with it.",
      });
    } catch (e) {
      setMessage({ error: true, text: failureText(e, { kept: "text" }) });
    } finally {
      setSaving(false);
    }
  };

  const storedName = useWorkspacesStore((s) => s.workspaces.find((w) => w.id === initial.id)?.name);
  const dirty = instructions !== workspace.instructions;

  return (
    <div data-testid="workspace-settings" data-workspace-id={workspace.id} className="min-h-0 flex-1 overflow-y-auto">
      <div className="mx-auto max-w-3xl space-y-8 px-4 py-6 sm:px-6">
        <header className="space-y-1">
          <p className="text-xs text-muted">Workspace</p>
          <h1 data-testid="workspace-title" className="text-lg font-semibold">
            {storedName ?? workspace.name}
          </h1>
          {editable ? (
            <p className="text-xs text-muted">
              Rename or delete it with the buttons next to the workspace switcher.{" "}
              <Link href="/" className="text-accent underline">
                Start a chat in it
              </Link>
              .
            </p>
          ) : (
            <p data-testid="workspace-read-only" className="text-xs text-muted">
              Shared with you to use: its instructions, memory, knowledge, skills and tools reach your conversations in
              it, and only its owner or an admin can change them.{" "}
              <Link href="/" className="text-accent underline">
                Start a chat in it
              </Link>
              .
            </p>
          )}
        </header>
        <TokenFigures tokens={workspace.tokens} />
        {/* A disabled fieldset disables every control in it: a member sees what the agent is given, and nothing that would be refused. */}
        <fieldset disabled={!editable} data-testid="workspace-editors" className="min-w-0 space-y-8">
          <section aria-labelledby="instructions-heading" className="space-y-2">
            <h2 id="instructions-heading" className="text-sm font-semibold">
              Instructions
            </h2>
            <p className="text-xs text-muted">
              Standing instructions for every conversation in this workspace (a conversation's own prompt setting still
              wins).
            </p>
            <textarea
              data-testid="workspace-instructions"
              aria-labelledby="instructions-heading"
              value={instructions}
              rows={6}
              maxLength={50_000}
              onChange={(e) => setInstructions(e.target.value)}
              className="w-full rounded-lg border border-border bg-elevated px-3 py-2 font-mono text-sm outline-none focus:border-accent/60"
            />
            <div className="flex items-center gap-3">
              <button
                type="button"
                data-testid="workspace-instructions-save"
                disabled={!dirty || saving}
                onClick={() => void saveInstructions()}
                className="rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-accent-fg disabled:opacity-50"
              >
                Save instructions
              </button>
              <span className="text-xs text-faint">
                {n(instructions.length)} characters
                {dirty ? " · unsaved" : ` · ${n(workspace.tokens.instructions)} tokens`}
              </span>
            </div>
            {message && (
              <p
                role={message.error ? "alert" : "status"}
                data-testid="workspace-instructions-message"
                className={`text-xs ${message.error ? "text-danger" : "text-muted"}`}
              >
                {message.text}
              </p>
            )}
          </section>
          <FromCompressionSwitch url={url} value={workspace.settings.memory.fromCompression} onSaved={setWorkspace} />
          <MemorySection workspaceId={workspace.id} onChanged={() => void reload()} />
          <KnowledgeSection workspaceId={workspace.id} onChanged={() => void reload()} />
          <SkillsSection workspaceId={workspace.id} isDefault={workspace.id === "default"} />
          <McpSection workspaceId={workspace.id} />
          <StateSection workspaceId={workspace.id} />
        </fieldset>
      </div>
    </div>
  );
}
