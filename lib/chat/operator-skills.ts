// The operator's skills: a read-only folder (HINTLINE_SKILLS_DIR) of `<name>/SKILL.md` files, each with a small front
// matter (`name:`, `description:`) above its markdown instructions, and any other files beside it as resources the
// agent loads by path. They rank below `default`'s skills: a workspace's own skill wins, then default's, then these.
// Nothing in Hintline writes to the folder. It is read again when it changed: at most every HINTLINE_SKILLS_CHECK_MS
// (default 5 s) a look at the folder's listing and each SKILL.md's size and time (never the files' text) says whether
// it did. Its content's revision is part of the workspace revision a conversation sees (lib/chat/workspace-view.ts), so
// a change reaches running conversations as a Workspace hint, as a change to a workspace's own skills does.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { envNumber } from "../env-number.ts";
import { MAX_SKILL_DESCRIPTION_CHARS, MAX_SKILL_INSTRUCTIONS_CHARS, MAX_SKILLS } from "../agent/workspace-limits.ts";
import { SKILL_NAME_PATTERN } from "../agent/workspace-text.ts";

export const OPERATOR_SKILLS_ORIGIN = "operator";
/** A resource file the agent may read, at most this many bytes. */
export const MAX_SKILL_RESOURCE_BYTES = 1024 * 1024;

export type OperatorSkill = { name: string; description: string; instructions: string; dir: string };

