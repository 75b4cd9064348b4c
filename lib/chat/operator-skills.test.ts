import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadOperatorSkills, parseSkillFile, readSkillResource, skillResources } from "./operator-skills.ts";

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
