// Internal switches of the harness, for the evaluation's variants only (eval/): every one is on in production and
// has no setting or environment variable. Turning one off measures what the feature is worth.
export type HarnessOptions = {
  /** The evidence ledger goes with a compression's summary (lib/agent/evidence-ledger.ts). */
  ledger: boolean;
  /** Tool results and errors end with the per-conversation call counter. */
  toolCallCounter: boolean;
  /** Tool errors carry their type, the arguments sent and what to do instead (else only their first line). */
  toolErrorDetails: boolean;
};

const DEFAULTS: HarnessOptions = { ledger: true, toolCallCounter: true, toolErrorDetails: true };
const current: HarnessOptions = { ...DEFAULTS };

export function harnessOptions(): Readonly<HarnessOptions> {
  return current;
}

/** Changes some switches (no argument: all back to the production defaults). */
export function setHarnessOptions(patch?: Partial<HarnessOptions>): void {
  Object.assign(current, patch ?? DEFAULTS);
}
