// axe-core for the browser tests: one way to check a view, in the theme it shows and, for colours, in the other one.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

type Theme = "light" | "dark";
type Result = Awaited<ReturnType<AxeBuilder["analyze"]>>;

/** The rules whose outcome depends on colours: the only ones a change of theme can change (the page is the same). */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

function describe(v: Result["violations"][number]): string {
  const nodes = v.nodes
    .slice(0, 6)
    .map((n) => `    ${n.target.join(" ")} — ${n.failureSummary?.split("\n").slice(1).join(" ").trim()}`);
  return `${v.impact} ${v.id}: ${v.help}\n${nodes.join("\n")}`;
}

// Legacy mode runs axe in the page itself: the default opens a blank page for every run to gather the frames' results,
// which costs a second and a renderer each time, and the app has no frames.
async function analyze(page: Page, rules?: string[]): Promise<Result> {
  const builder = new AxeBuilder({ page }).setLegacyMode(true);
  return (rules ? builder.withRules(rules) : builder).analyze();
}

/** The page's theme: html[data-theme], else the browser's preference (what the app's theme switch reads). */
async function currentTheme(page: Page): Promise<Theme> {
  return page.evaluate(() => {
    const explicit = document.documentElement.dataset.theme;
    if (explicit === "dark" || explicit === "light") return explicit;
    return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  });
}

async function setTheme(page: Page, theme: Theme | undefined): Promise<void> {
  await page.evaluate((value) => {
    if (value) document.documentElement.dataset.theme = value;
    else delete document.documentElement.dataset.theme;
  }, theme);
  // Transitions finish first, so that colours are measured at rest.
  await page.waitForTimeout(300);
}

function expectNoSevere(result: Result, view: string): void {
  const moderate = result.violations.filter((v) => v.impact === "moderate" || v.impact === "minor");
  if (moderate.length)
    console.log(`[axe] ${view}: ${moderate.length} moderate/minor\n${moderate.map(describe).join("\n")}`);
  const severe = result.violations.filter((v) => v.impact === "critical" || v.impact === "serious");
  // Soft: every view of a test is checked and reported, even after one of them failed.
  expect.soft(severe.map(describe), `${view}: critical/serious axe violations`).toEqual([]);
}

/**
 * Runs axe on the page as it is; fails (softly) on critical or serious violations, listed with their nodes, and prints
 * moderate ones. Unless `oneTheme`, the colour rules run again in the other theme — the switch the app's own toggle
 * makes (html[data-theme]) — and the page is put back as it was.
 */
export async function expectAxeClean(
  page: Page,
  view: string,
  { oneTheme = false }: { oneTheme?: boolean } = {},
): Promise<void> {
  await page.waitForTimeout(300);
  const theme = await currentTheme(page);
  expectNoSevere(await analyze(page), `${view} (${theme})`);
  if (oneTheme) return;
  const explicit = await page.evaluate(() => document.documentElement.dataset.theme);
  const other: Theme = theme === "dark" ? "light" : "dark";
  await setTheme(page, other);
  try {
    expectNoSevere(await analyze(page, COLOUR_RULES), `${view} (${other})`);
  } finally {
    await setTheme(page, explicit === "dark" || explicit === "light" ? explicit : undefined);
  }
}
