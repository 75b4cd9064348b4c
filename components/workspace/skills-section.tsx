"use client";
// A workspace's skills: a name (its kebab-case id made from what the person types), one-line description, markdown
// instructions the agent loads on demand.
import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import { slugFromName } from "@/lib/agent/workspace-text";
import { apiFetch, failureText } from "@/lib/stores/api-client";
import { PencilIcon, PlusIcon, TrashIcon } from "../ui/icons";

type Skill = { name: string; description: string; instructions: string };

const field =
  "w-full rounded-lg border border-border bg-elevated px-3 py-1.5 text-sm outline-none focus:border-accent/60";

function SkillForm({
  initial,
  onSubmit,
  onCancel,
}: {
  initial?: Skill;
  onSubmit: (skill: Skill) => Promise<string | null>;
  onCancel: () => void;
}) {
  const [name, setName] = useState(initial?.name ?? "");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [instructions, setInstructions] = useState(initial?.instructions ?? "");
  const [error, setError] = useState<string | null>(null);
  const slugNoteId = useId();
  const slug = slugFromName(name);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // A person names the skill as they like; its id is made from the name ("Packing List" → packing-list).
    const skill = { name: initial?.name ?? slugFromName(name), description: description.trim(), instructions };
    if (!skill.name) return setError("Give the skill a name with at least one letter or digit (a–z, 0–9).");
    if (!skill.description) return setError("Describe in one line when the skill is useful.");
    if (!skill.instructions.trim()) return setError("Write the instructions (markdown) the agent follows.");
    setError(await onSubmit(skill));
  };
  return (
    <form
      data-testid="skill-form"
      onSubmit={(e) => void submit(e)}
      className="space-y-2 rounded-lg border border-border p-3"
    >
      <label className="block text-xs font-medium text-muted">
        Name
        <input
          data-testid="skill-name-input"
          value={name}
          disabled={!!initial}
          maxLength={120}
          placeholder="Weekly report"
          aria-describedby={initial ? undefined : slugNoteId}
          onChange={(e) => setName(e.target.value)}
          className={`${field} mt-1 disabled:opacity-60`}
        />
      </label>
      {!initial && (
        <p id={slugNoteId} data-testid="skill-slug" className="text-xs text-muted">
          {slug ? (
            <>
              The agent loads it as <span className="font-mono">{slug}</span>
            </>
          ) : (
            "The agent loads it by an id made from the name, like weekly-report."
          )}
        </p>
      )}
      <label className="block text-xs font-medium text-muted">
        Description (one line)
        <input
          data-testid="skill-description-input"
          value={description}
          maxLength={300}
          onChange={(e) => setDescription(e.target.value.replace(/[\r\n]+/g, " "))}
          className={`${field} mt-1`}
        />
      </label>
      <label className="block text-xs font-medium text-muted">
        Instructions (markdown)
        <textarea
          data-testid="skill-instructions-input"
          value={instructions}
          rows={6}
          maxLength={50_000}
          onChange={(e) => setInstructions(e.target.value)}
          className={`${field} mt-1 font-mono`}
        />
      </label>
      {error && (
        <p role="alert" data-testid="skill-error" className="text-xs text-danger">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <button
          type="submit"
          data-testid="skill-save"
          className="rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-accent-fg"
        >
          {initial ? "Save skill" : "Create skill"}
        </button>
        <button type="button" className="rounded-lg border border-border px-3 py-1.5 text-sm" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * The skills of a workspace, or (`endpoint` "/api/me/skills", with its own `intro`) the signed-in person's own, which
 * reach every workspace of theirs.
 */
export function SkillsSection({
  workspaceId,
  isDefault,
  endpoint,
  intro,
}: {
  workspaceId?: string;
  isDefault?: boolean;
  endpoint?: string;
  intro?: string;
}) {
  const [skills, setSkills] = useState<Skill[] | null>(null);
  const [editing, setEditing] = useState<string | "new" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const base = endpoint ?? `/api/workspaces/${encodeURIComponent(workspaceId ?? "default")}/skills`;

  const load = useCallback(async () => {
    try {
      setSkills(await apiFetch<Skill[]>(base));
    } catch (e) {
      setError(failureText(e));
    }
  }, [base]);
  useEffect(() => void load(), [load]);

  const save = async (skill: Skill, existing: boolean): Promise<string | null> => {
    try {
      if (existing) {
        await apiFetch(`${base}/${skill.name}`, {
          method: "PATCH",
          body: JSON.stringify({ description: skill.description, instructions: skill.instructions }),
        });
      } else {
        await apiFetch(base, { method: "POST", body: JSON.stringify(skill) });
      }
      setEditing(null);
      await load();
      return null;
    } catch (e) {
      return failureText(e, { kept: "skill" });
    }
  };

  const remove = async (name: string) => {
    setError(null);
    try {
      await apiFetch(`${base}/${name}`, { method: "DELETE" });
      await load();
    } catch (e) {
      setError(failureText(e));
    }
  };

  return (
    <section data-testid="skills-section" aria-labelledby="skills-heading" className="space-y-2">
      <div className="flex items-baseline justify-between">
        <h2 id="skills-heading" className="text-sm font-semibold">
          Skills <span className="font-normal text-faint">{skills ? `· ${skills.length}` : ""}</span>
        </h2>
        {editing !== "new" && (
          <button
            type="button"
            data-testid="skill-new"
            className="flex items-center gap-1 text-xs text-muted hover:text-fg"
            onClick={() => setEditing("new")}
          >
            <PlusIcon width={12} height={12} /> New skill
          </button>
        )}
      </div>
      <p className="text-xs text-muted">
        The agent sees each skill's name and description and loads its instructions when one fits the task.
        {intro ??
          (isDefault
            ? " Skills of the default workspace are visible in every workspace."
            : " Skills of the default workspace are visible here too; one of the same name here wins.")}
      </p>
      {editing === "new" && <SkillForm onSubmit={(s) => save(s, false)} onCancel={() => setEditing(null)} />}
      <ul data-testid="skill-list" data-loaded={skills !== null} className="space-y-1">
        {skills?.length === 0 && editing !== "new" && <li className="text-sm text-muted">No skills yet.</li>}
        {skills?.map((s) =>
          editing === s.name ? (
            <li key={s.name}>
              <SkillForm initial={s} onSubmit={(edited) => save(edited, true)} onCancel={() => setEditing(null)} />
            </li>
          ) : (
            <li
              key={s.name}
              data-testid="skill-item"
              data-name={s.name}
              className="flex items-start gap-2 rounded-lg px-2 py-1.5 hover:bg-chip/50"
            >
              <div className="min-w-0 flex-1">
                <p className="font-mono text-xs font-medium">{s.name}</p>
                <p className="text-xs text-muted">{s.description}</p>
              </div>
              <button
                type="button"
                data-testid="skill-edit"
                aria-label={`Edit skill ${s.name}`}
                className="rounded-md p-1.5 text-muted hover:bg-bg hover:text-fg"
                onClick={() => setEditing(s.name)}
              >
                <PencilIcon />
              </button>
              <button
                type="button"
                data-testid="skill-delete"
                aria-label={`Delete skill ${s.name}`}
                className="rounded-md p-1.5 text-muted hover:bg-bg hover:text-danger"
                onClick={() => void remove(s.name)}
              >
                <TrashIcon />
              </button>
            </li>
          ),
        )}
      </ul>
      {error && (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      )}
    </section>
  );
}
