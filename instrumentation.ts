// Runs once when the server starts, before any route module loads.
export function register() {
  // An empty OPENAI_BASE_URL / OPENAI_API_KEY means "not set": @ai-sdk/openai would otherwise reject the blank
  // base URL when its module is first imported, failing every route.
  for (const key of ["OPENAI_BASE_URL", "OPENAI_API_KEY", "HINTLINE_MODEL"]) {
    if (process.env[key]?.trim() === "") delete process.env[key];
  }
}
