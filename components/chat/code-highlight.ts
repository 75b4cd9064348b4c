// highlight.js, loaded only when a reply holds a code block: the core once, then each grammar the first time a block
// uses it (separate chunks served by the app itself; nothing from the network).
import type { HLJSApi, LanguageFn } from "highlight.js";
import type { Grammar } from "./code-language";

const GRAMMAR_LOADERS: Record<Grammar, () => Promise<{ default: LanguageFn }>> = {
  bash: () => import("highlight.js/lib/languages/bash"),
  c: () => import("highlight.js/lib/languages/c"),
  cpp: () => import("highlight.js/lib/languages/cpp"),
  css: () => import("highlight.js/lib/languages/css"),
  diff: () => import("highlight.js/lib/languages/diff"),
  go: () => import("highlight.js/lib/languages/go"),
  java: () => import("highlight.js/lib/languages/java"),
  javascript: () => import("highlight.js/lib/languages/javascript"),
  json: () => import("highlight.js/lib/languages/json"),
  markdown: () => import("highlight.js/lib/languages/markdown"),
  php: () => import("highlight.js/lib/languages/php"),
  python: () => import("highlight.js/lib/languages/python"),
  ruby: () => import("highlight.js/lib/languages/ruby"),
  rust: () => import("highlight.js/lib/languages/rust"),
  sql: () => import("highlight.js/lib/languages/sql"),
  typescript: () => import("highlight.js/lib/languages/typescript"),
  xml: () => import("highlight.js/lib/languages/xml"),
  yaml: () => import("highlight.js/lib/languages/yaml"),
};

let core: Promise<HLJSApi> | null = null;
const loaded = new Map<Grammar, Promise<HLJSApi>>();

/** highlight.js with `grammar` registered; resolves once both are loaded. */
export function highlighter(grammar: Grammar): Promise<HLJSApi> {
  let ready = loaded.get(grammar);
  if (!ready) {
    core ??= import("highlight.js/lib/core").then((m) => m.default);
    ready = Promise.all([core, GRAMMAR_LOADERS[grammar]()]).then(([hljs, language]) => {
      hljs.registerLanguage(grammar, language.default);
      return hljs;
    });
    loaded.set(grammar, ready);
  }
  return ready;
}
