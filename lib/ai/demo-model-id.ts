// The built-in offline demo model's id, apart from the model itself (lib/ai/demo-model.ts), so that choosing a model
// (lib/ai/providers/choice.ts) does not load it.
export const DEMO_MODEL_ID = "hintline-demo";
/** The providerOptions key under which a reply tells the demo model its attempt (`{ attempt: n }`, Regenerate). */
export const DEMO_ATTEMPT_OPTIONS = "hintlineDemo";
