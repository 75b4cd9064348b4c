// The built-in offline demo model's id, apart from the model itself (lib/ai/demo-model.ts), so that choosing a model
// (lib/ai/providers/choice.ts) does not load it.
export const DEMO_MODEL_ID = "hintline-demo";
