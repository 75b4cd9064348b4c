/** A model id that cannot be used as configured: the message says why and which variable to set. */
export class ModelChoiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelChoiceError";
  }
}

/**
 * A model name that goes into a request's URL (Gemini's `/models/{name}:streamGenerateContent`): no `/ \ ? # %` and
 * no leading dot, so it cannot rewrite the path the conversation and the key are posted to. Names that travel in a
 * request body (OpenAI-compatible servers' `Qwen/…`, Anthropic's) are not held to it.
 */
export const URL_MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
