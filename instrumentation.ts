// Runs once when the server starts, before any route module loads.
export async function register() {
  // An empty OPENAI_BASE_URL / OPENAI_API_KEY means "not set": @ai-sdk/openai would otherwise reject the blank
  // base URL when its module is first imported, failing every route.
  for (const key of ["OPENAI_BASE_URL", "OPENAI_API_KEY", "HINTLINE_MODEL"]) {
    if (process.env[key]?.trim() === "") delete process.env[key];
  }
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const [http, { refuseApiDotSegments }] = await Promise.all([import("node:http"), import("./lib/api/dot-segments.ts")]);
    refuseApiDotSegments(http.default);
  }
}
