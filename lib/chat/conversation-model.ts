// A conversation's model: the one it chose (PATCH { model }), else the default. An id the environment no longer
// allows (its provider's key was removed) is refused in words naming what to set, before anything is written.
import { chooseModel, ModelChoiceError } from "../ai/providers/choice.ts";
import { modelFor, type ResolvedModel } from "../ai/providers/index.ts";
import { ApiError } from "../api/errors.ts";

export function modelForConversation(stored: string | null | undefined): ResolvedModel {
  try {
    return modelFor(stored);
  } catch (error) {
    if (error instanceof ModelChoiceError)
      throw new ApiError("provider_error", `This conversation's model cannot be used: ${error.message}`);
    throw error;
  }
}

/**
 * The model for a conversation's titles and summaries: HINTLINE_UTILITY_MODEL when it names one this server can use,
 * else the conversation's own.
 */
export function utilityModelFor(conversationModel: ResolvedModel): ResolvedModel {
  const id = process.env.HINTLINE_UTILITY_MODEL?.trim();
  if (!id) return conversationModel;
  try {
    return modelFor(id);
  } catch (error) {
    if (error instanceof ModelChoiceError) return conversationModel;
    throw error;
  }
}

/** The id a PATCH may store, or a 400 naming the field and what is wrong with it. */
export function checkModelChoice(id: string): string {
  try {
    chooseModel(id);
    return id;
  } catch (error) {
    if (error instanceof ModelChoiceError)
      throw new ApiError("bad_request", `Invalid model: ${error.message}`, "model");
    throw error;
  }
}