/** The front matter's `name` and `description` and the body after it; null when SKILL.md has none. */
export function parseSkillFile(text: string): { name: string; description: string; body: string } | null {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return null;
  const fields = new Map<string, string>();
  for (const line of match[1]!.split(/\r?\n/)) {
    const field = /^([A-Za-z_-]+):\s*(.*)$/.exec(line);
    if (field) fields.set(field[1]!.toLowerCase(), field[2]!.trim().replace(/^(["'])(.*)\1$/, "$2"));
  }
  const name = fields.get("name") ?? "";
  const description = fields.get("description") ?? "";
  return { name, description, body: text.slice(match[0].length).trim() };
}

/** Why a skill folder is left out, or null when it is usable. */
function problemOf(folder: string, parsed: ReturnType<typeof parseSkillFile>): string | null {
  if (!parsed) return "SKILL.md has no front matter (--- name: … description: … ---)";
  if (parsed.name !== folder) return `its name "${parsed.name}" is not its folder's name`;
  if (!SKILL_NAME_PATTERN.test(parsed.name)) return "its name is not kebab-case";
  if (!parsed.description || /[\r\n\u0085\u2028\u2029]/.test(parsed.description))
    return "it has no one-line description";
  if (parsed.description.length > MAX_SKILL_DESCRIPTION_CHARS)
    return `its description is over ${MAX_SKILL_DESCRIPTION_CHARS} characters`;
  if (parsed.body.length > MAX_SKILL_INSTRUCTIONS_CHARS)
    return `its instructions are over ${MAX_SKILL_INSTRUCTIONS_CHARS} characters`;
  return null;
}

export type OperatorSkillsLoad = { skills: OperatorSkill[]; skipped: { folder: string; reason: string }[] };

/** Reads a skills folder: every usable `<name>/SKILL.md`, by name, at most MAX_SKILLS; what was left out and why. */
export function loadOperatorSkills(root: string): OperatorSkillsLoad {
  const skills: OperatorSkill[] = [];
  const skipped: OperatorSkillsLoad["skipped"] = [];
  let folders: string[];
  try {
    folders = fs
      .readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch (error) {
    return { skills, skipped: [{ folder: root, reason: `the folder cannot be read (${(error as Error).message})` }] };
  }
  for (const folder of folders) {
    const file = path.join(root, folder, "SKILL.md");
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      skipped.push({ folder, reason: "it has no SKILL.md" });
      continue;
    }
    const parsed = parseSkillFile(text);
    const problem = problemOf(folder, parsed);
    if (problem || !parsed) skipped.push({ folder, reason: problem ?? "unreadable" });
    else if (skills.length >= MAX_SKILLS) skipped.push({ folder, reason: `over the limit of ${MAX_SKILLS} skills` });
    else
      skills.push({
        name: parsed.name,
        description: parsed.description,
        instructions: parsed.body,
        dir: path.join(root, folder),
      });
  }
  return { skills, skipped };
}

/** How often the folder is looked at for a change, at most (ms). */
export const DEFAULT_SKILLS_CHECK_MS = 5_000;

/**
 * What says whether the folder changed, without reading any SKILL.md: its subfolders, and each one's SKILL.md size,
 * time and inode. Resources beside SKILL.md are read when loaded, so they need no watching.
 */
export function folderSignature(root: string): string {
  let folders: string[];
  try {
    folders = fs
      .readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch (error) {
    return `unreadable:${(error as NodeJS.ErrnoException).code ?? ""}`;
  }
  return folders
    .map((folder) => {
      try {
        const stat = fs.statSync(path.join(root, folder, "SKILL.md"));
        return `${folder}:${stat.size}:${stat.mtimeMs}:${stat.ino}`;
      } catch {
        return `${folder}:-`;
      }
    })
    .join("\n");
}

/** The skills' content as a short hash: the same skills give the same revision in every process. */
function revisionOf(skills: readonly OperatorSkill[]): string {
  const content = JSON.stringify(skills.map((s) => [s.name, s.description, s.instructions]));
  return createHash("sha256").update(content).digest("hex").slice(0, 12);
}

type Loaded = OperatorSkillsLoad & { root: string; signature: string; revision: string; checkedAt: number };
let loaded: Loaded | undefined;

/** The folder as it is now: looked at again only once HINTLINE_SKILLS_CHECK_MS passed, read again only if it changed. */
function current(now: number): Loaded | undefined {
  const setting = process.env.HINTLINE_SKILLS_DIR;
  if (!setting) return undefined;
  const root = path.resolve(setting);
  const since = now - (loaded?.checkedAt ?? 0);
  if (loaded?.root === root && since >= 0 && since < envNumber("HINTLINE_SKILLS_CHECK_MS", DEFAULT_SKILLS_CHECK_MS))
    return loaded;
  const signature = folderSignature(root);
  if (loaded?.root === root && loaded.signature === signature) {
    loaded.checkedAt = now;
    return loaded;
  }
  const read = loadOperatorSkills(root);
  for (const { folder, reason } of read.skipped)
    console.warn(`HINTLINE_SKILLS_DIR: skill ${folder} left out: ${reason}`);
  loaded = { ...read, root, signature, revision: revisionOf(read.skills), checkedAt: now };
  return loaded;
}

/** The operator's skills (none without HINTLINE_SKILLS_DIR), as the folder holds them now. */
export function operatorSkills(now = Date.now()): OperatorSkill[] {
  return current(now)?.skills ?? [];
}

/** The revision of the operator's skills (none without HINTLINE_SKILLS_DIR): it changes when their content does. */
export function operatorSkillsRevision(now = Date.now()): string | undefined {
  return current(now)?.revision;
}

export function operatorSkill(name: string): OperatorSkill | null {
  return operatorSkills().find((s) => s.name === name) ?? null;
}

export type ResourceRead = { text: string; bytes: number } | { problem: string; files: string[] };

/** Every resource file of a skill (relative paths, SKILL.md left out), at most `max`. */
export function skillResources(skill: OperatorSkill, max = 200): string[] {
  const found: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= max) return;
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), rel);
      else if (entry.isFile() && rel !== "SKILL.md") found.push(rel);
    }
  };
  walk(skill.dir, "");
  return found;
}

/** A resource of the skill by its relative path: only a regular file inside the skill's folder (links resolved). */
export function readSkillResource(skill: OperatorSkill, relative: string): ResourceRead {
  const files = () => skillResources(skill);
  const base = fs.realpathSync(skill.dir);
  let real: string;
  try {
    real = fs.realpathSync(path.resolve(skill.dir, relative));
  } catch {
    return { problem: "does not exist", files: files() };
  }
  if (!real.startsWith(base + path.sep)) return { problem: "is outside the skill's folder", files: files() };
  const stat = fs.statSync(real);
  if (!stat.isFile()) return { problem: "is not a file", files: files() };
  if (stat.size > MAX_SKILL_RESOURCE_BYTES)
    return { problem: `is ${stat.size} bytes, over the limit of ${MAX_SKILL_RESOURCE_BYTES}`, files: files() };
  return { text: fs.readFileSync(real, "utf8"), bytes: stat.size };
}
