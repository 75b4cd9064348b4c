import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  loadOperatorSkills,
  operatorSkills,
  operatorSkillsRevision,
  parseSkillFile,
  readSkillResource,
  skillResources,
} from "./operator-skills.ts";

function skillsFolder(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "hintline-skills-"));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const skillMd = (name: string, description: string, body = "# Steps\n1. Do it.") =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

describe("operator skills", () => {
  it("parses the front matter and the body", () => {
    expect(parseSkillFile(skillMd("pdf-forms", '"Fills PDF forms"'))).toEqual({
      name: "pdf-forms",
      description: "Fills PDF forms",
      body: "# Steps\n1. Do it.",
    });
    expect(parseSkillFile("# no front matter")).toBeNull();
  });

  it("loads the usable folders by name and says why the others were left out", () => {
    const root = skillsFolder({
      "release-notes/SKILL.md": skillMd("release-notes", "Writes release notes"),
      "release-notes/templates/notes.md": "## Template",
      "wrong-name/SKILL.md": skillMd("other", "Mismatch"),
      "Bad_Name/SKILL.md": skillMd("Bad_Name", "Not kebab"),
      "no-file/readme.md": "nothing",
      "two-lines/SKILL.md": "---\nname: two-lines\n---\nbody",
    });
    const { skills, skipped } = loadOperatorSkills(root);
    expect(skills.map((s) => [s.name, s.description])).toEqual([["release-notes", "Writes release notes"]]);
    expect(Object.fromEntries(skipped.map((s) => [s.folder, s.reason]))).toEqual({
      Bad_Name: "its name is not kebab-case",
      "no-file": "it has no SKILL.md",
      "two-lines": "it has no one-line description",
      "wrong-name": 'its name "other" is not its folder\'s name',
    });
    expect(skillResources(skills[0]!)).toEqual(["templates/notes.md"]);
  });

  it("reads a resource inside the skill's folder only", () => {
    const root = skillsFolder({
      "a-skill/SKILL.md": skillMd("a-skill", "A"),
      "a-skill/ref.md": "reference",
      "secret.txt": "outside",
    });
    fs.symlinkSync(path.join(root, "secret.txt"), path.join(root, "a-skill", "link.txt"));
    const [skill] = loadOperatorSkills(root).skills;
    expect(readSkillResource(skill!, "ref.md")).toEqual({ text: "reference", bytes: 9 });
    expect(readSkillResource(skill!, "../secret.txt")).toMatchObject({ problem: "is outside the skill's folder" });
    expect(readSkillResource(skill!, "link.txt")).toMatchObject({ problem: "is outside the skill's folder" });
    expect(readSkillResource(skill!, "/etc/passwd")).toMatchObject({ problem: "is outside the skill's folder" });
    expect(readSkillResource(skill!, "missing.md")).toMatchObject({ problem: "does not exist", files: ["ref.md"] });
    expect(readSkillResource(skill!, ".")).toMatchObject({ problem: "is outside the skill's folder" });
  });

  it("reads nothing from a folder that does not exist", () => {
    const { skills, skipped } = loadOperatorSkills("/nonexistent/hintline-skills");
    expect(skills).toEqual([]);
    expect(skipped[0]?.reason).toMatch(/cannot be read/);
  });
});

describe("the operator's skills folder as it changes", () => {
  const saved = { dir: process.env.HINTLINE_SKILLS_DIR, check: process.env.HINTLINE_SKILLS_CHECK_MS };
  afterEach(() => {
    for (const [key, value] of [
      ["HINTLINE_SKILLS_DIR", saved.dir],
      ["HINTLINE_SKILLS_CHECK_MS", saved.check],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
  const names = (now: number) => operatorSkills(now).map((s) => `${s.name}: ${s.description}`);

  it("is read again once it changed, looked at no more often than HINTLINE_SKILLS_CHECK_MS", () => {
    const root = skillsFolder({ "release-notes/SKILL.md": skillMd("release-notes", "Writes release notes") });
    process.env.HINTLINE_SKILLS_DIR = root;
    delete process.env.HINTLINE_SKILLS_CHECK_MS; // the default: 5 s
    const t0 = 1_000_000;
    expect(names(t0)).toEqual(["release-notes: Writes release notes"]);
    const first = operatorSkillsRevision(t0);
    expect(first).toMatch(/^[0-9a-f]{12}$/);

    fs.writeFileSync(path.join(root, "release-notes/SKILL.md"), skillMd("release-notes", "Writes the notes, signed"));
    fs.mkdirSync(path.join(root, "pdf-forms"));
    fs.writeFileSync(path.join(root, "pdf-forms/SKILL.md"), skillMd("pdf-forms", "Fills PDF forms"));
    // Within the interval the folder is not looked at.
    expect(names(t0 + 4_999)).toEqual(["release-notes: Writes release notes"]);
    expect(operatorSkillsRevision(t0 + 4_999)).toBe(first);
    // After it, the change is read: skills added and edited, a new revision; SkillLoad finds the new one.
    expect(names(t0 + 5_000)).toEqual(["pdf-forms: Fills PDF forms", "release-notes: Writes the notes, signed"]);
    const second = operatorSkillsRevision(t0 + 5_000);
    expect(second).not.toBe(first);
    expect(operatorSkills(t0 + 5_000).find((s) => s.name === "pdf-forms")?.instructions).toBe("# Steps\n1. Do it.");

    // A skill removed; then put back as it was: the revision is the content's, the same as before.
    fs.rmSync(path.join(root, "pdf-forms"), { recursive: true });
    expect(names(t0 + 10_000)).toEqual(["release-notes: Writes the notes, signed"]);
    fs.writeFileSync(path.join(root, "release-notes/SKILL.md"), skillMd("release-notes", "Writes release notes"));
    expect(names(t0 + 15_000)).toEqual(["release-notes: Writes release notes"]);
    expect(operatorSkillsRevision(t0 + 15_000)).toBe(first);
  });

  it("looks at every call with HINTLINE_SKILLS_CHECK_MS=0, and has no revision without a folder", () => {
    const root = skillsFolder({ "a-skill/SKILL.md": skillMd("a-skill", "A") });
    process.env.HINTLINE_SKILLS_DIR = root;
    process.env.HINTLINE_SKILLS_CHECK_MS = "0";
    expect(names(1)).toEqual(["a-skill: A"]);
    fs.writeFileSync(path.join(root, "a-skill/SKILL.md"), skillMd("a-skill", "A, better"));
    expect(names(1)).toEqual(["a-skill: A, better"]);
    delete process.env.HINTLINE_SKILLS_DIR;
    expect(operatorSkillsRevision(2)).toBeUndefined();
    expect(operatorSkills(2)).toEqual([]);
  });
});
