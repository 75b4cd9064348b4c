// The planted facts of the compaction scenarios: 50 identifiers (file paths, shell commands, numbers with units),
// each stated once in a note and asked about later. Deterministic: the same 50 facts every run.
export type PlantedFact = { kind: "path" | "command" | "number"; note: string; question: string; answer: string };

const NAMES = [
  "alder",
  "birch",
  "cedar",
  "dogwood",
  "elm",
  "fir",
  "ginkgo",
  "hazel",
  "ironwood",
  "juniper",
  "kapok",
  "larch",
  "maple",
  "nutmeg",
  "oak",
  "poplar",
  "quince",
  "rowan",
  "spruce",
  "tamarind",
  "ulmus",
  "viburnum",
  "willow",
  "xylosma",
  "yew",
  "zelkova",
  "acacia",
  "baobab",
  "catalpa",
  "dove",
  "eucalyptus",
  "fig",
  "guava",
  "hawthorn",
  "ilex",
  "jacaranda",
  "kiwi",
  "linden",
  "magnolia",
  "neem",
  "olive",
  "pecan",
  "quassia",
  "redwood",
  "sassafras",
  "teak",
  "umbrella",
  "walnut",
  "yucca",
  "zebrawood",
];
const UNITS = ["MiB", "ms", "GB", "s", "%", "requests/s", "KiB", "min"] as const;

export function plantedFacts(): PlantedFact[] {
  return NAMES.map((name, i): PlantedFact => {
    const n = ((i * 37) % 89) + 11;
    if (i % 3 === 0) {
      const answer = `/srv/app${n}/etc/settings-${i}.toml`;
      return {
        kind: "path",
        note: `Note: the settings file of the ${name} service lives at ${answer}.`,
        question: `What was the path of the settings file of the ${name} service?`,
        answer,
      };
    }
    if (i % 3 === 1) {
      const answer = `make reindex SHARD=${n} REGION=eu-${i}`;
      return {
        kind: "command",
        note: `Note: to rebuild the ${name} index, run \`${answer}\`.`,
        question: `Which command rebuilds the ${name} index?`,
        answer,
      };
    }
    const unit = UNITS[i % UNITS.length]!;
    const answer = unit === "requests/s" ? `${n * 10} requests` : `${n * 8} ${unit}`.replace(" %", "%");
    return {
      kind: "number",
      note: `Note: the ${name} limit is ${answer}${unit === "requests/s" ? " per second" : ""}.`,
      question: `What is the value of the ${name} limit?`,
      answer,
    };
  });
}
